import { describe, expect, it } from 'vitest';
import { computeSegment, type SegmentContext } from './measurement-segment';
import type { MeasurementCalc } from './plan';
import type { PeriodSamples } from './read-samples';
import { targetAxes } from './target-axes';
import { testPlan } from './test-plan';
import { zoneColumns } from './zone-columns';

const M = 60_000;
const FROM = Date.UTC(2025, 0, 1);
const channel = { id: 'ch-load', data_source_id: 'ds', source: 'load', name: 'LOAD' };

/** LOAD is the minute's number counted from the period's start: -3, -2, -1 before it, 0..9 inside. */
function context(): SegmentContext {
  const minutes = Array.from({ length: 13 }, (_, i) => i - 3);
  const all = Float64Array.from(minutes.map((m) => FROM + m * M));
  const samples: PeriodSamples = {
    primaryTimestamps: all.subarray(3),
    lookbackTimestamps: all.subarray(0, 3),
    rawBySource: new Map([['ds', { timestamps: all, columns: { load: Float64Array.from(minutes) } }]]),
    latitude: undefined,
    longitude: undefined,
    inputValues: minutes.length,
  };
  return {
    plan: testPlan(FROM, FROM + 10 * M, {
      channelById: new Map([[channel.id, channel]]),
      fieldName: new Map([['f-avg', 'AVG']]),
    }),
    samples,
    seriesOf: () => Promise.reject(new Error('no field is read here')),
    readHistory: () => Promise.reject(new Error('no field is read here')),
    zoneOf: zoneColumns(samples),
    axes: targetAxes(samples),
  };
}

const calc = (algorithm: string): MeasurementCalc => ({
  id: 'c-avg',
  fieldId: 'f-avg',
  version: 2,
  revision: 1,
  interval: 60,
  preload: 0,
  inputIds: ['ch-load'],
  algorithm,
  outputType: 'Double',
  validFrom: -Infinity,
  validTo: Infinity,
  approvedOn: 0,
});

describe('measurement field segment', () => {
  it('runs the calculation on the targets of its segment', async () => {
    const part = await computeSegment(context(), 'f-avg', calc('return LOAD * 2;'), {
      from: FROM + 2 * M,
      to: FROM + 5 * M,
    });
    expect(Array.from(part!.timestamps).map((t) => (t - FROM) / M)).toEqual([2, 3, 4]);
    expect(Array.from(part!.values)).toEqual([4, 6, 8]);
  });

  it('averages a rolling window over the minutes before the period at its first targets', async () => {
    const part = await computeSegment(context(), 'f-avg', calc('return AVERAGE_OVER(LOAD, 180);'), {
      from: FROM,
      to: FROM + 3 * M,
    });
    expect(Array.from(part!.timestamps).map((t) => (t - FROM) / M)).toEqual([0, 1, 2]);
    // (t - 180 s, t]: at 00:00 the minutes -2, -1 and 0.
    expect(Array.from(part!.values)).toEqual([-1, 0, 1]);
  });

  it('has nothing to compute where the segment holds no target', async () => {
    expect(
      await computeSegment(context(), 'f-avg', calc('return LOAD;'), {
        from: FROM + 20 * M,
        to: FROM + 30 * M,
      }),
    ).toBeNull();
  });
});
