import { describe, expect, it } from 'vitest';
import { compile, FormulaRuntimeError, LANGUAGE, runTest, tokenize, validateSyntax } from './index';

const constants = {
  Facility_IMO: '9312345',
  Facility_NumberOfScrubbers: 2,
  Facility_ScrubberSystemType: 'Hybrid',
  Facility_TotalEffectKW: 12000,
};

function ok(source: string, options: Parameters<typeof compile>[1]) {
  const result = compile(source, options);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.program;
}

describe('compile', () => {
  it('reports the inputs the algorithm uses and whether it reads ISECAZONE', () => {
    const calc = ok('return ISECAZONE ? B : 0;', { kind: 'measurement-field', inputNames: ['A', 'B', 'C'] });
    expect(calc.inputNames).toEqual(['B']);
    expect(calc.usesEcaZone).toBe(true);
    expect(calc.kind).toBe('measurement-field');
  });

  it('returns the errors instead of a program', () => {
    expect(compile('return SO2PPM;', { kind: 'measurement-field', inputNames: ['SO2_PPM'] })).toEqual({
      ok: false,
      errors: [
        { message: "Unknown name 'SO2PPM'. Did you mean 'SO2_PPM'?", startLine: 1, startCharacter: 8 },
      ],
    });
    expect(validateSyntax('return SO2_PPM;', { kind: 'measurement-field', inputNames: ['SO2_PPM'] })).toEqual(
      [],
    );
  });
});

describe('evaluateTimestamps', () => {
  const calc = ok('if (CO2_PCT >= 0.5) return SO2_PPM / CO2_PCT; return null;', {
    kind: 'measurement-field',
    inputNames: ['SO2_PPM', 'CO2_PCT'],
  });

  it('computes one value per target timestamp, NaN for null', () => {
    const out = calc.evaluateTimestamps({
      timestamps: Float64Array.of(0, 60_000, 120_000, 180_000),
      inputs: { SO2_PPM: Float64Array.of(10, NaN, 10, 4), CO2_PCT: Float64Array.of(5, 5, 0.1, NaN) },
      constants,
    });
    expect(Array.from(out)).toEqual([2, NaN, NaN, NaN]);
  });

  it('answers null for a null tested first, whatever follows the test (the generated code may drop the test)', () => {
    const run = (source: string) =>
      Array.from(
        ok(source, { kind: 'measurement-field', inputNames: ['X', 'Y'] }).evaluateTimestamps({
          timestamps: Float64Array.of(0, 60_000, 120_000),
          inputs: { X: Float64Array.of(NaN, 2, 3), Y: Float64Array.of(4, NaN, 0) },
          constants,
        }),
      );
    // Arithmetic on a null is null: the same with or without the test (row 3 divides by zero: null too).
    expect(run('if (X == null) return null; return (Y - X) / Y * 100;')).toEqual([NaN, NaN, NaN]);
    expect(run('if (X == null || Y == null) return null; return -(X * Y);')).toEqual([NaN, NaN, -0]);
    // A comparison, a power or a coalesce of a null is not null: the test decides.
    expect(run('if (X == null) return null; return X > 1 ? 1 : 0;')).toEqual([NaN, 1, 1]);
    expect(run('if (X == null) return null; return Math.Pow(X, 0);')).toEqual([NaN, 1, 1]);
    expect(run('if (X == null) return null; return (X ?? 5) + 1;')).toEqual([NaN, 3, 4]);
    expect(run('if (Y == null) return null; return X ?? 7;')).toEqual([7, NaN, 3]);
  });

  it('keeps a boolean variable true, false or null as it was set, whichever way it is read', () => {
    const run = (source: string, outputType?: 'Boolean' | 'Double') =>
      Array.from(
        ok(source, { kind: 'measurement-field', inputNames: ['X', 'Y'], outputType }).evaluateTimestamps({
          timestamps: Float64Array.of(0, 60_000, 120_000),
          inputs: { X: Float64Array.of(NaN, 2, 3), Y: Float64Array.of(1, NaN, 5) },
          constants,
        }),
      );
    // Never null (a comparison): read as a condition, as a value, compared, tested for null, and in another.
    expect(run('bool big = X > 2; if (big) return 1; return 0;')).toEqual([0, 0, 1]);
    expect(run('bool big = X > 2; return big;', 'Boolean')).toEqual([0, 0, 1]);
    expect(run('bool big = X > 2; return big == true ? 10 : 20;')).toEqual([20, 20, 10]);
    expect(run('bool big = X > 2; return big == null ? 1 : 0;')).toEqual([0, 0, 0]);
    expect(run('bool big = X > 2; bool both = big && Y > 1; return both ? X + Y : -1;')).toEqual([-1, -1, 8]);
    expect(run('bool big = X > 2; big = !big; return big;', 'Boolean')).toEqual([1, 1, 0]);
    // Null when set from an input or left unset: the null stays null.
    expect(
      run('bool b = X > 2; if (Y > 2) b = Y == 5; bool c; if (X > 2) c = true; return c;', 'Boolean'),
    ).toEqual([NaN, NaN, 1]);
    expect(run('bool b = X > 0 && Y > 0 ? true : false; return b;', 'Boolean')).toEqual([0, 0, 1]);
  });

  it('ands and ors true, false and null as C# bool? does: false wins over null in and, true in or', () => {
    const F = 0;
    const T = 1;
    const N = NaN;
    const x = Float64Array.of(F, F, F, T, T, T, N, N, N);
    const y = Float64Array.of(F, T, N, F, T, N, F, T, N);
    const run = (source: string) =>
      Array.from(
        ok(source, {
          kind: 'measurement-field',
          inputNames: ['X', 'Y'],
          outputType: 'Boolean',
        }).evaluateTimestamps({
          timestamps: Float64Array.from(x, (_, i) => i * 60_000),
          inputs: { X: x, Y: y },
          constants,
        }),
      );
    expect(run('return X && Y;')).toEqual([F, F, F, F, T, N, F, N, N]);
    expect(run('return X || Y;')).toEqual([F, T, N, T, T, T, N, T, N]);
    expect(run('return !(X && Y) || X;')).toEqual([T, T, T, T, T, T, T, N, N]);
  });

  it('refuses missing or misaligned columns', () => {
    const timestamps = Float64Array.of(0, 1);
    expect(() =>
      calc.evaluateTimestamps({ timestamps, inputs: { SO2_PPM: Float64Array.of(1, 2) }, constants }),
    ).toThrow("Missing input column 'CO2_PCT'");
    expect(() =>
      calc.evaluateTimestamps({
        timestamps,
        inputs: { SO2_PPM: Float64Array.of(1, 2), CO2_PCT: Float64Array.of(1) },
        constants,
      }),
    ).toThrow(/has 1 values for 2 timestamps/);
  });

  it('needs the isEcaZone column when ISECAZONE is read, and treats other values than 0/1 as null', () => {
    const eca = ok('return ISECAZONE ?? 5;', {
      kind: 'measurement-field',
      inputNames: [],
      outputType: 'Double',
    });
    expect(() => eca.evaluateTimestamps({ timestamps: Float64Array.of(0), inputs: {}, constants })).toThrow(
      FormulaRuntimeError,
    );
    const out = eca.evaluateTimestamps({
      timestamps: Float64Array.of(0, 0, 0),
      inputs: {},
      isEcaZone: Uint8Array.of(0, 1, 255),
      constants,
    });
    expect(Array.from(out)).toEqual([0, 1, 5]);
  });

  it('refuses String output in a numeric column, and the wrong kind of run', () => {
    const text = ok('return "a";', { kind: 'measurement-field', inputNames: [] });
    expect(() => text.evaluateTimestamps({ timestamps: Float64Array.of(0), inputs: {}, constants })).toThrow(
      /String output/,
    );
    expect(() =>
      calc.evaluateSpans({
        spanStarts: Float64Array.of(0),
        spanSeconds: 3600,
        timestamps: Float64Array.of(0),
        inputs: {},
        constants,
      }),
    ).toThrow(/report-field/);
  });
});

describe('evaluateSpans', () => {
  const calc = ok('return X.Count() * 1000 + (X.Sum() ?? 0);', { kind: 'report-field', inputNames: ['X'] });

  it('cuts samples into half-open spans [start, start + span)', () => {
    const timestamps = Float64Array.of(0, 1_000, 3_599_999, 3_600_000, 3_600_001, 9_000_000);
    const X = Float64Array.of(1, 2, 3, 4, NaN, 6);
    const out = calc.evaluateSpans({
      spanStarts: Float64Array.of(0, 3_600_000, 7_200_000, 10_800_000),
      spanSeconds: 3600,
      timestamps,
      inputs: { X },
      constants,
    });
    expect(Array.from(out)).toEqual([3006, 2004, 1006, 0]);
  });

  it('refuses unsorted samples', () => {
    expect(() =>
      calc.evaluateSpans({
        spanStarts: Float64Array.of(0),
        spanSeconds: 3600,
        timestamps: Float64Array.of(2, 1),
        inputs: { X: Float64Array.of(1, 2) },
        constants,
      }),
    ).toThrow(/sorted/);
  });
});

describe('runTest', () => {
  const rows = [
    { timestamp: '2024-05-06T10:00:00Z', inputValues: { FLOW: 100, RUNNING: true } },
    { timestamp: '2024-05-06T10:01:00', inputValues: { FLOW: '250', RUNNING: false } },
    { timestamp: '2024-05-06T11:30:00Z', inputValues: { FLOW: null, RUNNING: 'true' } },
  ];

  it('answers a measurement field row by row, booleans as true/false', () => {
    const result = runTest(
      'return !RUNNING && FLOW > 150;',
      { kind: 'measurement-field', inputNames: ['FLOW', 'RUNNING'], outputType: 'Boolean' },
      { inputData: rows, constants: {} },
    );
    expect(result).toEqual({
      errors: [],
      results: [
        { timestamp: '2024-05-06T10:00:00Z', value: false },
        { timestamp: '2024-05-06T10:01:00', value: true },
        { timestamp: '2024-05-06T11:30:00Z', value: false },
      ],
    });
  });

  it('groups a report field into spans of algorithmSecondsSpan', () => {
    const result = runTest(
      'return FLOW.Sum() + Facility_InstalledPower;',
      { kind: 'report-field', inputNames: ['FLOW'], algorithmSecondsSpan: 3600 },
      { inputData: rows, constants: { Facility_InstalledPower: 1 } },
    );
    expect(result).toEqual({
      errors: [],
      results: [
        { timestamp: '2024-05-06T10:00:00.000Z', value: 351 },
        { timestamp: '2024-05-06T11:00:00.000Z', value: 1 },
      ],
    });
  });

  it('reports bad test data as errors', () => {
    const result = runTest(
      'return FLOW;',
      { kind: 'measurement-field', inputNames: ['FLOW'] },
      {
        inputData: [
          { timestamp: 'yesterday', inputValues: { FLOW: 1 } },
          { timestamp: '2024-01-01T00:00:00Z', inputValues: { FLOW: 'abc' } },
        ],
        constants: {},
      },
    );
    expect(result.results).toEqual([]);
    expect(result.errors.map((e) => e.message)).toEqual([
      "Invalid timestamp 'yesterday' in the test data",
      "Input 'FLOW' at 2024-01-01T00:00:00Z is not a number: 'abc'",
    ]);
  });

  it('returns syntax errors without results', () => {
    expect(
      runTest('return 1', { kind: 'measurement-field', inputNames: [] }, { inputData: rows, constants: {} }),
    ).toEqual({
      errors: [{ message: "Expected ';'", startLine: 1, startCharacter: 9 }],
      results: [],
    });
  });
});

describe('LANGUAGE and tokenize, for the editor', () => {
  it('names only what the checker accepts', () => {
    for (const f of LANGUAGE.mathFunctions) {
      const args = f === 'double.IsNaN' ? 'X' : f.match(/Min|Max|Pow/) ? 'X, 2' : 'X';
      expect(
        validateSyntax(`return ${f}(${args});`, { kind: 'measurement-field', inputNames: ['X'] }),
        f,
      ).toEqual([]);
    }
    for (const m of LANGUAGE.seriesMethods) {
      const arg = ['Where', 'All', 'Count', 'Any', 'First', 'Last'].includes(m) ? 'v => v > 0' : 'v => v * 2';
      const source =
        m === 'Where' || m === 'Select' ? `return X.${m}(${arg}).Count();` : `return X.${m}(${arg}) ?? 0;`;
      expect(validateSyntax(source, { kind: 'report-field', inputNames: ['X'] }), m).toEqual([]);
    }
    for (const member of LANGUAGE.dateTimeMembers)
      expect(
        validateSyntax(`return TARGETTIMESTAMP.${member};`, { kind: 'measurement-field', inputNames: [] }),
      ).toEqual([]);
    for (const c of LANGUAGE.constants)
      expect(validateSyntax(`return ${c} == null;`, { kind: 'measurement-field', inputNames: [] })).toEqual(
        [],
      );
    expect(LANGUAGE.keywords).toEqual(
      expect.arrayContaining(['var', 'double', 'if', 'else', 'return', 'null']),
    );
  });

  it('covers every character and classifies the tokens', () => {
    const source =
      'double x = Math.Abs(SO2_PPM) ?? 1.5; // c\nif (ISECAZONE) return X.Average(v => v) + "s"; #';
    const tokens = tokenize(source);
    let at = 0;
    for (const t of tokens) {
      expect(t.from).toBe(at);
      at = t.to;
    }
    expect(at).toBe(source.length);
    const typed = tokens
      .filter((t) => t.type !== 'whitespace')
      .map((t) => `${t.type}:${source.slice(t.from, t.to)}`);
    expect(typed).toEqual([
      'keyword:double',
      'name:x',
      'operator:=',
      'function:Math',
      'punctuation:.',
      'function:Abs',
      'punctuation:(',
      'name:SO2_PPM',
      'punctuation:)',
      'operator:??',
      'number:1.5',
      'punctuation:;',
      'comment:// c',
      'keyword:if',
      'punctuation:(',
      'constant:ISECAZONE',
      'punctuation:)',
      'keyword:return',
      'name:X',
      'punctuation:.',
      'function:Average',
      'punctuation:(',
      'name:v',
      'operator:=>',
      'name:v',
      'punctuation:)',
      'operator:+',
      'string:"s"',
      'punctuation:;',
      'invalid:#',
    ]);
  });
});
