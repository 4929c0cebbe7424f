import { describe, expect, it } from 'vitest';
import { ExecutionError } from '../calculations';
import type { MeasurementCalc, ReportCalc } from './types';
import { byField, measurementOrder, requestedReportCalcs } from './order';

const calc = (fieldId: string, inputIds: string[] = []) => ({ fieldId, inputIds }) as MeasurementCalc;
const fieldName = new Map(['a', 'b', 'c'].map((id) => [id, id.toUpperCase()]));

describe('the order of the measurement fields', () => {
  it('puts each requested field after the fields it reads (channels are no fields)', () => {
    const calcs = byField([calc('c', ['b', 'channel-1']), calc('b', ['a']), calc('a', ['channel-2'])]);
    expect(measurementOrder(calcs, 'all', fieldName, (id) => id)).toEqual(['a', 'b', 'c']);
    expect(measurementOrder(calcs, new Set(['c', 'b']), fieldName, (id) => id)).toEqual(['b', 'c']);
  });

  it('fails the execution on a cycle, naming its fields', () => {
    const calcs = byField([calc('a', ['b']), calc('b', ['a'])]);
    expect(() => measurementOrder(calcs, 'all', fieldName, (id) => `field ${id}`)).toThrow(ExecutionError);
    expect(() => measurementOrder(calcs, 'all', fieldName, (id) => `field ${id}`)).toThrow(/field a/);
  });
});

describe('the report calculations', () => {
  it('are the requested fields’, per field in the order given', () => {
    const r = (id: string, fieldId: string) => ({ id, fieldId }) as ReportCalc;
    const all = [r('1', 'x'), r('2', 'y'), r('3', 'x')];
    expect([...requestedReportCalcs(all, 'all')].map(([f, c]) => [f, c.map((x) => x.id)])).toEqual([
      ['x', ['1', '3']],
      ['y', ['2']],
    ]);
    expect([...requestedReportCalcs(all, new Set(['y'])).keys()]).toEqual(['y']);
  });
});
