// Benchmark of the calculation language: each default derived measurement calculation over one
// year of 1-minute samples, compiled by @portal/formula, against the same logic hand-written in
// plain JavaScript (the ceiling) and against expr-eval and mathjs (reference libraries).
// Run: npx tsx bench/formula/run.ts   (writes bench/results/formula.md)
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, platform, release } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'expr-eval';
import { create, all } from 'mathjs';
import { compile, DEFAULT_MEASUREMENT_FIELDS } from '@portal/formula';

const ROWS = 525_600;
// The reference libraries are 100x slower; they run over a tenth of the year.
const REFERENCE_ROWS = 52_560;
// Compiled and hand-written runs of each calculation, taken in turns; the best of each counts.
const loadAtStart = loadavg()
  .map((l) => l.toFixed(1))
  .join(', ');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const constants = {
  Facility_IMO: '9312345',
  Facility_NumberOfScrubbers: 1,
  Facility_ScrubberSystemType: 'Hybrid',
  Facility_TotalEffectKW: 12000,
};

// ---- one year of a ship's channels, with gaps
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const start = Date.UTC(2024, 0, 1);
const timestamps = Float64Array.from({ length: ROWS }, (_, i) => start + i * 60_000);
const column = (f: (i: number) => number, gaps = 0.01) =>
  Float64Array.from({ length: ROWS }, (_, i) =>
    random() < gaps || (i >= 200_000 && i < 201_440) ? NaN : f(i),
  );
const inEca = Uint8Array.from({ length: ROWS }, (_, i) => (Math.floor(i / 10_000) % 4 === 0 ? 1 : 0));
const raw: Record<string, Float64Array> = {
  FUEL_FLOW: column((i) => (i % 2000 < 300 ? 20 : 800 + 400 * random())),
  FUEL_SULFUR: column(() => 2.5 + 0.5 * random()),
  SO2_PPM: column(() => 5 + 60 * random()),
  CO2_PCT: column(() => 0.3 + 5 * random()),
  SCRUBBER_RUNNING: column((i) => (i % 50_000 < 2_000 ? 0 : 1)),
  SCRUBBER_POWER: column(() => 100 + 100 * random()),
};

const derived = DEFAULT_MEASUREMENT_FIELDS.filter(
  (f) => !(f.inputNames.length === 1 && f.inputNames[0] === f.name),
);

// ---- the same logic, hand-written (NaN = null, as in the compiled runs)
type Columns = Record<string, Float64Array>;
/** A column by name; checked once a call, outside the loops. */
function need(c: Columns, name: string): Float64Array {
  const column = c[name];
  if (!column) throw new Error(`No column ${name}`);
  return column;
}
// Every column and every output has ROWS entries, so the reads in the loops below are in range.
const hand: Record<string, (c: Columns, eca: Uint8Array, out: Float64Array) => void> = {
  SO2_CO2_RATIO(c, _e, out) {
    const run = need(c, 'SCRUBBER_RUNNING'),
      so2 = need(c, 'SO2_PPM'),
      co2 = need(c, 'CO2_PCT');
    for (let i = 0; i < out.length; i++) out[i] = run[i] && co2[i]! >= 0.5 ? so2[i]! / co2[i]! : NaN;
  },
  SO2_CO2_LIMIT(_c, e, out) {
    for (let i = 0; i < out.length; i++) out[i] = e[i] === 1 ? 4.3 : 21.7;
  },
  SCRUBBER_REQUIRED(c, e, out) {
    const flow = need(c, 'FUEL_FLOW'),
      s = need(c, 'FUEL_SULFUR');
    for (let i = 0; i < out.length; i++) out[i] = flow[i]! > 50 && s[i]! > (e[i] === 1 ? 0.1 : 0.5) ? 1 : 0;
  },
  COMPLIANT(c, _e, out) {
    const req = need(c, 'SCRUBBER_REQUIRED'),
      run = need(c, 'SCRUBBER_RUNNING'),
      ratio = need(c, 'SO2_CO2_RATIO'),
      limit = need(c, 'SO2_CO2_LIMIT');
    for (let i = 0; i < out.length; i++) out[i] = req[i] ? (run[i] && ratio[i]! <= limit[i]! ? 1 : 0) : NaN;
  },
  RATIO_MARGIN(c, _e, out) {
    const ratio = need(c, 'SO2_CO2_RATIO'),
      limit = need(c, 'SO2_CO2_LIMIT');
    for (let i = 0; i < out.length; i++) out[i] = ((limit[i]! - ratio[i]!) / limit[i]!) * 100;
  },
  SCRUBBER_FUEL(c, _e, out) {
    const p = need(c, 'SCRUBBER_POWER');
    for (let i = 0; i < out.length; i++) out[i] = (p[i]! * 200) / 1000;
  },
  EXCESS_SULFUR_REMOVED(c, e, out) {
    const flow = need(c, 'FUEL_FLOW'),
      ratio = need(c, 'SO2_CO2_RATIO');
    for (let i = 0; i < out.length; i++) {
      const r = ratio[i]!;
      out[i] = r !== r ? 0 : (flow[i]! * Math.max(0, (e[i] === 1 ? 0.1 : 0.5) - r / 43.3)) / 100;
    }
  },
  CO2_SAVED(c, _e, out) {
    const run = need(c, 'SCRUBBER_RUNNING'),
      p = need(c, 'SCRUBBER_POWER'),
      kw = constants.Facility_TotalEffectKW;
    for (let i = 0; i < out.length; i++) out[i] = run[i] ? (((0.015 * kw - p[i]!) * 200) / 1e6) * 3.114 : 0;
  },
};

// ---- the same logic as expr-eval / mathjs expressions (ECA and KW as variables, NULL = NaN)
const expressions: Record<string, string> = {
  SO2_CO2_RATIO: 'SCRUBBER_RUNNING == 1 and CO2_PCT >= 0.5 ? SO2_PPM / CO2_PCT : NULL',
  SO2_CO2_LIMIT: 'ECA == 1 ? 4.3 : 21.7',
  SCRUBBER_REQUIRED: 'FUEL_FLOW > 50 and FUEL_SULFUR > (ECA == 1 ? 0.1 : 0.5) ? 1 : 0',
  COMPLIANT:
    'SCRUBBER_REQUIRED == 1 ? (SCRUBBER_RUNNING == 1 and SO2_CO2_RATIO <= SO2_CO2_LIMIT ? 1 : 0) : NULL',
  RATIO_MARGIN: '(SO2_CO2_LIMIT - SO2_CO2_RATIO) / SO2_CO2_LIMIT * 100',
  SCRUBBER_FUEL: 'SCRUBBER_POWER * 200 / 1000',
  EXCESS_SULFUR_REMOVED:
    'SO2_CO2_RATIO != SO2_CO2_RATIO ? 0 : FUEL_FLOW * max(0, (ECA == 1 ? 0.1 : 0.5) - SO2_CO2_RATIO / 43.3) / 100',
  CO2_SAVED: 'SCRUBBER_RUNNING == 1 ? (0.015 * KW - SCRUBBER_POWER) * 200 / 1000000 * 3.114 : 0',
};

// CPU time of this process (user + system), not the wall clock: on a shared machine the wall clock also counts
// the time other processes had the core. BENCH_CLOCK=wall measures wall time instead.
const cpuClock = process.env.BENCH_CLOCK !== 'wall';
const now = () => {
  if (!cpuClock) return performance.now();
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

function best(runs: number, f: () => void): number {
  let fastest = Infinity;
  for (let k = 0; k < runs; k++) {
    const t = now();
    f();
    fastest = Math.min(fastest, now() - t);
  }
  return fastest;
}

const sameValues = (a: Float64Array, b: Float64Array) =>
  a.length === b.length &&
  a.every((v, i) => Object.is(v, b[i]) || Math.abs(v - b[i]!) <= 1e-12 * Math.max(1, Math.abs(v)));

const columns: Columns = { ...raw };
const parser = new Parser();
// mathjs declares its factory bundles as entries of a record, so the type allows undefined.
if (!all) throw new Error('mathjs exports no factory bundle "all"');
const math = create(all);
const rows: string[] = [];
const ratios = {
  hand: [] as number[],
  exprEval: [] as number[],
  exprEvalJs: [] as number[],
  mathjs: [] as number[],
};

for (const field of derived) {
  const result = compile(field.transformAlgorithm, {
    kind: 'measurement-field',
    inputNames: field.inputNames,
    outputType: field.dataType,
  });
  if (!result.ok) throw new Error(`${field.name}: ${JSON.stringify(result.errors)}`);
  const calc = result.program;
  const inputs = Object.fromEntries(calc.inputNames.map((n) => [n, need(columns, n)]));
  const handRun = hand[field.name];
  const expression = expressions[field.name];
  if (!handRun || expression === undefined)
    throw new Error(`${field.name}: no hand-written or reference form`);
  let compiled: Float64Array = new Float64Array(0);
  // Like evaluateTimestamps, the hand-written run allocates its output column.
  let handOut: Float64Array = new Float64Array(0);
  // Taken in turns, so that a slower moment of the machine falls on both alike.
  let compiledMs = Infinity;
  let handMs = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    compiledMs = Math.min(
      compiledMs,
      best(
        1,
        () => (compiled = calc.evaluateTimestamps({ timestamps, inputs, isEcaZone: inEca, constants })),
      ),
    );
    handMs = Math.min(
      handMs,
      best(1, () => handRun(columns, inEca, (handOut = new Float64Array(ROWS)))),
    );
  }
  if (!sameValues(compiled, handOut))
    throw new Error(`${field.name}: compiled and hand-written results differ`);

  const names = [...new Set([...field.inputNames, 'ECA', 'KW', 'NULL'])];
  const scope: Record<string, number> = { KW: constants.Facility_TotalEffectKW, NULL: NaN };
  const exprEval = parser.parse(expression);
  const exprEvalJs = exprEval.toJSFunction(names.join(','));
  const mathjs = math.compile(expression);
  const refOut = new Float64Array(REFERENCE_ROWS);
  for (const n of field.inputNames) need(columns, n);
  // Each input was checked just above, and i < REFERENCE_ROWS < ROWS.
  const fill = (i: number) => {
    for (const n of field.inputNames) scope[n] = columns[n]![i]!;
    scope.ECA = inEca[i]!;
  };
  const exprEvalMs = best(3, () => {
    for (let i = 0; i < REFERENCE_ROWS; i++) {
      fill(i);
      refOut[i] = exprEval.evaluate(scope);
    }
  });
  const args = new Array(names.length);
  const exprEvalJsMs = best(3, () => {
    for (let i = 0; i < REFERENCE_ROWS; i++) {
      fill(i);
      for (let k = 0; k < names.length; k++) args[k] = scope[names[k]!];
      refOut[i] = exprEvalJs(...args);
    }
  });
  const mathjsMs = best(3, () => {
    for (let i = 0; i < REFERENCE_ROWS; i++) {
      fill(i);
      refOut[i] = Number(mathjs.evaluate(scope));
    }
  });
  columns[field.name] = compiled;

  const rate = (ms: number, n: number) => (n / ms) * 1000;
  const r = {
    compiled: rate(compiledMs, ROWS),
    hand: rate(handMs, ROWS),
    exprEval: rate(exprEvalMs, REFERENCE_ROWS),
    exprEvalJs: rate(exprEvalJsMs, REFERENCE_ROWS),
    mathjs: rate(mathjsMs, REFERENCE_ROWS),
  };
  ratios.hand.push(r.compiled / r.hand);
  ratios.exprEval.push(r.compiled / r.exprEval);
  ratios.exprEvalJs.push(r.compiled / r.exprEvalJs);
  ratios.mathjs.push(r.compiled / r.mathjs);
  const m = (x: number) => `${(x / 1e6).toFixed(1)} M`;
  const k = (x: number) => `${(x / 1e3).toFixed(0)} k`;
  rows.push(
    `| ${field.name} | ${m(r.compiled)} | ${m(r.hand)} | ${(r.compiled / r.hand).toFixed(2)} | ${k(r.exprEval)} | ${(r.compiled / r.exprEval).toFixed(0)}x | ${k(r.exprEvalJs)} | ${(r.compiled / r.exprEvalJs).toFixed(0)}x | ${k(r.mathjs)} | ${(r.compiled / r.mathjs).toFixed(0)}x |`,
  );
  console.log(rows[rows.length - 1]);
}

const min = (xs: number[]) => Math.min(...xs);
const geo = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
const goalHand = min(ratios.hand) >= 0.85;
const goalExprEval = min(ratios.exprEval) >= 50;

const report = `# Calculation language benchmark

Each default derived measurement calculation (DOMAIN.md) evaluated over one year of 1-minute
samples (${ROWS.toLocaleString('en')} rows, inputs as Float64Arrays with about 1 % NaN gaps and a
one-day gap). Rows per second of ${cpuClock ? 'CPU time (this process, user + system)' : 'wall time'}: compiled and hand-written
best of ${ROUNDS} runs each, taken in turns; the reference libraries best of 3 over the first
${REFERENCE_ROWS.toLocaleString('en')} rows. The compiled results are checked equal to the hand-written ones.

- compiled: \`compile(...).evaluateTimestamps(...)\` of @portal/formula, time budget checks included
- hand-written: the same logic as a plain JavaScript loop over the columns (the ceiling)
- expr-eval 2.0.2: \`Parser.parse(expr).evaluate(scope)\`, and its \`toJSFunction\` (expr-eval's own compiled form)
- mathjs 15.2.0: \`math.compile(expr).evaluate(scope)\`

Machine: ${cpus()[0]?.model ?? 'unknown'} (${cpus().length} cores), ${(totalmem() / 2 ** 30).toFixed(0)} GB, ${platform()} ${release()}, Node ${process.version}
Date: ${new Date().toISOString().slice(0, 10)}
Command: \`npx tsx bench/formula/run.ts\`${cpuClock ? '' : ' with BENCH_CLOCK=wall'}
Load average when it started: ${loadAtStart}

| calculation | compiled rows/s | hand-written rows/s | compiled / hand | expr-eval rows/s | compiled / expr-eval | expr-eval toJSFunction rows/s | compiled / toJSFunction | mathjs rows/s | compiled / mathjs |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Summary (lowest, geometric mean over the ${derived.length} calculations):
- compiled / hand-written: ${min(ratios.hand).toFixed(2)}, ${geo(ratios.hand).toFixed(2)} (goal >= 0.85 on every calculation: ${goalHand ? 'met' : 'NOT met'})
- compiled / expr-eval evaluate: ${min(ratios.exprEval).toFixed(0)}x, ${geo(ratios.exprEval).toFixed(0)}x (goal >= 50x: ${goalExprEval ? 'met' : 'NOT met'})
- compiled / expr-eval toJSFunction: ${min(ratios.exprEvalJs).toFixed(0)}x, ${geo(ratios.exprEvalJs).toFixed(0)}x
- compiled / mathjs: ${min(ratios.mathjs).toFixed(0)}x, ${geo(ratios.mathjs).toFixed(0)}x

Figures from one run on a shared machine; expect a few percent of noise between runs. Very cheap
calculations (SO2_CO2_LIMIT, SCRUBBER_FUEL) are dominated by memory traffic in both compiled and
hand-written form.
`;
const out = process.env.BENCH_OUT ?? join(import.meta.dirname, '..', 'results', 'formula.md');
writeFileSync(out, report);
console.log(`\nwritten ${out}`);
console.log(report.split('Summary')[1]);
