import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTest, validateSyntax, type CalculationKind, type OutputType } from '../src/index';

// Grammar fixtures in the lezer style. Each case:
//   # name
//   inputs: A=1, B=null, C=true, D="text", S=[1, null, 3]   (optional; arrays for report-field)
//   kind: report-field                                       (optional; default measurement-field)
//   output: Boolean                                          (optional output type)
//   constants: {"Facility_IMO": "9000001"}                   (optional, JSON)
//   time: 2024-05-06T07:08:09Z                               (optional TARGETTIMESTAMP / span start)
//   <source lines>
//   ==>
//   <expected value as JSON>  or one line per error:  error: <line>:<char> <message>

type Value = number | boolean | string | null;

interface Case {
  file: string;
  name: string;
  inputs: Record<string, Value | Value[]>;
  kind: CalculationKind;
  output?: OutputType;
  constants: Record<string, string | number>;
  time: string;
  source: string;
  expected: string[];
}

const DEFAULT_CONSTANTS = {
  Facility_IMO: '9312345',
  Facility_NumberOfScrubbers: 2,
  Facility_ScrubberSystemType: 'Hybrid',
  Facility_TotalEffectKW: 12000,
};

function parseInputs(text: string): Record<string, Value | Value[]> {
  const out: Record<string, Value | Value[]> = {};
  for (const m of text.matchAll(/(\w+)\s*=\s*(\[[^\]]*\]|"(?:[^"\\]|\\.)*"|[^,\s]+)/g))
    out[m[1]!] = JSON.parse(m[2]!); // both groups are not optional
  return out;
}

function readCases(file: string): Case[] {
  const text = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  const blocks = text.split(/^# /m).slice(1);
  return blocks.map((block) => {
    const [head = '', ...rest] = block.split('\n');
    const body = rest.join('\n');
    const arrow = body.indexOf('\n==>\n');
    if (arrow < 0) throw new Error(`${file}: case '${head}' has no ==> line`);
    const c: Case = {
      file,
      name: head.trim(),
      inputs: {},
      kind: 'measurement-field',
      constants: { ...DEFAULT_CONSTANTS },
      time: '',
      source: '',
      expected: [],
    };
    const sourceLines: string[] = [];
    let inHeader = true;
    for (const line of body.slice(0, arrow).split('\n')) {
      const header = inHeader ? /^(inputs|kind|output|constants|time): ?(.*)$/.exec(line) : null;
      if (header) {
        const [, key, value = ''] = header;
        if (key === 'inputs') c.inputs = parseInputs(value);
        if (key === 'kind') c.kind = value.trim() as CalculationKind;
        if (key === 'output') c.output = value.trim() as OutputType;
        if (key === 'constants') c.constants = { ...c.constants, ...JSON.parse(value) };
        if (key === 'time') c.time = value.trim();
        continue;
      }
      inHeader = false;
      sourceLines.push(line);
    }
    c.time ||= c.kind === 'report-field' ? '2024-05-06T07:00:00Z' : '2024-05-06T07:08:09Z';
    c.source = sourceLines.join('\n');
    c.expected = body
      .slice(arrow + 5)
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '');
    return c;
  });
}

function testData(c: Case) {
  const names = Object.keys(c.inputs);
  if (c.kind === 'measurement-field') {
    return { inputData: [{ timestamp: c.time, inputValues: c.inputs as Record<string, Value> }] };
  }
  const length = Math.max(0, ...names.map((n) => (c.inputs[n] as Value[]).length));
  const start = Date.parse(c.time);
  return {
    inputData: Array.from({ length }, (_, k) => ({
      timestamp: new Date(start + k * 60_000).toISOString(),
      inputValues: Object.fromEntries(names.map((n) => [n, (c.inputs[n] as Value[])[k] ?? null])),
    })),
  };
}

const dir = join(import.meta.dirname, 'fixtures');
const files = readdirSync(dir).filter((f) => f.endsWith('.txt'));

describe.each(files)('fixtures/%s', (file) => {
  const cases = readCases(join(dir, file));
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const options = {
      kind: c.kind,
      inputNames: Object.keys(c.inputs).filter((n) => n !== 'ISECAZONE'),
      outputType: c.output,
    };
    const errors = validateSyntax(c.source, options);
    const [first] = c.expected;
    if (first === undefined) throw new Error(`${c.file}: case '${c.name}' has nothing after ==>`);
    if (first.startsWith('error:')) {
      expect(errors.map((e) => `error: ${e.startLine}:${e.startCharacter} ${e.message}`)).toEqual(c.expected);
      return;
    }
    expect(errors).toEqual([]);
    const result = runTest(c.source, options, { ...testData(c), constants: c.constants });
    expect(result.errors).toEqual([]);
    expect(result.results.length).toBeGreaterThan(0);
    const actual = result.results[0]?.value;
    const expected = JSON.parse(first) as Value;
    if (typeof expected === 'number' && typeof actual === 'number') {
      expect(actual).toBeCloseTo(expected, 9);
    } else {
      expect(actual).toEqual(expected);
    }
  });
});

it('finds fixture files', () => {
  expect(files.length).toBeGreaterThanOrEqual(4);
});
