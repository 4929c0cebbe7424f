import { tick, type Budget } from './functions';

// Series methods with C# LINQ semantics over the values of one span (NaN = null).
// Every helper counts its work against the budget, since a lambda can reduce another
// series and so make a span's work quadratic.
// Every index below is bounded by the series' length, hence the `!` on each read.

type Series = Float64Array;
type Selector = (v: number) => number;
type Predicate = (v: number) => unknown;

function average(S: Budget, a: Series, f?: Selector): number {
  tick(S, a.length);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < a.length; i++) {
    const v = f ? f(a[i]!) : a[i]!;
    if (v === v) {
      sum += v;
      count++;
    }
  }
  return count === 0 ? NaN : sum / count;
}

function sum(S: Budget, a: Series, f?: Selector): number {
  tick(S, a.length);
  let total = 0;
  for (let i = 0; i < a.length; i++) {
    const v = f ? f(a[i]!) : a[i]!;
    if (v === v) total += v;
  }
  return total;
}

function extreme(S: Budget, a: Series, f: Selector | undefined, sign: 1 | -1): number {
  tick(S, a.length);
  let best = NaN;
  for (let i = 0; i < a.length; i++) {
    const v = f ? f(a[i]!) : a[i]!;
    if (v === v && (best !== best || (v - best) * sign > 0)) best = v;
  }
  return best;
}

function count(S: Budget, a: Series, p?: Predicate): number {
  if (!p) return a.length;
  tick(S, a.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (p(a[i]!)) n++;
  return n;
}

function first(S: Budget, a: Series, p?: Predicate): number {
  tick(S, a.length);
  if (!p) return a.length > 0 ? a[0]! : NaN;
  for (let i = 0; i < a.length; i++) if (p(a[i]!)) return a[i]!;
  return NaN;
}

function last(S: Budget, a: Series, p?: Predicate): number {
  tick(S, a.length);
  if (!p) return a.length > 0 ? a[a.length - 1]! : NaN;
  for (let i = a.length - 1; i >= 0; i--) if (p(a[i]!)) return a[i]!;
  return NaN;
}

function where(S: Budget, a: Series, p: Predicate): Series {
  tick(S, a.length);
  const out = new Float64Array(a.length);
  let n = 0;
  for (let i = 0; i < a.length; i++) if (p(a[i]!)) out[n++] = a[i]!;
  return out.subarray(0, n);
}

function select(S: Budget, a: Series, f: Selector): Series {
  tick(S, a.length);
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = f(a[i]!);
  return out;
}

function any(S: Budget, a: Series, p?: Predicate): number {
  if (!p) return a.length > 0 ? 1 : 0;
  tick(S, a.length);
  for (let i = 0; i < a.length; i++) if (p(a[i]!)) return 1;
  return 0;
}

function all(S: Budget, a: Series, p: Predicate): number {
  tick(S, a.length);
  for (let i = 0; i < a.length; i++) if (!p(a[i]!)) return 0;
  return 1;
}

export const seriesHelpers = {
  avg: average,
  sum,
  smin: (S: Budget, a: Series, f?: Selector) => extreme(S, a, f, -1),
  smax: (S: Budget, a: Series, f?: Selector) => extreme(S, a, f, 1),
  count,
  first,
  last,
  where,
  select,
  any,
  all,
};
