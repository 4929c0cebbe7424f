import { describe, expect, it } from 'vitest';
import { targetAxes } from './target-axes';

const M = 60_000;

describe('target axes', () => {
  it('thins the primary timestamps to each interval once, and puts the lookback rows before them', () => {
    const axes = targetAxes({
      primaryTimestamps: Float64Array.from([0, 30, 60, 90, 120].map((s) => s * 1000)),
      lookbackTimestamps: Float64Array.from([-2 * M, -M - 30_000, -M]),
    });
    expect(Array.from(axes.at(60))).toEqual([0, M, 2 * M]);
    expect(axes.at(60)).toBe(axes.at(60));
    // Buckets are aligned to the epoch, before the period as in it: -01:30 falls in -02:00's minute.
    expect(Array.from(axes.withLookback(60))).toEqual([-2 * M, -M, 0, M, 2 * M]);
    expect(Array.from(axes.withLookback(120))).toEqual([-2 * M, 0, 2 * M]);
  });
});
