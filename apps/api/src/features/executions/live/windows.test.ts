import { describe, expect, it } from 'vitest';
import type { MeasurementCalc, ReportCalc } from '../plan';
import { testPlan } from '../test-plan';
import { boundedWindows, executionWindow, mergeWindows, windowReach } from './windows';

const M = 60_000;
const H = 3_600_000;
const D0 = Date.UTC(2026, 10, 28);

const measurement = (fieldId: string, inputIds: string[], algorithm: string, interval = 60, preload = 300) =>
  ({
    id: `c-${fieldId}`,
    fieldId,
    version: 1,
    revision: 0,
    interval,
    preload,
    inputIds,
    algorithm,
    outputType: 'Double',
    validFrom: 0,
    validTo: Infinity,
    approvedOn: 0,
  }) as MeasurementCalc;
const report = (fieldId: string, span: number) =>
  ({
    id: `r-${fieldId}`,
    fieldId,
    version: 1,
    revision: 0,
    span,
    inputIds: [],
    algorithm: '',
    validFrom: 0,
    validTo: Infinity,
    approvedOn: 0,
  }) as ReportCalc;

describe('live windows', () => {
  it('merges overlapping and near windows, drops empty ones', () => {
    expect(
      mergeWindows([
        { from: 10, to: 20 },
        { from: 0, to: 5 },
        { from: 19, to: 30 },
        { from: 40, to: 40 },
        { from: 33, to: 35 },
      ]),
    ).toEqual([
      { from: 0, to: 5 },
      { from: 10, to: 30 },
      { from: 33, to: 35 },
    ]);
    expect(
      mergeWindows(
        [
          { from: 0, to: 5 },
          { from: 8, to: 9 },
        ],
        3,
      ),
    ).toEqual([{ from: 0, to: 9 }]);
  });

  it('keeps at most the given number of windows, joining those with the smallest gaps', () => {
    const windows = [0, 100, 130, 400].map((from) => ({ from, to: from + 10 }));
    expect(boundedWindows(windows, 3)).toEqual([
      { from: 0, to: 10 },
      { from: 100, to: 140 },
      { from: 400, to: 410 },
    ]);
    expect(boundedWindows(windows, 1)).toEqual([{ from: 0, to: 410 }]);
  });

  it('reaches through the chain of calculations: each adds its interval, preload and AVERAGE_OVER window', () => {
    const plan = testPlan(D0, D0 + 24 * H, {
      channelById: new Map([['so2', { id: 'so2', data_source_id: 'ds', source: 'SO2', name: 'SO2_PPM' }]]),
      fieldName: new Map([
        ['ratio', 'RATIO'],
        ['avg', 'AVG'],
      ]),
      order: ['ratio', 'avg'],
      measurementCalcsByField: new Map([
        ['ratio', [measurement('ratio', ['so2'], 'return SO2_PPM;')]],
        ['avg', [measurement('avg', ['ratio'], 'return AVERAGE_OVER(RATIO, 600);', 60, 120)]],
      ]),
      reportCalcsByField: new Map([['hourly', [report('hourly', 3600)]]]),
    });
    const reach = windowReach(plan);
    // ratio: 60 s interval + 300 s preload; avg: its own 60 + 120 + 600 after ratio's.
    expect(reach.reachMs).toBe((60 + 300 + 60 + 120 + 600) * 1000);
    expect(reach.gridsMs).toEqual([M, H]);
    // A sample at 08:10:30 is executed from 08:00 to the end of the hour its effect reaches (08:10:31 + 19 min).
    const touched = { from: D0 + 8 * H + 10 * M + 30_000, to: D0 + 8 * H + 10 * M + 31_000 };
    expect(executionWindow(touched, reach)).toEqual({ from: D0 + 8 * H, to: D0 + 9 * H });
    // Near the end of the hour, the reach crosses into the next one.
    expect(executionWindow({ from: D0 + 8 * H + 55 * M, to: D0 + 8 * H + 56 * M }, reach)).toEqual({
      from: D0 + 8 * H,
      to: D0 + 10 * H,
    });
  });

  it('aligns to every grid, a day when the grids do not meet', () => {
    const at = D0 + 8 * H + 7 * M;
    expect(executionWindow({ from: at, to: at + M }, { gridsMs: [M, 15 * M], reachMs: 0 })).toEqual({
      from: D0 + 8 * H,
      to: D0 + 8 * H + 15 * M,
    });
    expect(
      executionWindow({ from: at, to: at + M }, { gridsMs: [7 * M, 11 * M], reachMs: 0 }).from,
    ).toBeLessThanOrEqual(at);
  });
});
