import type { CheckedProgram } from './ast';
import { check, type CalculationKind, type OutputType } from './check';
import { buildMeasurementRun, buildSpanRun, type CheckedForEmit } from './compile';
import { FormulaRuntimeError, type FormulaError } from './errors';
import { CONSTANT_ALIASES, CONSTANT_TYPES, MATH_FUNCTIONS, SERIES_METHODS } from './language';
import { scan } from './lexer';
import { parse } from './parser';

export type { CalculationKind, OutputType } from './check';
export type { FormulaError } from './errors';
export { FormulaRuntimeError } from './errors';
export { LANGUAGE } from './language';
export { MAX_NESTING, MAX_SOURCE_LENGTH } from './parser';
export { MAX_STRING_LENGTH } from './runtime/functions';
export {
  CHANNELS_READ_BY_DEFAULTS,
  DEFAULT_MEASUREMENT_FIELDS,
  DEFAULT_REPORT_KPIS,
  isRawField,
} from './defaults';
export type { DefaultMeasurementField, DefaultReportKpi } from './defaults';

export interface CompileOptions {
  kind: CalculationKind;
  inputNames: readonly string[];
  outputType?: OutputType;
}

export interface FacilityConstants {
  Facility_IMO: string;
  Facility_NumberOfScrubbers: number;
  Facility_ScrubberSystemType: string;
  Facility_TotalEffectKW: number;
}

export interface CompiledCalculation {
  kind: CalculationKind;
  /** The input names the algorithm actually uses. */
  inputNames: readonly string[];
  /** True when ISECAZONE is referenced. */
  usesEcaZone: boolean;
  /** True when ISNODISCHARGEZONE is referenced. */
  usesNoDischargeZone: boolean;
  /**
   * The longest AVERAGE_OVER window in seconds (0 without one). A value at a row averages the rows of the window
   * before it, so a caller that computes a period passes the rows of this many seconds before the period too (and
   * drops their outputs).
   */
  windowSeconds: number;
  /** measurement-field: one output per target timestamp. Inputs are columns aligned with timestamps; NaN means null. */
  evaluateTimestamps(args: {
    timestamps: Float64Array;
    inputs: Record<string, Float64Array>;
    /** 0 = outside, 1 = inside an ECA, any other value = unknown (null). */
    isEcaZone?: Uint8Array;
    /** 0 = outside, 1 = inside a no-discharge zone, any other value = unknown (null). */
    isNoDischargeZone?: Uint8Array;
    constants: FacilityConstants;
    budgetMs?: number;
  }): Float64Array;
  /** report-field: one output per span. Samples (timestamps + aligned input columns, sorted ascending) are cut into spans [spanStart, spanStart+spanSeconds). */
  evaluateSpans(args: {
    spanStarts: Float64Array;
    spanSeconds: number;
    timestamps: Float64Array;
    inputs: Record<string, Float64Array>;
    constants: FacilityConstants;
    budgetMs?: number;
  }): Float64Array;
}

export const DEFAULT_BUDGET_MS = 5000;

type CheckOutcome = { ok: true; program: CheckedForEmit } | { ok: false; errors: FormulaError[] };

function parseAndCheck(source: string, options: CompileOptions): CheckOutcome {
  const parsed = parse(source);
  if (!parsed.ok) return parsed;
  const checked = check(parsed.program, options);
  if (!checked.ok) return checked;
  return { ok: true, program: { ...checked.program, kind: options.kind } };
}

/** The errors of an algorithm; [] when it is fine. */
export function validateSyntax(source: string, options: CompileOptions): FormulaError[] {
  const outcome = parseAndCheck(source, options);
  return outcome.ok ? [] : outcome.errors;
}

export function compile(
  source: string,
  options: CompileOptions,
): { ok: true; program: CompiledCalculation } | { ok: false; errors: FormulaError[] } {
  const outcome = parseAndCheck(source, options);
  if (!outcome.ok) return outcome;
  return { ok: true, program: new Calculation(outcome.program, options.outputType) };
}

/** The output kind a caller sees: the declared output type, else what the algorithm returns. */
function resultKind(program: CheckedProgram, outputType: OutputType | undefined): OutputType {
  if (outputType) return outputType;
  if (program.returnType === 'boolean') return 'Boolean';
  if (program.returnType === 'string') return 'String';
  if (program.returnType === 'datetime') return 'UTCDateTime';
  return 'Double';
}

type Constants = Partial<FacilityConstants> & { Facility_InstalledPower?: number };

function constantValues(c: Constants): unknown[] {
  const num = (v: number | undefined | null) => (typeof v === 'number' ? v : NaN);
  return [
    c.Facility_IMO ?? null,
    num(c.Facility_NumberOfScrubbers),
    c.Facility_ScrubberSystemType ?? null,
    num(c.Facility_TotalEffectKW ?? c.Facility_InstalledPower),
  ];
}

/**
 * An infinite result (x / 0, an overflow) leaves a calculation as null, as NaN does (0/0): inside an expression
 * infinity follows C# (`1 / (1 / 0)` is 0), but no stored or shown value is ever infinite.
 */
class Calculation implements CompiledCalculation {
  readonly kind: CalculationKind;
  readonly inputNames: readonly string[];
  readonly usesEcaZone: boolean;
  readonly usesNoDischargeZone: boolean;
  readonly windowSeconds: number;
  private readonly outputKind: OutputType;
  // One instance per output array type keeps each function's element stores monomorphic.
  private numericRun?: (...args: never[]) => unknown;
  private genericRun?: (...args: never[]) => unknown;

  constructor(
    private readonly program: CheckedForEmit,
    private readonly outputType: OutputType | undefined,
  ) {
    this.kind = program.kind;
    this.inputNames = program.inputs;
    this.usesEcaZone = program.constants.has('ISECAZONE');
    this.usesNoDischargeZone = program.constants.has('ISNODISCHARGEZONE');
    this.windowSeconds = program.windowSeconds;
    this.outputKind = resultKind(program, outputType);
  }

  evaluateTimestamps(args: Parameters<CompiledCalculation['evaluateTimestamps']>[0]): Float64Array {
    if (this.outputKind === 'String')
      throw new FormulaRuntimeError(
        'A calculation with String output cannot be evaluated into a numeric column',
      );
    return this.runTimestamps(args, new Float64Array(args.timestamps.length), true) as Float64Array;
  }

  evaluateSpans(args: Parameters<CompiledCalculation['evaluateSpans']>[0]): Float64Array {
    if (this.outputKind === 'String')
      throw new FormulaRuntimeError(
        'A calculation with String output cannot be evaluated into a numeric column',
      );
    return this.runSpans(args, new Float64Array(args.spanStarts.length), true) as Float64Array;
  }

  /** Shared by the columnar API and runTest (which collects strings in a plain array). */
  runTimestamps(
    args: {
      timestamps: Float64Array;
      inputs: Record<string, Float64Array>;
      isEcaZone?: Uint8Array;
      isNoDischargeZone?: Uint8Array;
      constants: Constants;
      budgetMs?: number;
    },
    out: Float64Array | unknown[],
    numeric: boolean,
  ): Float64Array | unknown[] {
    if (this.kind !== 'measurement-field')
      throw new FormulaRuntimeError(
        'evaluateTimestamps runs measurement-field calculations; use evaluateSpans for a report-field calculation',
      );
    const n = args.timestamps.length;
    const cols = this.columns(args.inputs, n);
    if (this.usesEcaZone) {
      if (!args.isEcaZone)
        throw new FormulaRuntimeError('The algorithm reads ISECAZONE but no isEcaZone column was given');
      if (args.isEcaZone.length !== n)
        throw new FormulaRuntimeError(
          `The isEcaZone column has ${args.isEcaZone.length} values for ${n} timestamps`,
        );
    }
    if (this.usesNoDischargeZone) {
      if (!args.isNoDischargeZone)
        throw new FormulaRuntimeError(
          'The algorithm reads ISNODISCHARGEZONE but no isNoDischargeZone column was given',
        );
      if (args.isNoDischargeZone.length !== n)
        throw new FormulaRuntimeError(
          `The isNoDischargeZone column has ${args.isNoDischargeZone.length} values for ${n} timestamps`,
        );
    }
    const run = this.run(numeric, () =>
      buildMeasurementRun(this.program, this.outputType, numeric),
    ) as unknown as ReturnType<typeof buildMeasurementRun>;
    return run(
      cols,
      args.timestamps,
      args.isEcaZone,
      args.isNoDischargeZone,
      constantValues(args.constants),
      out,
      args.budgetMs ?? DEFAULT_BUDGET_MS,
    );
  }

  runSpans(
    args: {
      spanStarts: Float64Array;
      spanSeconds: number;
      timestamps: Float64Array;
      inputs: Record<string, Float64Array>;
      constants: Constants;
      budgetMs?: number;
    },
    out: Float64Array | unknown[],
    numeric: boolean,
  ): Float64Array | unknown[] {
    if (this.kind !== 'report-field')
      throw new FormulaRuntimeError(
        'evaluateSpans runs report-field calculations; use evaluateTimestamps for a measurement-field calculation',
      );
    if (!(args.spanSeconds > 0))
      throw new FormulaRuntimeError(`spanSeconds must be positive, not ${args.spanSeconds}`);
    const ts = args.timestamps;
    for (let i = 1; i < ts.length; i++) {
      if (!(ts[i - 1]! <= ts[i]!))
        throw new FormulaRuntimeError('Timestamps must be sorted ascending for a report-field calculation');
    }
    const cols = this.columns(args.inputs, ts.length);
    const run = this.run(numeric, () =>
      buildSpanRun(this.program, this.outputType, numeric),
    ) as unknown as ReturnType<typeof buildSpanRun>;
    return run(
      cols,
      ts,
      args.spanStarts,
      args.spanSeconds * 1000,
      constantValues(args.constants),
      out,
      args.budgetMs ?? DEFAULT_BUDGET_MS,
    );
  }

  get resultKind(): OutputType {
    return this.outputKind;
  }

  private run(numeric: boolean, build: () => unknown): unknown {
    if (numeric) return (this.numericRun ??= build() as never);
    return (this.genericRun ??= build() as never);
  }

  private columns(inputs: Record<string, Float64Array>, n: number): Float64Array[] {
    return this.inputNames.map((name) => {
      const column = Object.prototype.hasOwnProperty.call(inputs, name) ? inputs[name] : undefined;
      if (!column) throw new FormulaRuntimeError(`Missing input column '${name}'`);
      if (column.length !== n)
        throw new FormulaRuntimeError(
          `Input column '${name}' has ${column.length} values for ${n} timestamps`,
        );
      return column;
    });
  }
}

// ---- runTest: the editor's Test button (validate-logic)

type TestValue = number | boolean | string | null;

export interface TestData {
  inputData: { timestamp: string; inputValues: Record<string, TestValue> }[];
  constants: Partial<FacilityConstants> & { Facility_InstalledPower?: number };
}

export interface TestResult {
  errors: FormulaError[];
  results: { timestamp: string; value: TestValue }[];
}

const noPosition = (message: string): FormulaError => ({ message, startLine: 0, startCharacter: 0 });

/** Timestamps without a zone are read as UTC. */
function parseTimestamp(text: string): number {
  const t = text.trim();
  const zoned = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(t) || !/T|\d:\d/.test(t);
  return Date.parse(zoned ? t : `${t}Z`);
}

function testNumber(v: TestValue | undefined): number | undefined {
  if (v === null || v === undefined) return NaN;
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const s = v.trim();
  if (s === '') return NaN;
  if (/^true$/i.test(s)) return 1;
  if (/^false$/i.test(s)) return 0;
  const n = Number(s.replace(',', '.'));
  return Number.isNaN(n) ? undefined : n;
}

function presentValue(v: unknown, kind: OutputType): TestValue {
  if (v === null || v === undefined) return null;
  if (kind === 'String') return typeof v === 'string' ? v : String(v);
  const n = v as number;
  // NaN is null, and so is infinity (as the numeric columns store it: compile.ts, storeStatement).
  if (!Number.isFinite(n)) return null;
  if (kind === 'Boolean') return n !== 0;
  if (kind === 'UTCDateTime') {
    // Past ±8.64e15 ms a Date is invalid (toISOString would throw).
    const date = new Date(n);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  return n;
}

/** Runs an algorithm over the editor's test data (what validate-logic answers). */
export function runTest(
  source: string,
  options: CompileOptions & { algorithmSecondsSpan?: number },
  test: TestData,
): TestResult {
  const compiled = compile(source, options);
  if (!compiled.ok) return { errors: compiled.errors, results: [] };
  const calc = compiled.program as Calculation;
  const errors: FormulaError[] = [];
  const rows = test.inputData
    .map((row) => ({ row, t: parseTimestamp(row.timestamp) }))
    .filter(({ row, t }) => {
      if (Number.isNaN(t)) errors.push(noPosition(`Invalid timestamp '${row.timestamp}' in the test data`));
      return !Number.isNaN(t);
    });
  const column = (name: string, source: typeof rows) =>
    Float64Array.from(source, ({ row }) => {
      const n = testNumber(row.inputValues[name]);
      if (n === undefined)
        errors.push(
          noPosition(
            `Input '${name}' at ${row.timestamp} is not a number: '${String(row.inputValues[name])}'`,
          ),
        );
      return n ?? NaN;
    });
  try {
    if (options.kind === 'measurement-field') {
      const inputs = Object.fromEntries(calc.inputNames.map((name) => [name, column(name, rows)]));
      const zone = (name: string) =>
        Uint8Array.from(rows, ({ row }) => {
          const n = testNumber(row.inputValues[name]);
          return n === 0 ? 0 : n === undefined || Number.isNaN(n) ? 255 : 1;
        });
      const isEcaZone = zone('ISECAZONE');
      const isNoDischargeZone = zone('ISNODISCHARGEZONE');
      if (errors.length > 0) return { errors, results: [] };
      const out = calc.runTimestamps(
        {
          timestamps: Float64Array.from(rows, (r) => r.t),
          inputs,
          isEcaZone,
          isNoDischargeZone,
          constants: test.constants,
        },
        [],
        false,
      );
      return {
        errors,
        results: rows.map(({ row }, i) => ({
          timestamp: row.timestamp,
          value: presentValue(out[i], calc.resultKind),
        })),
      };
    }
    const spanSeconds = options.algorithmSecondsSpan ?? 3600;
    const spanMs = spanSeconds * 1000;
    const sorted = [...rows].sort((a, b) => a.t - b.t);
    const inputs = Object.fromEntries(calc.inputNames.map((name) => [name, column(name, sorted)]));
    const spanStarts = Float64Array.from(new Set(sorted.map(({ t }) => Math.floor(t / spanMs) * spanMs)));
    if (errors.length > 0) return { errors, results: [] };
    const out = calc.runSpans(
      {
        spanStarts,
        spanSeconds,
        timestamps: Float64Array.from(sorted, (r) => r.t),
        inputs,
        constants: test.constants,
      },
      [],
      false,
    );
    return {
      errors,
      results: Array.from(spanStarts, (s, j) => ({
        timestamp: new Date(s).toISOString(),
        value: presentValue(out[j], calc.resultKind),
      })),
    };
  } catch (e) {
    if (e instanceof FormulaRuntimeError)
      return {
        errors: [{ message: e.message, startLine: e.startLine, startCharacter: e.startCharacter }],
        results: [],
      };
    throw e;
  }
}

// ---- tokenize: the editor's highlighting

export type HighlightType =
  | 'keyword'
  | 'number'
  | 'string'
  | 'name'
  | 'constant'
  | 'function'
  | 'operator'
  | 'punctuation'
  | 'comment'
  | 'whitespace'
  | 'invalid';

/** Every character of the source belongs to exactly one token, in order. */
export function tokenize(source: string): { type: HighlightType; from: number; to: number }[] {
  const tokens = scan(source).filter((t) => t.kind !== 'eof');
  let previousSignificant = '';
  return tokens.map((t) => {
    let type: HighlightType;
    if (t.kind === 'name') {
      const afterDot = previousSignificant === '.';
      if (!afterDot && (Object.hasOwn(CONSTANT_TYPES, t.text) || Object.hasOwn(CONSTANT_ALIASES, t.text)))
        type = 'constant';
      else if (!afterDot && t.text === 'Math') type = 'function';
      else if (
        afterDot &&
        (Object.hasOwn(MATH_FUNCTIONS, t.text) || Object.hasOwn(SERIES_METHODS, t.text) || t.text === 'IsNaN')
      )
        type = 'function';
      else type = 'name';
    } else if (t.kind === 'eof') {
      type = 'whitespace';
    } else {
      type = t.kind;
    }
    if (t.kind !== 'whitespace' && t.kind !== 'comment') previousSignificant = t.text;
    return { type, from: t.start.offset, to: t.end.offset };
  });
}
