import { describe, expect, it } from 'vitest';
import { reduceSeries } from './inputs';

const series = (values: number[]) => ({
  timestamps: Float64Array.from(values.map((_, i) => i * 60_000)),
  values: Float64Array.from(values),
});

describe('reduceSeries', () => {
  it('keeps a short series as it is, NaN as null', () => {
    expect(reduceSeries(series([1, NaN, 3]), 10, 'max')).toEqual({
      timestamps: [0, 60_000, 120_000],
      values: [1, null, 3],
    });
  });

  it('keeps the worst value of each bucket of a long series: a short stop or peak is not averaged away', () => {
    const running = series([1, 1, 1, 0, 1, 1, NaN, NaN]);
    expect(reduceSeries(running, 4, 'min')).toEqual({
      timestamps: [0, 120_000, 240_000, 360_000],
      values: [1, 0, 1, null],
    });
    expect(reduceSeries(series([2, 9, 3, 4, 5]), 2, 'max').values).toEqual([9, 5]);
  });
});
