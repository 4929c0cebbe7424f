import { createLTTB } from 'downsample';

/**
 * Long chart series down-sampled for display (docs/decisions/0134-chart-down-sampling.md): at most MAX_CHART_POINTS
 * points a series, picked by LTTB (Largest-Triangle-Three-Buckets, the `downsample` package) among the series' own
 * points (no value is averaged or made up: a kept point's note shows the value that hour had), with the points that
 * matter always kept: the first and the last, the highest and the lowest value, both sides of every crossing of the
 * series' limit and of every step of the limit itself, and both sides of every gap (so a line still breaks where
 * data are missing). A series whose crossings alone would exceed half the budget is cut into buckets instead, each
 * keeping its lowest and highest value and its first crossing: every stretch of the chart that crosses its limit
 * still shows a crossing.
 */

/** At most this many points a chart series (a chart is at most about 1,500 pixels wide). */
export const MAX_CHART_POINTS = 2_000;

export interface TimePoint {
  t: number;
  value: number | null;
}

interface Indexed {
  i: number;
  y: number;
}

const lttb = createLTTB<Indexed>({ x: 'i', y: 'y' });

const sign = (v: number | null | undefined, l: number | null | undefined) =>
  v === null || v === undefined || l === null || l === undefined ? null : Math.sign(v - l);

/**
 * The indices of the points to keep (ascending) of a series of `values` (in time order) with an optional `limit` of
 * the same length (the limit at the same instants; null where there is none); every index when there are at most
 * `max` points. The result has at most `max` indices (`max` at least 8).
 */
export function keptIndices(
  values: readonly (number | null)[],
  limit?: readonly (number | null)[],
  max = MAX_CHART_POINTS,
): number[] {
  const n = values.length;
  if (n <= max) return values.map((_, i) => i);
  if (max < 8) throw new Error('A chart keeps at least 8 points');
  let low = -1;
  let high = -1;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v === null) continue;
    if (low < 0 || v < values[low]!) low = i;
    if (high < 0 || v > values[high]!) high = i;
  }
  // What changes between i - 1 and i: the series crosses (or touches) its limit; a gap starts or ends; the limit
  // steps (4.3 in an ECA, 21.7 outside). Kept in that order of importance while they fit in half the budget.
  const crossings: number[] = [];
  const gaps: number[] = [];
  const steps: number[] = [];
  for (let i = 1; i < n; i++) {
    const s0 = sign(values[i - 1], limit?.[i - 1]);
    const s1 = sign(values[i], limit?.[i]);
    if (s0 !== null && s1 !== null && s0 !== s1) crossings.push(i);
    else if ((values[i - 1] === null) !== (values[i] === null)) gaps.push(i);
    else if (limit !== undefined && limit[i - 1] !== limit[i]) steps.push(i);
  }
  const kept = new Set<number>([0, n - 1]);
  if (low >= 0) kept.add(low);
  if (high >= 0) kept.add(high);

  if (kept.size + 2 * crossings.length <= max / 2) {
    for (const tier of [crossings, gaps, steps]) {
      if (kept.size + 2 * tier.length > max / 2) break;
      for (const i of tier) kept.add(i - 1).add(i);
    }
    // The rest of the budget goes to LTTB over the points that have a value.
    const present: Indexed[] = [];
    for (let i = 0; i < n; i++) if (values[i] !== null) present.push({ i, y: values[i]! });
    const budget = max - kept.size;
    const picked = present.length <= budget ? present : Array.from(lttb(present, budget));
    for (const p of picked) kept.add(p.i);
  } else {
    // Too many crossings for one chart: each bucket keeps its lowest and highest value and its first crossing (both
    // sides), so every stretch of the chart that crosses the limit still shows it. The whole series' extremes are
    // their buckets' (the first of equal values, as above); with the two ends, at most max points.
    const buckets = Math.floor((max - 2) / 4);
    const size = n / buckets;
    let c = 0;
    for (let b = 0; b < buckets; b++) {
      const from = Math.floor(b * size);
      const to = b === buckets - 1 ? n : Math.floor((b + 1) * size);
      let bl = -1;
      let bh = -1;
      for (let i = from; i < to; i++) {
        const v = values[i]!;
        if (v === null) continue;
        if (bl < 0 || v < values[bl]!) bl = i;
        if (bh < 0 || v > values[bh]!) bh = i;
      }
      if (bl >= 0) kept.add(bl);
      if (bh >= 0) kept.add(bh);
      while (c < crossings.length && crossings[c]! < from) c++;
      if (c < crossings.length && crossings[c]! < to) kept.add(crossings[c]! - 1).add(crossings[c]!);
    }
  }
  return [...kept].sort((a, b) => a - b);
}

/**
 * A chart series and its limit (when it has one) down-sampled together: the instants kept are the same for both,
 * chosen on the union of their instants, so the limit line and the values stay aligned.
 */
export function downsampleWithLimit(
  values: readonly TimePoint[],
  limit: readonly TimePoint[] | undefined,
  max = MAX_CHART_POINTS,
): { values: TimePoint[]; limit: TimePoint[] | undefined } {
  if (values.length <= max && (!limit || limit.length <= max))
    return { values: [...values], limit: limit && [...limit] };
  const times = [...new Set([...values.map((p) => p.t), ...(limit ?? []).map((p) => p.t)])].sort(
    (a, b) => a - b,
  );
  const valueAt = new Map(values.map((p) => [p.t, p.value]));
  const limitAt = limit ? new Map(limit.map((p) => [p.t, p.value])) : undefined;
  const kept = new Set(
    keptIndices(
      times.map((t) => valueAt.get(t) ?? null),
      limitAt ? times.map((t) => limitAt.get(t) ?? null) : undefined,
      max,
    ).map((i) => times[i]!),
  );
  return {
    values: values.filter((p) => kept.has(p.t)),
    limit: limit?.filter((p) => kept.has(p.t)),
  };
}
