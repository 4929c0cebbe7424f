import { describe, expect, it } from 'vitest';
import { dayChunks } from '../../storage';
import {
  CycleError,
  dependencyOrder,
  sampleAndHold,
  thinToInterval,
  unionAxis,
  validitySegments,
} from './series';

const M = 60_000;

describe('target timestamps and sample-and-hold', () => {
  it('keeps the first primary timestamp of each interval bucket, independent of where the period starts', () => {
    const primary = Float64Array.from([0, 30, 60, 90, 120, 150, 180].map((s) => s * 1000));
    expect(Array.from(thinToInterval(primary, 60))).toEqual([0, 60_000, 120_000, 180_000]);
    expect(Array.from(thinToInterval(primary.subarray(1), 60))).toEqual([30_000, 60_000, 120_000, 180_000]);
    expect(Array.from(thinToInterval(primary, 10))).toEqual(Array.from(primary));
  });

  it('holds the last non-null sample within the preload interval, else null', () => {
    const ts = Float64Array.from([0, M, 2 * M, 10 * M]);
    const values = Float64Array.from([1, NaN, 3, 4]);
    const targets = Float64Array.from([M, 3 * M, 7 * M, 8 * M, 10 * M]);
    const held = sampleAndHold(ts, values, targets, 300);
    expect(Array.from(held)).toEqual([1, 3, 3, NaN, 4]);
    // On its own axis the same rule holds.
    expect(Array.from(sampleAndHold(ts, values, ts, 30))).toEqual([1, NaN, 3, 4]);
  });

  it('merges timestamp axes and splits a series into UTC days', () => {
    expect(Array.from(unionAxis([Float64Array.from([1, 3]), Float64Array.from([2, 3, 4])]))).toEqual([
      1, 2, 3, 4,
    ]);
    const day = 86_400_000;
    expect(dayChunks(Float64Array.from([day - 1, day, day + 5, 3 * day]))).toEqual([
      { day: 0, start: 0, end: 1 },
      { day, start: 1, end: 3 },
      { day: 3 * day, start: 3, end: 4 },
    ]);
  });
});

describe('which calculation holds when', () => {
  it('takes the approved calculation with the latest valid-from that has begun and not ended', () => {
    const v1 = { item: 'v1', from: 0, to: Infinity, rank: 1 };
    const v2 = { item: 'v2', from: 100, to: 200, rank: 2 };
    expect(validitySegments([v1, v2], 50, 300)).toEqual([
      { item: 'v1', from: 50, to: 100 },
      { item: 'v2', from: 100, to: 200 },
      { item: 'v1', from: 200, to: 300 },
    ]);
    expect(validitySegments([v2], 0, 150)).toEqual([{ item: 'v2', from: 100, to: 150 }]);
  });
});

describe('dependency order', () => {
  it('puts inputs first and names the fields along a cycle', () => {
    const order = dependencyOrder(
      new Map([
        ['ratio', new Set(['so2', 'co2'])],
        ['so2', new Set()],
        ['co2', new Set()],
        ['compliant', new Set(['ratio'])],
      ]),
      (id) => id,
    );
    expect(order.indexOf('ratio')).toBeGreaterThan(order.indexOf('so2'));
    expect(order.indexOf('compliant')).toBeGreaterThan(order.indexOf('ratio'));
    expect(() =>
      dependencyOrder(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['a'])],
        ]),
        (id) => id.toUpperCase(),
      ),
    ).toThrow(new CycleError(['A', 'B', 'A']).message);
  });
});
