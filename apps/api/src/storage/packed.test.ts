import { describe, expect, it } from 'vitest';
import { isPacked, packCodes, packFloat64, unpackFloat64 } from './packed';

function sameDoubles(a: Float64Array, b: Float64Array) {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++)
    if (!Object.is(a[i], b[i])) throw new Error(`value ${i}: ${a[i]} stored, ${b[i]} read back`);
}

/** Deterministic pseudo-random numbers. */
function generator(seed: number) {
  let s = seed;
  return () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

function roundTrip(values: Float64Array): Buffer {
  const stored = packFloat64(values);
  // Through a fresh, deliberately misaligned buffer, as a driver may hand it back.
  const copy = Buffer.alloc(stored.length + 3);
  stored.copy(copy, 3);
  sameDoubles(unpackFloat64(copy.subarray(3)), values);
  return stored;
}

describe('packing a channel column', () => {
  const random = generator(7);
  const n = 5_000;

  it('stores logger values with few decimals in 1 to 4 bytes each, exactly', () => {
    const cases: [string, (i: number) => number, number][] = [
      ['small integers', (i) => i % 200, 1],
      ['one decimal', () => Number((random() * 500).toFixed(1)), 2],
      ['three decimals', () => Number((random() * 600).toFixed(3)), 3],
      ['negative two decimals', () => Number((random() * 2000 - 1000).toFixed(2)), 3],
      ['large integers', () => Math.round(random() * 4e9), 4],
    ];
    for (const [name, make, width] of cases) {
      const values = Float64Array.from({ length: n }, (_, i) => make(i));
      const stored = roundTrip(values);
      expect(isPacked(stored), name).toBe(true);
      expect(stored.length, name).toBeLessThan(16 + width * n + 8);
      expect(stored.length % 8, name).toBe(4);
    }
  });

  it('stores a day of UTC timestamps in 3 bytes each at one a second, 2 bytes at one a minute', () => {
    const start = Date.UTC(2026, 0, 1);
    const seconds = Float64Array.from({ length: 86_400 }, (_, i) => start + i * 1000);
    expect(roundTrip(seconds).length).toBeLessThan(16 + 3 * 86_400 + 8);
    const minutes = Float64Array.from({ length: 1_440 }, (_, i) => start + i * 60_000);
    expect(roundTrip(minutes).length).toBeLessThan(16 + 2 * 1_440 + 8);
  });

  it('keeps missing values missing', () => {
    const values = Float64Array.from({ length: n }, (_, i) =>
      i % 7 === 0 ? NaN : Number((random() * 10).toFixed(2)),
    );
    expect(isPacked(roundTrip(values))).toBe(true);
    expect(isPacked(roundTrip(new Float64Array(100).fill(NaN)))).toBe(true);
  });

  it('keeps columns that cannot be packed exactly as plain doubles', () => {
    const cases: [string, Float64Array][] = [
      ['arbitrary doubles', Float64Array.from({ length: n }, () => random() * 1e3)],
      ['thirds', Float64Array.from({ length: n }, (_, i) => i / 3)],
      ['negative zero', Float64Array.from([1, 2, -0, 4, 5])],
      ['infinity', Float64Array.from([1, 2, Infinity, 4, 5])],
      ['a range wider than 32 bits', Float64Array.from([0, 1, 2, 2 ** 40, 5])],
      ['huge magnitudes', Float64Array.from([1e300, 1, 2, 3, 4])],
      ['one odd value at the end', Float64Array.from({ length: n }, (_, i) => (i === n - 1 ? Math.PI : i))],
    ];
    for (const [name, values] of cases) {
      const stored = roundTrip(values);
      expect(isPacked(stored), name).toBe(false);
      expect(stored.length, name).toBe(values.length * 8);
    }
  });

  it('reads rows stored as plain doubles before packing existed', () => {
    const values = Float64Array.from([1.5, NaN, -2.25, 1e-300]);
    sameDoubles(unpackFloat64(new Uint8Array(values.buffer.slice(0))), values);
  });

  it('packs a column the reader kept as integer codes to the same values, narrower when every code ends in zero', () => {
    const values = (codes: Float64Array, decimals: number) => codes.map((k) => k / 10 ** decimals);
    const cases: [string, Float64Array, number, number][] = [
      ['two decimals', Float64Array.from({ length: n }, () => Math.round(random() * 50_000) - 25_000), 2, 2],
      [
        'integers with missing values',
        Float64Array.from({ length: n }, (_, i) => (i % 9 === 0 ? NaN : i % 250)),
        0,
        1,
      ],
      // "12.50", "7.30", ...: codes at two decimals span 0..2000 (2 bytes), at one decimal 0..200 (1 byte).
      [
        'a trailing zero on every value',
        Float64Array.from({ length: n }, () => Math.round(random() * 200) * 10),
        2,
        1,
      ],
      ['all missing', new Float64Array(50).fill(NaN), 3, 1],
    ];
    for (const [name, codes, decimals, width] of cases) {
      const stored = packCodes(codes, decimals)!;
      expect(isPacked(stored), name).toBe(true);
      expect(stored[2], name).toBe(width);
      sameDoubles(unpackFloat64(stored), values(codes, decimals));
    }
    // -0 is kept only by plain doubles; a range of 2^32 or more does not fit.
    expect(packCodes(Float64Array.from([1, 2, -0, 4, 5]), 1)).toBeNull();
    expect(packCodes(Float64Array.from([0, 1, 2, 2 ** 40, 5]), 0)).toBeNull();
  });
});
