import { describe, expect, it } from 'vitest';
import { downsampleWithLimit, keptIndices, MAX_CHART_POINTS, type TimePoint } from './downsample';

const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 0, 1);

/** A year of hourly values: a daily wave between 2 and 4, below the ECA limit of 4.3. */
function year(): number[] {
  return Array.from({ length: 8_760 }, (_, h) => 3 + Math.sin((h / 24) * 2 * Math.PI));
}

describe('keptIndices', () => {
  it('keeps every point of a series that fits', () => {
    expect(keptIndices([1, null, 3], undefined, 8)).toEqual([0, 1, 2]);
  });

  it('bounds a year of hourly points and keeps its ends, its lowest and its highest value', () => {
    const values = year();
    values[5_000] = 40; // one hour far above the rest
    values[6_001] = -3;
    const kept = keptIndices(values);
    expect(kept.length).toBeLessThanOrEqual(MAX_CHART_POINTS);
    expect(kept.length).toBeGreaterThan(MAX_CHART_POINTS / 2);
    expect(kept).toEqual([...kept].sort((a, b) => a - b));
    expect(kept).toEqual(expect.arrayContaining([0, 8_759, 5_000, 6_001]));
  });

  it('keeps both sides of a crossing of the limit that LTTB alone would drop', () => {
    const values = year();
    // One crest of the daily wave just over a limit that every other crest stays under: LTTB keeps the crest (a
    // peak) but not the hours on either side, so alone it would draw the crossing as a spike of no width.
    values[4_326] = 4.001;
    const limit = values.map(() => 4.0005);
    const plain = keptIndices(values);
    expect(plain.includes(4_325) && plain.includes(4_327)).toBe(false);
    const kept = keptIndices(values, limit);
    expect(kept).toEqual(expect.arrayContaining([4_325, 4_326, 4_327]));
    expect(kept.length).toBeLessThanOrEqual(MAX_CHART_POINTS);
  });

  it("keeps the limit's steps (into and out of an ECA) and the edges of gaps", () => {
    const values: (number | null)[] = year();
    const limit = values.map((_, h) => (h >= 3_000 && h < 3_500 ? 4.3 : 21.7));
    for (let h = 7_000; h < 7_100; h++) values[h] = null;
    // In the ECA the ratio stays below 4.3: no crossing, only the limit's steps.
    const kept = keptIndices(values, limit);
    expect(kept).toEqual(expect.arrayContaining([2_999, 3_000, 3_499, 3_500, 6_999, 7_000, 7_099, 7_100]));
    expect(kept.filter((i) => values[i] === null)).toEqual([7_000, 7_099]);
  });

  it('keeps a crossing in every stretch of the chart when the series crosses its limit every hour', () => {
    // Alternating just below and above the limit all year: 8,759 crossings, far more than a chart can show.
    const values: number[] = Array.from({ length: 8_760 }, (_, h) => (h % 2 === 0 ? 4.2 : 4.4));
    values[100] = 9; // the highest
    const limit = values.map(() => 4.3);
    const kept = keptIndices(values, limit);
    expect(kept.length).toBeLessThanOrEqual(MAX_CHART_POINTS);
    expect(kept).toEqual(expect.arrayContaining([0, 8_759, 100]));
    // Every stretch of 20 hours (wider than a bucket) still holds a point above and one below the limit.
    for (let from = 0; from + 20 <= 8_760; from += 20) {
      const stretch = kept.filter((i) => i >= from && i < from + 20).map((i) => values[i]!);
      expect(stretch.some((v) => v > 4.3) && stretch.some((v) => v < 4.3), `hours ${from}+`).toBe(true);
    }
  });

  it('keeps at most the budget it is given', () => {
    const values = Array.from({ length: 1_000 }, (_, i) => (i % 3 === 0 ? null : i % 7));
    const limit = values.map((_, i) => (i % 2 ? 3 : 4));
    for (const max of [8, 9, 50, 333])
      expect(keptIndices(values, limit, max).length).toBeLessThanOrEqual(max);
    expect(() => keptIndices(values, limit, 7)).toThrow();
  });
});

describe('downsampleWithLimit', () => {
  it('keeps the same instants of a series and its limit, whose crossing survives', () => {
    const values: TimePoint[] = year().map((value, h) => ({ t: T0 + h * HOUR, value }));
    values[2_000] = { t: T0 + 2_000 * HOUR, value: 5 };
    const limit: TimePoint[] = values.map((p) => ({ t: p.t, value: 4.3 }));
    const out = downsampleWithLimit(values, limit);
    expect(out.values.length).toBeLessThanOrEqual(MAX_CHART_POINTS);
    expect(out.limit!.map((p) => p.t)).toEqual(out.values.map((p) => p.t));
    expect(out.values).toContainEqual({ t: T0 + 2_000 * HOUR, value: 5 });
    expect(out.values).toContainEqual({ t: T0 + 1_999 * HOUR, value: values[1_999]!.value });
  });

  it('leaves a short series as it is', () => {
    const values: TimePoint[] = [{ t: T0, value: 1 }];
    expect(downsampleWithLimit(values, undefined)).toEqual({ values, limit: undefined });
  });
});
