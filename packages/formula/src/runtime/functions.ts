import { FormulaRuntimeError } from '../errors';

// Whitelisted helpers the generated code may call. Values: numbers with NaN for null
// (booleans are 1/0), strings or null, DateTime as epoch milliseconds.

/** C# Math.Round: halves go to the even neighbour. */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : r;
}

const DAY_MS = 86_400_000;

/** Year, month (1-12) and day of a UTC day number (days since 1970-01-01), after H. Hinnant's civil_from_days. */
function civil(epochMs: number): [number, number, number] {
  const z = Math.floor(epochMs / DAY_MS) + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

const msOfDay = (t: number) => ((t % DAY_MS) + DAY_MS) % DAY_MS;

export interface Budget {
  deadline: number;
  budgetMs: number;
  steps: number;
  nextCheck: number;
}

const CHECK_EVERY_STEPS = 65_536;

export const now = () => performance.now();

export function startBudget(budgetMs: number): Budget {
  return { deadline: now() + budgetMs, budgetMs, steps: 0, nextCheck: CHECK_EVERY_STEPS };
}

export function overBudget(budgetMs: number, where: string): never {
  throw new FormulaRuntimeError(
    `Calculation stopped: it exceeded its time budget of ${budgetMs} ms (${where})`,
  );
}

/** Counts work done by a report-field calculation and ends it when the time budget is spent. */
export function tick(S: Budget, steps: number): void {
  S.steps += steps;
  if (S.steps >= S.nextCheck) {
    S.nextCheck = S.steps + CHECK_EVERY_STEPS;
    if (now() > S.deadline) overBudget(S.budgetMs, `after ${S.steps} steps`);
  }
}

/**
 * The longest string a calculation may build. Without it, `s = s + s` repeated doubles a string into hundreds of
 * megabytes (V8 only stops at ~2^29 characters, with a RangeError) that a test answer would then serialise.
 */
export const MAX_STRING_LENGTH = 1_000_000;

export const scalarHelpers = {
  abs: Math.abs,
  min: Math.min,
  max: Math.max,
  pow: Math.pow,
  sqrt: Math.sqrt,
  floor: Math.floor,
  ceil: Math.ceil,
  exp: Math.exp,
  log: Math.log,
  trunc: Math.trunc,
  log2: (x: number, base: number) => Math.log(x) / Math.log(base),
  round: roundHalfEven,
  round2: (x: number, digits: number) => {
    const d = Math.trunc(digits);
    if (d < 0 || d > 15) return NaN;
    const f = 10 ** d;
    return roundHalfEven(x * f) / f;
  },
  /** Three-valued logic, as C# bool? with & and |: false wins over null in and, true in or. */
  and: (a: number, b: number) => (a === 0 || b === 0 ? 0 : a !== a || b !== b ? NaN : 1),
  or: (a: number, b: number) =>
    (a !== 0 && a === a) || (b !== 0 && b === b) ? 1 : a !== a || b !== b ? NaN : 0,
  not: (a: number) => (a !== a ? NaN : a === 0 ? 1 : 0),
  /** Lifted equality as in C#: null == null is true, null == 5 is false. */
  eq: (a: number, b: number) => a === b || (a !== a && b !== b),
  nan: (a: number) => a !== a,
  bool: (a: number) => (a !== a ? NaN : a === 0 ? 0 : 1),
  /** String forms used by concatenation; null becomes "" as in C#. */
  str: (s: string | null) => (s === null ? '' : s),
  /** `a + b` of strings, refused past MAX_STRING_LENGTH (checked on the lengths, before anything is built). */
  concat: (a: string, b: string) => {
    if (a.length + b.length > MAX_STRING_LENGTH)
      throw new FormulaRuntimeError(
        `A string would grow past ${MAX_STRING_LENGTH.toLocaleString('en-US')} characters`,
      );
    return a + b;
  },
  numStr: (n: number) => (n !== n ? '' : String(n)),
  boolStr: (n: number) => (n !== n ? '' : n === 0 ? 'False' : 'True'),
  /** The ISECAZONE column: 0 false, 1 true, anything else unknown (null). */
  eca: (v: number) => (v === 0 ? 0 : v === 1 ? 1 : NaN),
  year: (t: number) => (t !== t ? NaN : civil(t)[0]),
  month: (t: number) => (t !== t ? NaN : civil(t)[1]),
  day: (t: number) => (t !== t ? NaN : civil(t)[2]),
  hour: (t: number) => Math.floor(msOfDay(t) / 3_600_000),
  minute: (t: number) => Math.floor(msOfDay(t) / 60_000) % 60,
  second: (t: number) => Math.floor(msOfDay(t) / 1000) % 60,
  /** 0 = Sunday, as C#'s DayOfWeek; 1970-01-01 was a Thursday. */
  dayOfWeek: (t: number) => (((Math.floor(t / DAY_MS) + 4) % 7) + 7) % 7,
  now,
  overBudget,
  startBudget,
  tick,
  /** First index whose timestamp is >= t in an ascending column. */
  lowerBound: (ts: Float64Array, t: number) => {
    let lo = 0;
    let hi = ts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ts[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  },
};
