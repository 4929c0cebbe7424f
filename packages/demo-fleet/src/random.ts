/**
 * Counter-based pseudo-random numbers: a value is a pure function of (seed, stream, index), so any minute of any day can be
 * generated on its own and always gives the same bytes, whatever range of time is asked for.
 */

/** 32-bit mix of three integers (a murmur3-style finaliser over a combined key). */
export function hash3(seed: number, stream: number, index: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ Math.imul(stream + 0x632be5ab, 0xc2b2ae35), 0x27d4eb2f);
  h ^= Math.imul((index | 0) ^ ((index / 4_294_967_296) | 0), 0x165667b1);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
  return (h ^ (h >>> 15)) >>> 0;
}

/** Uniform in [0, 1). */
export function uniform(seed: number, stream: number, index: number): number {
  return hash3(seed, stream, index) / 4_294_967_296;
}

/** Uniform in [-1, 1). */
export function signed(seed: number, stream: number, index: number): number {
  return uniform(seed, stream, index) * 2 - 1;
}

/** Smooth noise in [-1, 1]: random values at knots `knot` apart, cosine-interpolated in between. */
export function smooth(seed: number, stream: number, x: number, knot: number): number {
  const u = x / knot;
  const k = Math.floor(u);
  const f = u - k;
  const w = (1 - Math.cos(Math.PI * f)) / 2;
  return signed(seed, stream, k) * (1 - w) + signed(seed, stream, k + 1) * w;
}
