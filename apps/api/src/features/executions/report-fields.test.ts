import { describe, expect, it } from 'vitest';
import type { ExecutionPlan, ReportCalc } from './plan';
import { testPlan } from './test-plan';
import { calculationKey, computeReportFields, shareCalculations } from './report-fields';

const M = 60_000;
const H = 3_600_000;
const FROM = Date.UTC(2025, 0, 1);

const calc = (fieldId: string, algorithm: string, more: Partial<ReportCalc> = {}) =>
  ({
    id: `c-${fieldId}-${more.version ?? 1}`,
    fieldId,
    version: 1,
    revision: 0,
    span: 3600,
    inputIds: ['f-load'],
    algorithm,
    validFrom: -Infinity,
    validTo: Infinity,
    approvedOn: 0,
    ...more,
  }) satisfies ReportCalc;

function planOf(calcs: ReportCalc[]): ExecutionPlan {
  const byField = new Map<string, ReportCalc[]>();
  for (const c of calcs) byField.set(c.fieldId, [...(byField.get(c.fieldId) ?? []), c]);
  return testPlan(FROM, FROM + 2 * H, {
    fieldName: new Map([['f-load', 'LOAD']]),
    reportCalcsByField: byField,
    reportFieldNames: new Map([...byField.keys()].map((id) => [id, `Report ${id}`])),
  });
}

/** LOAD: 1 every minute of the first hour, 3 every minute of the second. */
const load = () => {
  const timestamps = Float64Array.from({ length: 120 }, (_, i) => FROM + i * M);
  const values = Float64Array.from({ length: 120 }, (_, i) => (i < 60 ? 1 : 3));
  return { timestamps, values };
};

describe('report fields step', () => {
  it('computes each distinct calculation once and gives the fields that share it the same series', async () => {
    const plan = planOf([
      calc('average-a', 'return LOAD.Average();'),
      calc('average-b', 'return LOAD.Average();'),
      calc('sum', 'return LOAD.Sum();'),
    ]);
    let reads = 0;
    const result = await computeReportFields(plan, () => {
      reads++;
      return Promise.resolve(load());
    });
    expect(reads).toBe(2); // one per distinct calculation, not per field
    expect(result.get('average-a')).toBe(result.get('average-b'));
    expect(Array.from(result.get('average-a')!.spanStarts)).toEqual([FROM, FROM + H]);
    expect(Array.from(result.get('average-a')!.values)).toEqual([1, 3]);
    expect(Array.from(result.get('sum')!.values)).toEqual([60, 180]);
  });

  it('groups by the calculations in the period: algorithm, inputs, span and validity', () => {
    const groups = shareCalculations(
      planOf([
        calc('a', 'return LOAD.Average();'),
        calc('b', 'return LOAD.Average();'),
        calc('other-span', 'return LOAD.Average();', { span: 86_400 }),
        calc('other-validity', 'return LOAD.Average();', { validFrom: FROM }),
      ]).reportCalcsByField,
    );
    expect(groups.map((g) => g.fieldIds)).toEqual([['a', 'b'], ['other-span'], ['other-validity']]);
    // The order of precedence counts, not the order the rows came in.
    const first = calc('x', 'return 1;', { validFrom: FROM, approvedOn: 1 });
    const second = calc('x', 'return 2;', { validFrom: FROM + H, approvedOn: 2 });
    expect(calculationKey([first, second])).toBe(calculationKey([second, first]));
  });

  it('names the first field of a group in an error', async () => {
    const plan = planOf([calc('a', 'return LOAD.Average(;'), calc('b', 'return LOAD.Average(;')]);
    await expect(computeReportFields(plan, () => Promise.resolve(load()))).rejects.toThrow(
      /Report field Report a, calculation 1\.0/,
    );
  });
});
