import { describe, expect, it } from 'vitest';
import { parse } from './parser';
import { check, type CalculationKind } from './check';
import { emitMeasurement, emitSpans, HELPERS } from './compile';
import { compile, FormulaRuntimeError, runTest, validateSyntax, MAX_SOURCE_LENGTH } from './index';

const constants = {
  Facility_IMO: '9312345',
  Facility_NumberOfScrubbers: 2,
  Facility_ScrubberSystemType: 'Hybrid',
  Facility_TotalEffectKW: 12000,
};

function generated(
  source: string,
  kind: CalculationKind,
  inputNames: string[],
): { code: string; strings: string[] } | undefined {
  const parsed = parse(source);
  if (!parsed.ok) return undefined;
  const checked = check(parsed.program, { kind, inputNames });
  if (!checked.ok) return undefined;
  const program = { ...checked.program, kind };
  return {
    code: kind === 'measurement-field' ? emitMeasurement(program) : emitSpans(program),
    strings: checked.program.strings,
  };
}

// The emitter's own vocabulary. Anything else in generated text would have come from the user.
const KEYWORDS = new Set([
  'use',
  'strict',
  'const',
  'let',
  'return',
  'function',
  'for',
  'if',
  'else',
  'break',
  'true',
  'false',
  'null',
  'NaN',
]);
const FIXED = new Set([
  'H',
  'measurement',
  'report',
  'cols',
  'ts',
  'E',
  'Z',
  'nz',
  'new',
  'Float64Array',
  'K',
  'out',
  'budgetMs',
  'n',
  'i',
  'j',
  'm',
  'r',
  'b',
  'tt',
  'ez',
  'k0',
  'k1',
  'k2',
  'k3',
  'deadline',
  'at',
  'end',
  'S',
  's0',
  'lo',
  'ws',
  'wn',
  'wk',
  'wv',
  'hi',
  'spanStarts',
  'spanMs',
  'length',
  'subarray',
]);
const SLOT = /^(in|c|l|p|t|v|w|m)\d+$/;
const GENERATOR_STRINGS = new Set(['use strict', 'row ']);

/** Re-tokenizes generated JavaScript and returns every token that is not the emitter's own. */
function foreignTokens(code: string, userStrings: string[]): string[] {
  const foreign: string[] = [];
  const token =
    /\s+|(\d+(?:\.\d+)?(?:e[+-]?\d+)?)|("(?:[^"\\\n]|\\.)*")|([A-Za-z_$][\w$]*)|(=>|===|!==|&&|\|\||[-+*/%<>=!?:;,.(){}[\]&]|<=|>=)|([\s\S])/gy;
  let m: RegExpExecArray | null;
  const helpers = new Set(Object.keys(HELPERS));
  while ((m = token.exec(code))) {
    const [, num, str, ident, , other] = m;
    if (other !== undefined) foreign.push(other);
    if (str !== undefined) {
      const value = JSON.parse(str) as string;
      if (JSON.stringify(value) !== str || !(GENERATOR_STRINGS.has(value) || userStrings.includes(value)))
        foreign.push(str);
    }
    if (ident !== undefined) {
      const ok =
        KEYWORDS.has(ident) ||
        FIXED.has(ident) ||
        SLOT.test(ident) ||
        helpers.has(ident) ||
        (ident.startsWith('h_') && helpers.has(ident.slice(2)));
      if (!ok) foreign.push(ident);
    }
    if (num !== undefined && !Number.isFinite(Number(num))) foreign.push(num);
  }
  return foreign;
}

describe('names from the user never reach the generated code', () => {
  const hostile = [
    'constructor',
    '__proto__',
    'process',
    'require',
    'globalThis',
    'toString',
    'hasOwnProperty',
    'eval',
    'Function',
    'prototype',
    'window',
    'H',
    'cols',
    'out',
    'r',
    'in0',
  ];

  it('inputs with hostile names are plain numbered slots and read their own columns', () => {
    const source = hostile.map((n) => n).join(' + ') + ' > 0 ? ' + hostile.join(' + ') + ' : -1';
    const result = compile(`return ${source};`, { kind: 'measurement-field', inputNames: hostile });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const inputs: Record<string, Float64Array> = Object.create(null);
    hostile.forEach((name, k) => (inputs[name] = Float64Array.of(k + 1, 0)));
    const out = result.program.evaluateTimestamps({
      timestamps: Float64Array.of(0, 60_000),
      inputs,
      constants,
    });
    const sum = hostile.reduce((s, _, k) => s + k + 1, 0);
    expect(Array.from(out)).toEqual([sum, -1]);
    const code = generated(`return ${source};`, 'measurement-field', hostile)!.code;
    for (const name of [
      'constructor',
      '__proto__',
      'process',
      'require',
      'globalThis',
      'eval',
      'Function',
      'prototype',
    ])
      expect(code).not.toContain(name);
  });

  it('an input column is looked up as an own property only', () => {
    const result = compile('return constructor;', { kind: 'measurement-field', inputNames: ['constructor'] });
    if (!result.ok) throw new Error('expected to compile');
    expect(() =>
      result.program.evaluateTimestamps({ timestamps: Float64Array.of(0), inputs: {}, constants }),
    ).toThrow(new FormulaRuntimeError("Missing input column 'constructor'"));
  });

  it('globals, this and prototype members are unknown names', () => {
    for (const name of [
      'process',
      'require',
      'globalThis',
      'window',
      'eval',
      'Function',
      'this',
      'constructor',
      '__proto__',
    ]) {
      const errors = validateSyntax(`return ${name};`, { kind: 'measurement-field', inputNames: [] });
      expect(errors[0]?.message).toMatch(new RegExp(`^Unknown name '${name}'`));
    }
    expect(
      validateSyntax('return Math.constructor(1);', { kind: 'measurement-field', inputNames: [] })[0]
        ?.message,
    ).toBe("Unknown function 'Math.constructor'");
    expect(
      validateSyntax('return "a".constructor;', { kind: 'measurement-field', inputNames: [] })[0]?.message,
    ).toBe("Unknown member 'constructor' of string");
    expect(
      validateSyntax('return X.__proto__;', { kind: 'measurement-field', inputNames: ['X'] })[0]?.message,
    ).toBe("Unknown member '__proto__' of double");
    expect(
      validateSyntax('return X.constructor();', { kind: 'report-field', inputNames: ['X'] })[0]?.message,
    ).toBe("Unknown series method 'constructor'");
  });

  it('string literals with quotes, backslashes and script-like text come back unchanged', () => {
    const nasty = [
      '"); process.exit(1); ("',
      '\\',
      '`${process}`',
      '</script>',
      "'",
      '\u2028\u2029',
      '\n\r\t\0',
    ];
    for (const text of nasty) {
      const literal = JSON.stringify(text)
        .replace(/\u2028/g, '\\u2028')
        .replace(/\u2029/g, '\\u2029');
      const result = runTest(
        `return ${literal};`,
        { kind: 'measurement-field', inputNames: [], outputType: 'String' },
        { inputData: [{ timestamp: '2024-01-01T00:00:00Z', inputValues: {} }], constants: {} },
      );
      expect(result).toEqual({ errors: [], results: [{ timestamp: '2024-01-01T00:00:00Z', value: text }] });
    }
  });
});

describe('runaway work ends with an error', () => {
  it('a measurement-field run stops when its time budget is spent', () => {
    const result = compile('return Math.Sqrt(Math.Pow(X, 2) + Math.Exp(X)) / Math.Log(X + 2);', {
      kind: 'measurement-field',
      inputNames: ['X'],
    });
    if (!result.ok) throw new Error('expected to compile');
    const n = 2_000_000;
    const args = {
      timestamps: new Float64Array(n),
      inputs: { X: new Float64Array(n).fill(3) },
      constants,
      budgetMs: 0,
    };
    expect(() => result.program.evaluateTimestamps(args)).toThrow(FormulaRuntimeError);
    expect(() => result.program.evaluateTimestamps(args)).toThrow(/exceeded its time budget of 0 ms/);
  });

  it('a quadratic report-field lambda stops when its time budget is spent', () => {
    const result = compile('return X.Count(v => X.Any(w => w > v * 2));', {
      kind: 'report-field',
      inputNames: ['X'],
    });
    if (!result.ok) throw new Error('expected to compile');
    const n = 40_000;
    const timestamps = Float64Array.from({ length: n }, (_, k) => k * 10);
    const X = Float64Array.from({ length: n }, (_, k) => k);
    // How promptly it stops is a figure of bench/formula/budget.ts, not an assertion here.
    expect(() =>
      result.program.evaluateSpans({
        spanStarts: Float64Array.of(0),
        spanSeconds: 3600,
        timestamps,
        inputs: { X },
        constants,
        budgetMs: 50,
      }),
    ).toThrow(/time budget of 50 ms/);
  });

  it('runTest reports a spent budget as an error, not an exception', () => {
    const inputData = Array.from({ length: 3000 }, (_, k) => ({
      timestamp: new Date(k * 1000).toISOString(),
      inputValues: { X: k },
    }));
    const result = runTest(
      'return X.Where(v => X.Count(w => w < v) > X.Count(w => w > v)).Count();',
      { kind: 'report-field', inputNames: ['X'], algorithmSecondsSpan: 86400 },
      { inputData, constants: {} },
    );
    // 3000 samples in one span: about 18 million steps, well inside the default budget.
    expect(result.errors).toEqual([]);
    expect(result.results[0]?.value).toBe(1500);
  });
});

describe('very deep or very long sources give an error, not a crash', () => {
  const options = { kind: 'measurement-field' as const, inputNames: ['X'] };
  const cases: [string, string, RegExp][] = [
    ['10,000 nested parentheses', `return ${'('.repeat(10_000)}X${')'.repeat(10_000)};`, /too deeply nested/],
    ['10,000 unary minus signs', `return ${'-'.repeat(10_000)}X;`, /too deeply nested/],
    ['10,000 negations', `return ${'!'.repeat(10_000)}X;`, /too deeply nested/],
    ['a chain of 50,000 additions', `return ${Array(50_000).fill('X').join('+')};`, /too deeply nested/],
    ['a right-leaning chain of ??', `return ${Array(5_000).fill('X').join(' ?? ')};`, /too deeply nested/],
    ['5,000 nested conditionals', `return ${'X ? 1 : '.repeat(5_000)}0;`, /too deeply nested/],
    ['2,000 nested ifs', `${'if (X > 0) '.repeat(2_000)}return 1; return 0;`, /too deeply nested/],
    ['2,000 nested blocks', `${'{'.repeat(2_000)}return 1;${'}'.repeat(2_000)}`, /too deeply nested/],
    [
      'a 10,000-deep call chain',
      `return ${'Math.Abs('.repeat(10_000)}X${')'.repeat(10_000)};`,
      /too deeply nested/,
    ],
    ['an algorithm over the size limit', `return 1;${' '.repeat(MAX_SOURCE_LENGTH)}`, /too long/],
  ];
  it.each(cases)('%s', (_, source, message) => {
    let errors: ReturnType<typeof validateSyntax> = [];
    expect(() => (errors = validateSyntax(source, options))).not.toThrow();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(message);
    expect(errors[0]?.startLine).toBeGreaterThanOrEqual(1);
  });

  it('ordinary nesting still works', () => {
    const result = runTest(
      `return ${'('.repeat(100)}X + 1${')'.repeat(100)};`,
      { ...options },
      { inputData: [{ timestamp: '2024-01-01T00:00:00Z', inputValues: { X: 1 } }], constants: {} },
    );
    expect(result.results[0]?.value).toBe(2);
  });
});

// ---- fuzzing the emitter

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE_NAMES = [
  'constructor',
  '__proto__',
  'process',
  'require',
  'globalThis',
  'toString',
  'valueOf',
  'h_now',
  'H',
  'in0',
  'out',
  'r',
  'b',
  'X',
];
const STRING_CHARS = [
  '"',
  '\\',
  "'",
  '`',
  '$',
  '{',
  '}',
  '\n',
  'a',
  ' ',
  '</script>',
  '\u2028',
  '/*',
  '*/',
  '//',
];

function fuzzSource(random: () => number, kind: CalculationKind, inputs: string[]): string {
  // random() is in [0, 1), so the index is in range of a non-empty list.
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const locals: string[] = [];
  const stringLiteral = () => {
    let s = '';
    const length = Math.floor(random() * 6);
    for (let k = 0; k < length; k++) s += pick(STRING_CHARS);
    return JSON.stringify(s).replace(/\u2028/g, '\\u2028');
  };
  const num = (depth: number, params: string[]): string => {
    const r = random();
    if (depth > 3 || r < 0.25) {
      const leaves = [
        () => String(Math.round(random() * 1000) / 10),
        () =>
          kind === 'measurement-field'
            ? pick(inputs)
            : `${pick(inputs)}.${pick(['Average', 'Sum', 'Count', 'Min', 'Max', 'First', 'Last'])}()`,
        () =>
          pick([
            'Facility_TotalEffectKW',
            'Facility_NumberOfScrubbers',
            'TARGETTIMESTAMP.Hour',
            'null',
            'true',
          ]),
        () => (locals.length ? pick(locals) : '1'),
        () => (params.length ? pick(params) : '2'),
        () => (kind === 'measurement-field' ? 'ISECAZONE' : '0'),
      ];
      return pick(leaves)();
    }
    const forms = [
      () =>
        `${num(depth + 1, params)} ${pick(['+', '-', '*', '/', '%', '<', '<=', '>', '>=', '==', '!=', '&&', '||', '??'])} ${num(depth + 1, params)}`,
      () => `(${num(depth + 1, params)})`,
      () => `-${num(depth + 1, params)}`,
      () => `!${num(depth + 1, params)}`,
      () => `${num(depth + 1, params)} ? ${num(depth + 1, params)} : ${num(depth + 1, params)}`,
      () => `Math.${pick(['Abs', 'Sqrt', 'Floor', 'Ceiling', 'Exp', 'Round'])}(${num(depth + 1, params)})`,
      () =>
        `Math.${pick(['Min', 'Max', 'Pow', 'Log'])}(${num(depth + 1, params)}, ${num(depth + 1, params)})`,
      () => `double.IsNaN(${num(depth + 1, params)})`,
      () => `${str(depth + 1)} == ${str(depth + 1)}`,
      () => {
        if (kind !== 'report-field') return num(depth + 1, params);
        const p = pick(['v', 'w', 'x1', 'constructor', '__proto__', 'process']);
        if (params.includes(p) || locals.includes(p) || inputs.includes(p)) return '3';
        const inner = [...params, p];
        const series =
          random() < 0.5
            ? pick(inputs)
            : `${pick(inputs)}.${pick(['Where', 'Select'])}(${p} => ${num(depth + 1, inner)})`;
        return `${series}.${pick(['Count', 'Any', 'All', 'Average', 'Sum', 'First'])}(${p} => ${num(depth + 1, inner)})`;
      },
    ];
    return pick(forms)();
  };
  const str = (depth: number): string => {
    if (depth > 3 || random() < 0.5)
      return pick([stringLiteral, () => 'Facility_IMO', () => 'Facility_ScrubberSystemType'])();
    return `${str(depth + 1)} + ${random() < 0.5 ? str(depth + 1) : num(depth + 1, [])}`;
  };
  const statements = (depth: number): string => {
    let text = '';
    const count = 1 + Math.floor(random() * 3);
    for (let k = 0; k < count; k++) {
      const r = random();
      if (r < 0.3) {
        const name = `${pick(['x', 'total', 'y'])}${locals.length}`;
        text += `${pick(['var', 'double', 'int', 'bool'])} ${name} = ${num(0, [])};\n`;
        locals.push(name);
      } else if (r < 0.45 && locals.length) {
        text += `${pick(locals)} ${pick(['=', '+=', '-=', '*=', '/='])} ${num(0, [])};\n`;
      } else if (r < 0.6) {
        text += `string s${locals.length} = ${str(0)}; // ${pick(STRING_CHARS)}\n`;
      } else if (r < 0.85 && depth < 3) {
        text += `if (${num(0, [])}) {\n${statements(depth + 1)}} else ${random() < 0.5 ? `if (${num(0, [])}) ` : ''}{\n${statements(depth + 1)}}\n`;
      }
    }
    return text + `return ${random() < 0.1 ? str(0) : num(0, [])};\n`;
  };
  return `/* fuzz */\n${statements(0)}`;
}

describe("fuzzing: generated code contains only the emitter's own tokens", () => {
  it.each(['measurement-field', 'report-field'] as const)('%s', (kind) => {
    const random = rng(kind === 'measurement-field' ? 1 : 2);
    let compiled = 0;
    for (let k = 0; k < 1500; k++) {
      const inputs = [...HOSTILE_NAMES].sort(() => random() - 0.5).slice(0, 4);
      const source = fuzzSource(random, kind, inputs);
      const output = generated(source, kind, inputs);
      if (!output) continue;
      compiled++;
      const foreign = foreignTokens(output.code, output.strings);
      if (foreign.length > 0)
        throw new Error(
          `foreign tokens ${JSON.stringify(foreign)} in code generated from:\n${source}\n---\n${output.code}`,
        );
      // The text must also be valid JavaScript, and the checked program must run.
      const result = compile(source, { kind, inputNames: inputs });
      if (!result.ok) throw new Error('checked source did not compile');
      const columns = Object.fromEntries(
        result.program.inputNames.map((n) => [n, Float64Array.of(1, NaN, -2.5, 0)]),
      );
      const timestamps = Float64Array.of(0, 60_000, 120_000, 3_600_000);
      try {
        if (kind === 'measurement-field')
          result.program.evaluateTimestamps({
            timestamps,
            inputs: columns,
            isEcaZone: Uint8Array.of(0, 1, 2, 1),
            constants,
          });
        else
          result.program.evaluateSpans({
            spanStarts: Float64Array.of(0, 3_600_000),
            spanSeconds: 3600,
            timestamps,
            inputs: columns,
            constants,
          });
      } catch (e) {
        // Algorithms returning strings only run through runTest.
        if (!(e instanceof FormulaRuntimeError && /String output/.test(e.message))) throw e;
      }
    }
    // Most generated sources are well-typed, so the audit covers a real variety of programs.
    expect(compiled).toBeGreaterThan(500);
  });

  it('the audit catches a foreign identifier or a hand-made string', () => {
    expect(foreignTokens('const x = process;', [])).toEqual(['x', 'process']);
    expect(foreignTokens('r = "abc";', [])).toEqual(['"abc"']);
    expect(foreignTokens('r = "abc";', ['abc'])).toEqual([]);
  });
});
