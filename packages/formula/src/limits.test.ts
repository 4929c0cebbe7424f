import { describe, expect, it } from 'vitest';
import {
  compile,
  FormulaRuntimeError,
  MAX_SOURCE_LENGTH,
  MAX_STRING_LENGTH,
  runTest,
  type CalculationKind,
  type OutputType,
} from './index';

// Huge allocations, division by zero and NaN (docs/security.md, "Formulas"). The language has no loops, arrays
// or string constructors, so the ways to allocate much are: series methods on long spans (nested in lambdas),
// long literals, many variables, and strings that double by reassignment.

const constants = {
  Facility_IMO: '9312345',
  Facility_NumberOfScrubbers: 2,
  Facility_ScrubberSystemType: 'Hybrid',
  Facility_TotalEffectKW: 12000,
};

function compiled(source: string, kind: CalculationKind, inputNames: string[], outputType?: OutputType) {
  const result = compile(source, { kind, inputNames, outputType });
  if (!result.ok) throw new Error(`expected to compile: ${JSON.stringify(result.errors)}`);
  return result.program;
}

/** One report-field span holding every sample. */
function oneSpan(n: number, value: (k: number) => number) {
  return {
    spanStarts: Float64Array.of(0),
    spanSeconds: 86_400,
    timestamps: Float64Array.from({ length: n }, (_, k) => k * 10),
    inputs: { X: Float64Array.from({ length: n }, (_, k) => value(k)) },
    constants,
  };
}

const oneRow = (inputValues: Record<string, number | null> = {}) => ({
  inputData: [{ timestamp: '2026-01-01T00:00:00Z', inputValues }],
  constants: {},
});

describe('huge allocations end with a result or an error, never a crash', () => {
  it('a 40-step Select/Where chain over a span of 1,000,000 samples computes the right value', () => {
    const steps = Array.from({ length: 20 }, () => '.Select(v => v + 1).Where(v => v > 20)').join('');
    const program = compiled(`return X${steps}.Count();`, 'report-field', ['X']);
    const n = 1_000_000;
    // The same chain in plain JavaScript, one sample at a time.
    const survives = (v: number) => {
      for (let step = 0; step < 20; step++) if (!(++v > 20)) return false;
      return true;
    };
    for (const value of [(k: number) => k % 1000, (k: number) => (k % 2 ? 100 : -100)]) {
      const span = oneSpan(n, value);
      const expected = span.inputs.X.filter(survives).length;
      expect(expected).toBeGreaterThan(0);
      expect(expected).toBeLessThan(n);
      expect(program.evaluateSpans({ ...span, budgetMs: 30_000 })[0]).toBe(expected);
    }
  });

  it('a Select inside a Select (a series per sample) stops at its time budget instead of allocating n² values', () => {
    // 200,000 inner series of 200,000 doubles would be 320 GB.
    const program = compiled(
      'return X.Select(a => X.Select(b => a + b).Where(c => c > 0).Sum()).Average();',
      'report-field',
      ['X'],
    );
    // How promptly it stops is a figure of bench/formula/budget.ts, not an assertion here.
    const run = () => program.evaluateSpans({ ...oneSpan(200_000, (k) => k), budgetMs: 200 });
    expect(run).toThrow(FormulaRuntimeError);
    expect(run).toThrow(/exceeded its time budget of 200 ms/);
  });

  it('runTest answers a nested series allocation over its budget as an error', () => {
    const inputData = Array.from({ length: 20_000 }, (_, k) => ({
      timestamp: new Date(k * 1000).toISOString(),
      inputValues: { X: k },
    }));
    const source = 'return X.Select(a => X.Select(b => X.Select(c => a + b + c).Sum()).Sum()).Sum();';
    let result: ReturnType<typeof runTest> | undefined;
    expect(
      () =>
        (result = runTest(
          source,
          { kind: 'report-field', inputNames: ['X'], algorithmSecondsSpan: 86_400 },
          { inputData, constants: {} },
        )),
    ).not.toThrow();
    expect(result!.results).toEqual([]);
    expect(result!.errors[0]?.message).toMatch(/exceeded its time budget/);
  });

  it('a string literal as long as the source allows comes back whole; one past the limit is refused before compiling', () => {
    const text = 'x'.repeat(MAX_SOURCE_LENGTH - 20);
    const result = runTest(
      `return "${text}";`,
      { kind: 'measurement-field', inputNames: [], outputType: 'String' },
      oneRow(),
    );
    expect(result.errors).toEqual([]);
    expect(result.results[0]?.value).toBe(text);
    const tooLong = runTest(
      `return "${text}${'y'.repeat(40)}";`,
      { kind: 'measurement-field', inputNames: [], outputType: 'String' },
      oneRow(),
    );
    expect(tooLong.results).toEqual([]);
    expect(tooLong.errors[0]?.message).toMatch(/too long/);
  });

  it(`a string doubled by reassignment stops at ${MAX_STRING_LENGTH.toLocaleString('en-US')} characters with an error, not a RangeError`, () => {
    // 40 doublings of "ab" would be 2 TB of text; V8 itself would only stop at ~2^29 characters.
    const doubling = 'string s = "ab";' + ' s = s + s;'.repeat(40);
    const asString = runTest(
      `${doubling} return s;`,
      { kind: 'measurement-field', inputNames: [], outputType: 'String' },
      oneRow(),
    );
    expect(asString.results).toEqual([]);
    expect(asString.errors).toEqual([
      {
        message: `A string would grow past ${MAX_STRING_LENGTH.toLocaleString('en-US')} characters`,
        startLine: 0,
        startCharacter: 0,
      },
    ]);
    const program = compiled(`${doubling} return s == "ab" ? 1 : 0;`, 'measurement-field', []);
    expect(() =>
      program.evaluateTimestamps({ timestamps: Float64Array.of(0), inputs: {}, constants }),
    ).toThrow(FormulaRuntimeError);
    // Concatenation up to the limit still works: 2 · 2^18 = 524,288 characters.
    const fits = runTest(
      'string s = "ab";' + ' s = s + s;'.repeat(18) + ' return s;',
      { kind: 'measurement-field', inputNames: [], outputType: 'String' },
      oneRow(),
    );
    expect(fits.errors).toEqual([]);
    expect((fits.results[0]?.value as string).length).toBe(2 ** 19);
  });

  it('7,000 variables in one algorithm compile and run; more than the source limit holds are refused', () => {
    const count = 7_000;
    const declarations = Array.from({ length: count }, (_, k) =>
      k === 0 ? 'double v0 = X;' : `double v${k} = v${k - 1} + 1;`,
    ).join('\n');
    const source = `${declarations}\nreturn v${count - 1};`;
    expect(source.length).toBeLessThanOrEqual(MAX_SOURCE_LENGTH);
    const program = compiled(source, 'measurement-field', ['X']);
    const out = program.evaluateTimestamps({
      timestamps: Float64Array.of(0, 60_000),
      inputs: { X: Float64Array.of(1, NaN) },
      constants,
    });
    expect(Array.from(out)).toEqual([count, NaN]);
    const many = Array.from({ length: 20_000 }, (_, k) => `double v${k} = ${k};`).join('') + 'return v0;';
    const refused = runTest(many, { kind: 'measurement-field', inputNames: [] }, oneRow());
    expect(refused.errors[0]?.message).toMatch(/too long/);
  });
});

describe('division by zero and NaN give null, never an infinite value', () => {
  const X = Float64Array.of(1, -1, 0, NaN);
  const measurement = (source: string, outputType?: OutputType) =>
    Array.from(
      compiled(source, 'measurement-field', ['X'], outputType).evaluateTimestamps({
        timestamps: Float64Array.of(0, 1, 2, 3),
        inputs: { X },
        constants,
      }),
    );

  it.each([
    ['x / 0', 'return X / 0;'],
    ['0 / 0', 'return 0 / 0;'],
    ['x / a zero variable', 'double zero = 0; return X / zero;'],
    ['x % 0', 'return X % 0;'],
    ['Math.Log(0)', 'return Math.Log(0) + X;'],
    ['Math.Sqrt(-1)', 'return Math.Sqrt(-1);'],
    ['an overflow (Math.Pow(10, 400))', 'return Math.Pow(10, 400) * X;'],
    ['a literal product past the double range', 'return 1e308 * 10;'],
  ])('%s is null in every row of a measurement field', (_, source) => {
    expect(measurement(source)).toEqual([NaN, NaN, NaN, NaN]);
  });

  it('every finite result is stored as it is, bit for bit: -0, the largest and the smallest doubles', () => {
    const values = Float64Array.of(
      -0,
      0,
      Number.MAX_VALUE,
      -Number.MAX_VALUE,
      Number.MIN_VALUE,
      -5e-324,
      1 / 3,
    );
    const out = compiled('return X * 1;', 'measurement-field', ['X']).evaluateTimestamps({
      timestamps: Float64Array.from(values, (_, i) => i),
      inputs: { X: values },
      constants,
    });
    values.forEach((v, i) => expect(Object.is(out[i], v)).toBe(true));
    expect(measurement('return X * 0;')).toEqual([0, -0, 0, NaN]);
    expect(Object.is(measurement('return X * 0;')[1], -0)).toBe(true);
  });

  it('an Integer output of x / 0 is null too', () => {
    expect(measurement('return X / 0;', 'Integer')).toEqual([NaN, NaN, NaN, NaN]);
    expect(measurement('int i = X / 0; return i;')).toEqual([NaN, NaN, NaN, NaN]);
  });

  it('inside an expression infinity follows C#: 1 / (1 / 0) is 0 and x / 0 compares as infinity', () => {
    expect(measurement('return 1 / (1 / X);')).toEqual([1, -1, 0, NaN]);
    expect(measurement('return X / 0 > 1e300 ? 1 : 0;')).toEqual([1, 0, 0, 0]);
    expect(measurement('return double.IsNaN(X / 0) ? 1 : 0;')).toEqual([0, 0, 1, 1]);
    expect(measurement('return (0 / 0) ?? 7;')).toEqual([7, 7, 7, 7]);
  });

  it('a report field dividing by zero, or summing infinite values, stores null', () => {
    const span = {
      spanStarts: Float64Array.of(0, 3600_000),
      spanSeconds: 3600,
      timestamps: Float64Array.of(0, 60_000, 3600_000),
      inputs: { X: Float64Array.of(1, 2, 0) },
      constants,
    };
    expect(
      Array.from(compiled('return X.Average() / 0;', 'report-field', ['X']).evaluateSpans(span)),
    ).toEqual([NaN, NaN]);
    // The first span sums two infinities; in the second 0 / 0 is null, which Sum skips.
    expect(
      Array.from(compiled('return X.Select(v => v / 0).Sum();', 'report-field', ['X']).evaluateSpans(span)),
    ).toEqual([NaN, 0]);
    // 1 / (1 / 0) is 0; 1 / (0 / 0) is null, which Sum skips.
    expect(
      Array.from(
        compiled('return X.Select(v => 1 / (v / 0)).Sum();', 'report-field', ['X']).evaluateSpans(span),
      ),
    ).toEqual([0, 0]);
  });

  it('the editor’s Test answers null for x / 0 and 0 / 0, and its JSON carries no Infinity', () => {
    for (const source of ['return X / 0;', 'return 0 / 0;', 'return -X / 0;']) {
      const result = runTest(source, { kind: 'measurement-field', inputNames: ['X'] }, oneRow({ X: 5 }));
      expect(result).toEqual({ errors: [], results: [{ timestamp: '2026-01-01T00:00:00Z', value: null }] });
    }
    const integer = runTest(
      'return X / 0;',
      { kind: 'measurement-field', inputNames: ['X'], outputType: 'Integer' },
      oneRow({ X: 5 }),
    );
    expect(JSON.stringify(integer)).toBe(
      '{"errors":[],"results":[{"timestamp":"2026-01-01T00:00:00Z","value":null}]}',
    );
    expect(integer.results[0]?.value).toBeNull();
  });
});
