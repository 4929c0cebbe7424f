/** Column helpers of the execution engine: pure functions over typed arrays (UTC epoch ms timestamps, NaN = null). */
import { DAY_MS, floorDay } from '../../storage';

// The UTC days of the stored series (storage/days.ts), for the engine's steps.
export { DAY_MS, floorDay } from '../../storage';
/** The start of the day after the one holding `ms` (exclusive end of a whole-day period). */
export const ceilDayExclusive = (ms: number) => floorDay(ms) + DAY_MS;

/**
 * Target timestamps at a required interval: the first primary timestamp of every interval bucket (buckets aligned to
 * UTC epoch multiples of the interval, so the targets of a day do not depend on where a period starts).
 */
export function thinToInterval(primary: Float64Array, intervalSeconds: number): Float64Array {
  const ms = Math.max(1, intervalSeconds) * 1000;
  const out = new Float64Array(primary.length);
  let n = 0;
  let lastBucket = NaN;
  for (let i = 0; i < primary.length; i++) {
    const bucket = Math.floor(primary[i]! / ms);
    if (bucket !== lastBucket) {
      out[n++] = primary[i]!;
      lastBucket = bucket;
    }
  }
  return n === out.length ? out : out.slice(0, n);
}

/**
 * Sample-and-hold: for every target time the last non-null sample at or before it, if that sample is at most
 * `preloadSeconds` old; else NaN. Both timestamp arrays ascending.
 */
export function sampleAndHold(
  ts: Float64Array,
  values: Float64Array,
  targets: Float64Array,
  preloadSeconds: number,
): Float64Array {
  const out = new Float64Array(targets.length);
  const preload = preloadSeconds * 1000;
  // Same axis (an input of the primary data source at its own timestamps, or a field computed on these targets).
  if (
    ts === targets ||
    (ts.length === targets.length &&
      ts[0] === targets[0] &&
      ts[ts.length - 1] === targets[targets.length - 1] &&
      sameAxis(ts, targets))
  ) {
    let lastT = -Infinity;
    let lastV = NaN;
    for (let i = 0; i < targets.length; i++) {
      const v = values[i]!;
      if (v === v) {
        lastT = ts[i]!;
        lastV = v;
        out[i] = v;
      } else out[i] = targets[i]! - lastT <= preload ? lastV : NaN;
    }
    return out;
  }
  let j = 0;
  let lastT = -Infinity;
  let lastV = NaN;
  for (let i = 0; i < targets.length; i++) {
    const t = targets[i]!;
    while (j < ts.length && ts[j]! <= t) {
      const v = values[j]!;
      if (v === v) {
        lastT = ts[j]!;
        lastV = v;
      }
      j++;
    }
    out[i] = t - lastT <= preload ? lastV : NaN;
  }
  return out;
}

function sameAxis(a: Float64Array, b: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Values of a series at exactly the given (ascending) timestamps; NaN where the series has no sample then. */
export function alignExact(ts: Float64Array, values: Float64Array, axis: Float64Array): Float64Array {
  if (ts === axis || (ts.length === axis.length && sameAxis(ts, axis))) return values;
  const out = new Float64Array(axis.length).fill(NaN);
  let j = 0;
  for (let i = 0; i < axis.length; i++) {
    const t = axis[i]!;
    while (j < ts.length && ts[j]! < t) j++;
    if (j < ts.length && ts[j] === t) out[i] = values[j]!;
  }
  return out;
}

/** The sorted union of ascending timestamp arrays (each value once). */
export function unionAxis(axes: Float64Array[]): Float64Array {
  if (axes.length === 0) return new Float64Array(0);
  const first = axes[0]!;
  if (axes.every((a) => a === first || (a.length === first.length && sameAxis(a, first)))) return first;
  const all = new Float64Array(axes.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of axes) {
    all.set(a, at);
    at += a.length;
  }
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[n - 1]) all[n++] = all[i]!;
  return all.slice(0, n);
}

/** A validity interval of a calculation: [from, to) in epoch ms (to = Infinity when open). */
export interface Validity<T> {
  item: T;
  from: number;
  to: number;
  /** Tie-break among equal `from`: the later approval wins. */
  rank: number;
}

/**
 * Which calculation holds when: at any time the approved calculation with the latest valid-from that has begun and
 * not ended. Returns disjoint, ordered segments [from, to) with their calculation, clipped to [start, end).
 */
export function validitySegments<T>(
  calcs: Validity<T>[],
  start: number,
  end: number,
): { item: T; from: number; to: number }[] {
  const points = new Set<number>([start, end]);
  for (const c of calcs) {
    if (c.from > start && c.from < end) points.add(c.from);
    if (c.to > start && c.to < end) points.add(c.to);
  }
  const sorted = [...points].sort((a, b) => a - b);
  const segments: { item: T; from: number; to: number }[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i]!;
    const b = sorted[i + 1]!;
    let best: Validity<T> | undefined;
    for (const c of calcs) {
      if (
        c.from <= a &&
        c.to > a &&
        (!best || c.from > best.from || (c.from === best.from && c.rank > best.rank))
      )
        best = c;
    }
    if (!best) continue;
    const last = segments[segments.length - 1];
    if (last && last.item === best.item && last.to === a) last.to = b;
    else segments.push({ item: best.item, from: a, to: b });
  }
  return segments;
}

/**
 * Measurement fields in dependency order (inputs first). `dependsOn` maps a field to the fields it reads; fields
 * outside the map are inputs only. Throws with the names along a cycle.
 */
export function dependencyOrder(
  dependsOn: Map<string, Set<string>>,
  nameOf: (id: string) => string,
): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (id: string) => {
    const s = state.get(id);
    if (s === 'done') return;
    if (s === 'visiting') {
      const cycle = [...path.slice(path.indexOf(id)), id].map(nameOf);
      throw new CycleError(cycle);
    }
    state.set(id, 'visiting');
    path.push(id);
    for (const next of dependsOn.get(id) ?? []) if (dependsOn.has(next)) visit(next);
    path.pop();
    state.set(id, 'done');
    order.push(id);
  };
  for (const id of [...dependsOn.keys()].sort((a, b) => nameOf(a).localeCompare(nameOf(b)))) visit(id);
  return order;
}

export class CycleError extends Error {
  constructor(readonly names: string[]) {
    super(`Measurement fields depend on each other in a cycle: ${names.join(' -> ')}`);
  }
}
