import { describe, expect, it } from 'vitest';
import { computeMeasurementFields, fieldSeriesOf } from './measurement-fields';
import { latestEntryAtOrBefore } from './measurement-inputs';
import type { ExecutionPlan, MeasurementCalc } from './plan';
import { testPlan } from './test-plan';
import type { PeriodSamples } from './read-samples';

const M = 60_000;
const DAY = 86_400_000;
const FROM = Date.UTC(2025, 0, 1);

const calc = (fieldId: string, algorithm: string, inputIds: string[], more: Partial<MeasurementCalc> = {}) =>
  ({
    id: `c-${fieldId}`,
    fieldId,
    version: 1,
    revision: 0,
    interval: 60,
    preload: 300,
    inputIds,
    algorithm,
    outputType: 'Double',
    validFrom: -Infinity,
    validTo: Infinity,
    approvedOn: 0,
    ...more,
  }) satisfies MeasurementCalc;

/** A plan of one ship with one channel (LOAD, on the primary data source) and two fields, the second reading the first. */
function planOf(calcs: MeasurementCalc[], order: string[]): ExecutionPlan {
  const channel = { id: 'ch-load', data_source_id: 'ds', source: 'load', name: 'LOAD' };
  return testPlan(FROM, FROM + DAY, {
    channels: [channel],
    channelById: new Map([[channel.id, channel]]),
    fieldName: new Map([
      ['f-double', 'DOUBLE'],
      ['f-plus', 'PLUS'],
    ]),
    measurementCalcsByField: new Map(calcs.map((c) => [c.fieldId, [c]])),
    order,
  });
}

function samplesOf(timestamps: number[], load: number[]): PeriodSamples {
  const ts = Float64Array.from(timestamps);
  return {
    primaryTimestamps: ts,
    rawBySource: new Map([['ds', { timestamps: ts, columns: { load: Float64Array.from(load) } }]]),
    latitude: undefined,
    longitude: undefined,
    inputValues: load.filter((v) => !Number.isNaN(v)).length,
  };
}

const noStored = () => Promise.reject(new Error('nothing is read from storage here'));

describe('measurement fields step', () => {
  it('computes the fields in the planned order on the primary timestamps, a field reading another', async () => {
    const plan = planOf(
      [calc('f-double', 'return LOAD * 2;', ['ch-load']), calc('f-plus', 'return DOUBLE + 1;', ['f-double'])],
      ['f-double', 'f-plus'],
    );
    const timestamps = [FROM, FROM + M, FROM + 2 * M];
    const result = await computeMeasurementFields(plan, samplesOf(timestamps, [1, NaN, 3]), noStored);
    expect([...result.keys()]).toEqual(['f-double', 'f-plus']);
    expect(Array.from(result.get('f-double')!.timestamps)).toEqual(timestamps);
    // The raw gap is held within the preload interval; the derived field reads the computed values.
    expect(Array.from(result.get('f-double')!.values)).toEqual([2, 2, 6]);
    expect(Array.from(result.get('f-plus')!.values)).toEqual([3, 3, 7]);
  });

  it('reads a field that is not recomputed from storage', async () => {
    const plan = planOf([calc('f-plus', 'return DOUBLE + 1;', ['f-double'])], ['f-plus']);
    const timestamps = [FROM, FROM + M];
    const read: string[] = [];
    const result = await computeMeasurementFields(plan, samplesOf(timestamps, [0, 0]), (id) => {
      read.push(id);
      return Promise.resolve({
        timestamps: Float64Array.from(timestamps),
        values: Float64Array.from([10, 20]),
      });
    });
    expect(read).toEqual(['f-double']);
    expect(Array.from(result.get('f-plus')!.values)).toEqual([11, 21]);
  });

  it('fails the execution with the field and calculation named on a syntax error', async () => {
    const plan = planOf([calc('f-double', 'return LOAD *;', ['ch-load'])], ['f-double']);
    await expect(computeMeasurementFields(plan, samplesOf([FROM], [1]), noStored)).rejects.toThrow(
      /Measurement field DOUBLE, calculation 1\.0/,
    );
  });

  it('a field read by another: its latest calculated value within the preload, null stays null', () => {
    const ts = Float64Array.from([0, M, 2 * M]);
    const values = Float64Array.from([1, NaN, 3]);
    const targets = Float64Array.from([30_000, M + 30_000, 10 * M]);
    expect(Array.from(latestEntryAtOrBefore(ts, values, targets, 300))).toEqual([1, NaN, NaN]);
    expect(latestEntryAtOrBefore(ts, values, ts, 300)).toBe(values);
  });

  it('fieldSeriesOf: computed series first, a stored one read once', async () => {
    const computed = new Map([['a', { timestamps: new Float64Array(1), values: new Float64Array(1) }]]);
    let reads = 0;
    const seriesOf = fieldSeriesOf(computed, () => {
      reads++;
      return Promise.resolve({ timestamps: new Float64Array(0), values: new Float64Array(0) });
    });
    expect(await seriesOf('a')).toBe(computed.get('a'));
    await seriesOf('b');
    await seriesOf('b');
    expect(reads).toBe(1);
  });
});
