import { describe, expect, it } from 'vitest';
import { FUEL_TYPE_LOOKBACK_MS, fuelTypeCodes, fuelTypeReader } from './fuel-types';
import type { RawRead } from './on-targets';

const f = (...v: number[]) => Float64Array.from(v);
const channel = { id: 'c', dataSourceId: 'd', source: 'CODE', name: 'CODE' };

describe('fuel type codes', () => {
  it('keeps the logged codes in [from, to), without the missing values', () => {
    const raw = { timestamps: f(1, 2, 3, 4, 5), column: f(1, NaN, 2, 3, 4) };
    expect(fuelTypeCodes(raw, 2, 5)).toEqual({ kind: 'series', timestamps: [3, 4], values: [2, 3] });
    expect(fuelTypeCodes(undefined, 0, 9)).toEqual({ kind: 'series', timestamps: [], values: [] });
  });
});

describe('fuel type of a flow', () => {
  const window = { from: 10 * FUEL_TYPE_LOOKBACK_MS, to: 12 * FUEL_TYPE_LOOKBACK_MS };

  it('is fixed, UNKNOWN (no change-overs) or the record book read once for every flow that asks', async () => {
    let reads = 0;
    const changeOvers = [{ at: 5, fuelType: 'MDO_MGO' as const }];
    const fuelType = fuelTypeReader(window, {
      readRaw: () => Promise.reject(new Error('not read')),
      changeOvers: () => (reads++, Promise.resolve(changeOvers)),
    });
    expect(await fuelType({ kind: 'fixed', fuelType: 'HFO' })).toEqual({ kind: 'fixed', fuelType: 'HFO' });
    expect(await fuelType({ kind: 'unknown' })).toEqual({ kind: 'change-overs', changeOvers: [] });
    expect(await fuelType({ kind: 'change-overs' })).toEqual({ kind: 'change-overs', changeOvers });
    expect(await fuelType({ kind: 'change-overs' })).toEqual({ kind: 'change-overs', changeOvers });
    expect(reads).toBe(1);
  });

  it("reads a channel's codes from a day before the window to its end", async () => {
    const asked: [number, number][] = [];
    const readRaw: RawRead = (_c, from, to) => {
      asked.push([from, to]);
      return Promise.resolve({
        timestamps: f(window.from - 1, window.to - 1, window.to),
        column: f(2, 3, 4),
      });
    };
    const fuelType = fuelTypeReader(window, { readRaw, changeOvers: () => Promise.resolve([]) });
    expect(await fuelType({ kind: 'channel', channel })).toEqual({
      kind: 'series',
      timestamps: [window.from - 1, window.to - 1],
      values: [2, 3],
    });
    expect(asked).toEqual([[window.from - FUEL_TYPE_LOOKBACK_MS, window.to - 1]]);
  });
});
