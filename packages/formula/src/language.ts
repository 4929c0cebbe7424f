import type { ConstantName, DateTimeMember, MathFunction, SeriesMethod, ValueType } from './ast';
import { KEYWORDS } from './lexer';

// The one place that names what the language knows. The checker, the editor's highlighting
// (tokenize) and autocomplete (LANGUAGE) all read these tables.

export const CONSTANT_TYPES: Record<ConstantName, ValueType> = {
  TARGETTIMESTAMP: 'datetime',
  Facility_IMO: 'string',
  Facility_NumberOfScrubbers: 'number',
  Facility_ScrubberSystemType: 'string',
  Facility_TotalEffectKW: 'number',
  ISECAZONE: 'boolean',
  ISNODISCHARGEZONE: 'boolean',
};

/** The position constants the caller supplies per target timestamp (measurement fields only). */
export const ZONE_CONSTANTS: readonly ConstantName[] = ['ISECAZONE', 'ISNODISCHARGEZONE'];

/** Rolling-window functions of measurement fields: AVERAGE_OVER(expression, seconds). */
export const WINDOW_FUNCTIONS = ['AVERAGE_OVER'] as const;
/** The longest window AVERAGE_OVER accepts, in seconds (one day). */
export const MAX_WINDOW_SECONDS = 86_400;

/** Other spellings accepted for a constant (the editor's test data says Facility_InstalledPower). */
export const CONSTANT_ALIASES: Record<string, ConstantName> = {
  Facility_InstalledPower: 'Facility_TotalEffectKW',
};

/** Allowed argument counts of each Math function. */
export const MATH_FUNCTIONS: Record<MathFunction, { min: number; max: number }> = {
  Abs: { min: 1, max: 1 },
  Min: { min: 2, max: 2 },
  Max: { min: 2, max: 2 },
  Pow: { min: 2, max: 2 },
  Sqrt: { min: 1, max: 1 },
  Round: { min: 1, max: 2 },
  Floor: { min: 1, max: 1 },
  Ceiling: { min: 1, max: 1 },
  Log: { min: 1, max: 2 },
  Exp: { min: 1, max: 1 },
};

export const DATETIME_MEMBERS: readonly DateTimeMember[] = [
  'Year',
  'Month',
  'Day',
  'Hour',
  'Minute',
  'Second',
  'DayOfWeek',
];

export interface SeriesMethodInfo {
  /** What the optional or required lambda argument does. */
  lambda: 'predicate' | 'selector';
  lambdaRequired: boolean;
  result: ValueType;
}

export const SERIES_METHODS: Record<SeriesMethod, SeriesMethodInfo> = {
  Average: { lambda: 'selector', lambdaRequired: false, result: 'number' },
  Sum: { lambda: 'selector', lambdaRequired: false, result: 'number' },
  Min: { lambda: 'selector', lambdaRequired: false, result: 'number' },
  Max: { lambda: 'selector', lambdaRequired: false, result: 'number' },
  Count: { lambda: 'predicate', lambdaRequired: false, result: 'number' },
  First: { lambda: 'predicate', lambdaRequired: false, result: 'number' },
  Last: { lambda: 'predicate', lambdaRequired: false, result: 'number' },
  Where: { lambda: 'predicate', lambdaRequired: true, result: 'series' },
  Select: { lambda: 'selector', lambdaRequired: true, result: 'series' },
  Any: { lambda: 'predicate', lambdaRequired: false, result: 'boolean' },
  All: { lambda: 'predicate', lambdaRequired: true, result: 'boolean' },
};

/** Names the editor offers and highlights; read by the web app's CodeMirror mode. */
export const LANGUAGE: {
  keywords: string[];
  constants: string[];
  mathFunctions: string[];
  windowFunctions: string[];
  seriesMethods: string[];
  dateTimeMembers: string[];
} = {
  keywords: [...KEYWORDS],
  constants: [...Object.keys(CONSTANT_TYPES), ...Object.keys(CONSTANT_ALIASES)],
  mathFunctions: Object.keys(MATH_FUNCTIONS)
    .map((f) => `Math.${f}`)
    .concat('double.IsNaN'),
  windowFunctions: [...WINDOW_FUNCTIONS],
  seriesMethods: Object.keys(SERIES_METHODS),
  dateTimeMembers: [...DATETIME_MEMBERS],
};

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      // previous has b.length + 1 entries and current is filled up to j - 1.
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Is `short` an abbreviation of `long`: same first letter, then its letters in order (avg -> average)? */
function abbreviates(short: string, long: string): boolean {
  if (short.length < 3 || short[0] !== long[0]) return false;
  let j = 0;
  for (const ch of long) if (ch === short[j]) j++;
  return j === short.length;
}

/** The closest candidate, if it is close enough to be a likely typo. */
export function suggest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  const lower = name.toLowerCase();
  // Short names are only matched when they differ in case: 'y' is not a typo of 'X'.
  const limit = lower.length <= 2 ? 0 : Math.max(1, Math.floor(lower.length / 3));
  for (const c of candidates) {
    const other = c.toLowerCase();
    let score: number;
    if (other === lower) score = 0;
    else if (abbreviates(lower, other)) score = 0.75;
    else {
      const d = levenshtein(lower, other);
      score = d <= limit ? d + 0.5 : Infinity;
    }
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}

export function didYouMean(name: string, candidates: Iterable<string>): string {
  const s = suggest(name, candidates);
  return s ? `. Did you mean '${s}'?` : '';
}
