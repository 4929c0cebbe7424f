import { describe, expect, it } from 'vitest';
import { channelOnTargets, onTargets, RAW_HOLD_SECONDS, type RawRead } from './on-targets';

const f = (...v: number[]) => Float64Array.from(v);
const ref = { id: 'c', dataSourceId: 'd', source: 'S', name: 'S' };

describe('values on the targets', () => {
  it("takes a series' value at each target's exact time, NaN where it has none", () => {
    expect([...onTargets(f(1, 2, 3, 5), { timestamps: f(2, 3, 4, 5), values: f(20, 30, 40, 50) })]).toEqual([
      NaN,
      20,
      30,
      50,
    ]);
  });

  it("holds a raw channel's last sample onto the targets within the preload, reading from the preload before the first", async () => {
    const asked: [number, number][] = [];
    const read: RawRead = (_ref, from, to) => {
      asked.push([from, to]);
      return Promise.resolve({ timestamps: f(0, 60_000), column: f(1, 2) });
    };
    const held = await channelOnTargets(read, ref, f(60_000, 120_000, 60_000 + 301_000));
    expect(asked).toEqual([[60_000 - RAW_HOLD_SECONDS * 1000, 361_000]]);
    expect([...held]).toEqual([2, 2, NaN]);
  });

  it('is empty for no targets and NaN where the channel has no samples', async () => {
    const none: RawRead = () => Promise.resolve(undefined);
    expect(await channelOnTargets(none, ref, f())).toHaveLength(0);
    expect([...(await channelOnTargets(none, ref, f(1, 2)))]).toEqual([NaN, NaN]);
  });
});
