import { describe, expect, it } from 'vitest';
import { defaultThreshold } from '@portal/contracts/data-health';
import {
  dataGaps,
  channelHealth,
  engineSeries,
  flagChannel,
  flatLineIntervals,
  outOfRangeIntervals,
  runningAt,
  scrubberSeries,
  staleIntervals,
  type ChannelSeries,
} from './flags';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 2, 1);

/** One value a minute from T0; null = missing. */
const series = (values: (number | null)[]): ChannelSeries => ({
  timestamps: Float64Array.from(values, (_, i) => T0 + i * MIN),
  values: Float64Array.from(values, (v) => (v === null ? NaN : v)),
});
const repeat = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));

describe('out of range', () => {
  it('finds each run of values outside the bounds, with the value furthest out', () => {
    const s = series([7, 15, 16, null, 14.5, 7, -1, 7]);
    expect(outOfRangeIntervals(s, 0, 14)).toEqual([
      { kind: 'outOfRange', from: T0 + MIN, to: T0 + 4 * MIN, samples: 3, value: 16 },
      { kind: 'outOfRange', from: T0 + 6 * MIN, to: T0 + 6 * MIN, samples: 1, value: -1 },
    ]);
  });

  it('checks an open bound only on its side', () => {
    expect(outOfRangeIntervals(series([1e6, -0.1]), 0, null)).toHaveLength(1);
    expect(outOfRangeIntervals(series([1e6, -0.1]), null, null)).toEqual([]);
  });
});

describe('flat-lined', () => {
  it('flags a value unchanged for the hours while the engine runs, not a shorter one', () => {
    const stuck = series([...repeat(121, () => 42.5), 43, ...repeat(60, () => 42.5)]);
    const running = new Uint8Array(182).fill(1);
    expect(flatLineIntervals(stuck, 2, running)).toEqual([
      { kind: 'flatLined', from: T0, to: T0 + 120 * MIN, samples: 121, value: 42.5 },
    ]);
    expect(flatLineIntervals(stuck, 3, running)).toEqual([]);
  });

  it('does not flag a value that stays the same while the engine is stopped', () => {
    const s = series(repeat(300, () => 0));
    const stopped = new Uint8Array(300);
    expect(flatLineIntervals(s, 2, stopped)).toEqual([]);
    // Stopped for one sample in the middle: neither half lasts two hours.
    const once = new Uint8Array(300).fill(1);
    once[150] = 0;
    expect(flatLineIntervals(s, 3, once)).toEqual([]);
  });

  it('is not checked without a flat-line time (a fuel sulfur may stay for days)', () => {
    expect(flatLineIntervals(series(repeat(600, () => 0.48)), null, new Uint8Array(600).fill(1))).toEqual([]);
  });
});

describe('washwater channels', () => {
  it('are not flat-lined while the scrubber is stopped, only while it runs', () => {
    const flow = series(Array.from({ length: 300 }, () => 0));
    const load = series(Array.from({ length: 300 }, () => 80));
    const threshold = defaultThreshold('WASHWATER_FLOW');
    const stopped = scrubberSeries(series(Array.from({ length: 300 }, () => 0)));
    expect(flagChannel(flow, { threshold, engine: engineSeries(load, null), scrubber: stopped })).toEqual([]);
    const running = scrubberSeries(series(Array.from({ length: 300 }, () => 1)));
    expect(
      flagChannel(flow, { threshold, engine: engineSeries(load, null), scrubber: running }).map(
        (i) => i.kind,
      ),
    ).toEqual(['flatLined']);
  });
});

describe('engine running', () => {
  it('runs above idle load, holds the last known state over a missing value, and is taken as running before its first sample', () => {
    const load = series([5, 50, null, 8]);
    const engine = engineSeries(load, null)!;
    expect([...engine.running]).toEqual([0, 1, 1, 0]);
    const rows = Float64Array.from([T0 - MIN, T0, T0 + 2.5 * MIN, T0 + 10 * MIN]);
    expect([...runningAt(rows, engine)]).toEqual([1, 0, 1, 0]);
  });

  it('uses the fuel flow (above 50 kg/h) without an engine load, and is unknown without either', () => {
    expect([...engineSeries(null, series([20, 900]))!.running]).toEqual([0, 1]);
    expect(engineSeries(null, null)).toBeNull();
    expect([...runningAt(Float64Array.from([T0]), null)]).toEqual([1]);
  });
});

describe('stale', () => {
  it('flags hours without a value while the logger wrote rows, and the end up to the ship’s latest data', () => {
    const s = series([1, ...repeat(180, () => null), 2, 3]);
    expect(staleIntervals(s, 2)).toEqual([
      { kind: 'stale', from: T0, to: T0 + 181 * MIN, samples: 0, value: null },
    ]);
    // The channel stopped at its last row, the ship's other data goes on 3 hours longer.
    expect(staleIntervals(series([1, 2]), 2, { until: T0 + 3 * HOUR + MIN })).toEqual([
      { kind: 'stale', from: T0 + MIN, to: T0 + 3 * HOUR + MIN, samples: 0, value: null },
    ]);
  });

  it('does not flag a time without rows (the logger was off: a data gap) nor a short silence', () => {
    const gap: ChannelSeries = {
      timestamps: Float64Array.from([T0, T0 + 5 * HOUR]),
      values: Float64Array.from([1, 2]),
    };
    expect(staleIntervals(gap, 2)).toEqual([]);
    expect(staleIntervals(series([1, ...repeat(60, () => null), 2]), 2)).toEqual([]);
  });

  it('flags a channel of a data source with no row in the period when the ship has data', () => {
    const empty: ChannelSeries = { timestamps: new Float64Array(), values: new Float64Array() };
    expect(staleIntervals(empty, 2, { from: T0, until: T0 + 24 * HOUR })).toHaveLength(1);
  });
});

describe('a channel over a period', () => {
  it('gives coverage against the measure frequency, the last value and the flags in time order', () => {
    // SO2 stuck at 12.3 ppm for 3 hours while the engine runs, then an hour out of range.
    const so2 = series([...repeat(181, () => 12.3), ...repeat(60, () => 2500), ...repeat(59, () => null)]);
    const load = series(repeat(300, () => 80));
    const result = channelHealth(so2, {
      threshold: defaultThreshold('SO2_PPM'),
      engine: engineSeries(load, null),
      from: T0,
      to: T0 + 10 * HOUR,
      now: T0 + 5 * HOUR,
      measureFrequencySeconds: 60,
    });
    expect(result.samples).toBe(241);
    expect(result.expectedSamples).toBe(300);
    expect(result.coverage).toBeCloseTo(241 / 300);
    expect(result.lastValueOn).toBe(T0 + 240 * MIN);
    expect(result.flags.sort()).toEqual(['flatLined', 'outOfRange']);
    expect(result.intervals.map((i) => i.kind)).toEqual(['flatLined', 'outOfRange']);
  });

  it('flags a pH of 15 out of range with the defaults', () => {
    const ph = series([7.1, 15, 7.2]);
    expect(flagChannel(ph, { threshold: defaultThreshold('WASHWATER_PH') })).toEqual([
      { kind: 'outOfRange', from: T0 + MIN, to: T0 + MIN, samples: 1, value: 15 },
    ]);
  });
});

describe('data gaps', () => {
  const minutes = (...m: number[]) => Float64Array.from(m, (x) => x * 60_000);
  it('finds stretches without a row from any data source longer than the limit', () => {
    // Two loggers: one stops at 10, the other writes at 30 and again at 200: the ship has no row 30-200.
    const gaps = dataGaps([minutes(0, 5, 10), minutes(3, 30, 200, 201)], 60 * 60_000);
    expect(gaps).toEqual([{ from: 30 * 60_000, to: 200 * 60_000 }]);
  });

  it('does not count a stretch exactly as long as the limit, nor before the first row', () => {
    expect(dataGaps([minutes(100, 160, 161)], 60 * 60_000)).toEqual([]);
    expect(dataGaps([new Float64Array(), minutes(5)], 1)).toEqual([]);
  });
});
