/** Binary searches over sorted timestamp columns (UTC epoch ms), shared by the storage readers and the engine. */

/** The first index in [from, to) with ts[i] >= value (`to` when none). */
export function lowerBound(ts: Float64Array, value: number, from = 0, to = ts.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index with ts[i] > value (`ts.length` when none). */
export function upperBound(ts: Float64Array, value: number): number {
  let lo = 0;
  let hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
