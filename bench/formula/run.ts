// Benchmark of the calculation language: every default derived measurement calculation over one year of 1-minute
// samples, compiled by @portal/formula, against the same logic hand-written as a plain TypeScript loop (the
// ceiling) and against expr-eval and mathjs (reference libraries). The compiled result must equal the
// hand-written one (the run fails otherwise), so a change of a default calculation without its anchor here, or a
// compiler bug, stops the bench.
//
// Run: npx tsx bench/formula/run.ts            (the year; writes its table to bench/.work/formula.md)
//      npx tsx bench/formula/run.ts --smoke    (two weeks of minutes, seconds: the same code paths and checks,
//                                               no figures worth reading; also BENCH_SMOKE=1)
// bench/results/formula.md records the runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { Parser } from 'expr-eval';
import { create, all } from 'mathjs';
import { compile, DEFAULT_MEASUREMENT_FIELDS, isRawField } from '@portal/formula';

const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
/** A year of minutes; two weeks in the smoke run. */
const ROWS = smoke ? 20_160 : 525_600;
// The reference libraries are 100x slower; they run over a tenth of the rows.
const REFERENCE_ROWS = Math.round(ROWS / 10);
// Rounds of each calculation; a round times the compiled and the hand-written run side by side (the order
// alternating), each sample being REPEATS runs in a row. The medians count.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (smoke ? 2 : 31));
const REPEATS = smoke ? 1 : 4;
const WINDOW_MS = 900_000;
/** BENCH_ONLY=NAME,NAME: time only these calculations (every one is still computed and checked). */
const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const loadAtStart = loadavg()
  .map((l) => l.toFixed(2))
  .join(', ');
const constants = {
  Facility_IMO: '9312345',
  Facility_NumberOfScrubbers: 1,
  Facility_ScrubberSystemType: 'Hybrid',
  Facility_TotalEffectKW: 12000,
};

// ---- a year of a ship's channels, with gaps
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const start = Date.UTC(2024, 0, 1);
const timestamps = Float64Array.from({ length: ROWS }, (_, i) => start + i * 60_000);
const dayGap = Math.floor(ROWS * 0.38);
/** A channel with about `gaps` of its rows null, and one day without data. */
const column = (f: (i: number) => number, gaps = 0.01) =>
  Float64Array.from({ length: ROWS }, (_, i) =>
    random() < gaps || (i >= dayGap && i < dayGap + 1_440) ? NaN : f(i),
  );
const inEca = Uint8Array.from({ length: ROWS }, (_, i) => (Math.floor(i / 10_000) % 4 === 0 ? 1 : 0));
// Inside a no-discharge zone a fifth of the time; a position now and then that no zone can be told for (255).
const inNoDischargeZone = Uint8Array.from({ length: ROWS }, (_, i) =>
  i % 3_000 < 30 ? 255 : Math.floor(i / 3_000) % 5 === 0 ? 1 : 0,
);
const raw: Record<string, Float64Array> = {
  FUEL_FLOW: column((i) => (i % 2000 < 300 ? 20 : 800 + 400 * random())),
  FUEL_SULFUR: column(() => 2.5 + 0.5 * random()),
  SO2_PPM: column(() => 5 + 60 * random()),
  CO2_PCT: column(() => 0.3 + 5 * random()),
  SCRUBBER_RUNNING: column((i) => (i % 50_000 < 2_000 ? 0 : 1)),
  SCRUBBER_POWER: column(() => 100 + 100 * random()),
  // Washwater: open loop (1) most of the time, closed loop (0) in stretches; manoeuvring (load under 25 %) and a
  // stopped engine now and then; inlet values missing more often than the discharge's.
  SCRUBBER_MODE: column((i) => (i % 7_000 < 2_000 ? 0 : 1)),
  WASHWATER_FLOW: column((i) => (i % 2000 < 100 ? 0 : 300 + 300 * random())),
  ENGINE_LOAD: column((i) => (i % 2000 < 300 ? 5 + 15 * random() : i % 2000 < 320 ? 0 : 40 + 50 * random())),
  WASHWATER_PH: column(() => 5.5 + 2 * random()),
  WASHWATER_PH_INLET: column(() => 7.8 + 0.4 * random(), 0.05),
  WASHWATER_PAH: column(() => 5 + 40 * random()),
  WASHWATER_PAH_INLET: column(() => 1 + 3 * random(), 0.1),
  WASHWATER_TURBIDITY: column(() => 2 + 30 * random()),
  WASHWATER_TURBIDITY_INLET: column(() => 1 + 5 * random(), 0.1),
};

const derived = DEFAULT_MEASUREMENT_FIELDS.filter((f) => !isRawField(f));

// ---- the same logic, hand-written (NaN = null, as in the compiled runs)
type Columns = Record<string, Float64Array>;
interface Rows {
  ts: Float64Array;
  eca: Uint8Array;
  noDischarge: Uint8Array;
  kw: number;
}
/** A column by name; checked once a call, outside the loops. */
function need(c: Columns, name: string): Float64Array {
  const column = c[name];
  if (!column) throw new Error(`No column ${name}`);
  return column;
}
// Every column and every output has ROWS entries, so the reads in the loops below are in range.
const hand: Record<string, (c: Columns, rows: Rows, out: Float64Array) => void> = {
  SO2_CO2_RATIO(c, _r, out) {
    const run = need(c, 'SCRUBBER_RUNNING'),
      so2 = need(c, 'SO2_PPM'),
      co2 = need(c, 'CO2_PCT');
    for (let i = 0; i < out.length; i++) out[i] = run[i] && co2[i]! >= 0.5 ? so2[i]! / co2[i]! : NaN;
  },
  SO2_CO2_LIMIT(_c, { eca }, out) {
    for (let i = 0; i < out.length; i++) out[i] = eca[i] === 1 ? 4.3 : 21.7;
  },
  SCRUBBER_REQUIRED(c, { eca }, out) {
    const flow = need(c, 'FUEL_FLOW'),
      s = need(c, 'FUEL_SULFUR');
    for (let i = 0; i < out.length; i++) out[i] = flow[i]! > 50 && s[i]! > (eca[i] === 1 ? 0.1 : 0.5) ? 1 : 0;
  },
  COMPLIANT(c, _r, out) {
    const req = need(c, 'SCRUBBER_REQUIRED'),
      run = need(c, 'SCRUBBER_RUNNING'),
      ratio = need(c, 'SO2_CO2_RATIO'),
      limit = need(c, 'SO2_CO2_LIMIT');
    for (let i = 0; i < out.length; i++) out[i] = req[i] ? (run[i] && ratio[i]! <= limit[i]! ? 1 : 0) : NaN;
  },
  RATIO_MARGIN(c, _r, out) {
    const ratio = need(c, 'SO2_CO2_RATIO'),
      limit = need(c, 'SO2_CO2_LIMIT');
    for (let i = 0; i < out.length; i++) out[i] = ((limit[i]! - ratio[i]!) / limit[i]!) * 100;
  },
  SCRUBBER_FUEL(c, _r, out) {
    const p = need(c, 'SCRUBBER_POWER');
    for (let i = 0; i < out.length; i++) out[i] = (p[i]! * 200) / 1000;
  },
  EXCESS_SULFUR_REMOVED(c, { eca }, out) {
    const flow = need(c, 'FUEL_FLOW'),
      ratio = need(c, 'SO2_CO2_RATIO');
    for (let i = 0; i < out.length; i++) {
      const r = ratio[i]!;
      out[i] = r !== r ? 0 : (flow[i]! * Math.max(0, (eca[i] === 1 ? 0.1 : 0.5) - r / 43.3)) / 100;
    }
  },
  CO2_SAVED(c, { kw }, out) {
    const run = need(c, 'SCRUBBER_RUNNING'),
      p = need(c, 'SCRUBBER_POWER');
    for (let i = 0; i < out.length; i++) out[i] = run[i] ? (((0.015 * kw - p[i]!) * 200) / 1e6) * 3.114 : 0;
  },
  WASHWATER_DISCHARGING(c, _r, out) {
    const mode = need(c, 'SCRUBBER_MODE'),
      flow = need(c, 'WASHWATER_FLOW');
    for (let i = 0; i < out.length; i++) out[i] = mode[i] === 1 && flow[i]! > 0 ? 1 : 0;
  },
  WASHWATER_PH_LIMIT(c, _r, out) {
    const d = need(c, 'WASHWATER_DISCHARGING'),
      load = need(c, 'ENGINE_LOAD'),
      inlet = need(c, 'WASHWATER_PH_INLET');
    for (let i = 0; i < out.length; i++) {
      if (d[i] !== 1) {
        out[i] = NaN;
        continue;
      }
      const l = load[i]!,
        pH = inlet[i]!;
      out[i] = l > 0 && l < 25 && pH === pH ? pH - 2 : 6.5;
    }
  },
  WASHWATER_PH_DISCHARGING(c, _r, out) {
    const d = need(c, 'WASHWATER_DISCHARGING'),
      pH = need(c, 'WASHWATER_PH');
    for (let i = 0; i < out.length; i++) out[i] = d[i] === 1 ? pH[i]! : NaN;
  },
  WASHWATER_PH_COMPLIANT(c, _r, out) {
    const limit = need(c, 'WASHWATER_PH_LIMIT'),
      pH = need(c, 'WASHWATER_PH');
    for (let i = 0; i < out.length; i++) {
      const l = limit[i]!,
        v = pH[i]!;
      out[i] = l !== l || v !== v ? NaN : v >= l ? 1 : 0;
    }
  },
  WASHWATER_PAH_ABOVE_INLET(c, _r, out) {
    const d = need(c, 'WASHWATER_DISCHARGING'),
      pah = need(c, 'WASHWATER_PAH'),
      inlet = need(c, 'WASHWATER_PAH_INLET');
    for (let i = 0; i < out.length; i++) {
      const v = inlet[i]!;
      out[i] = d[i] !== 1 ? NaN : pah[i]! - (v === v ? v : 0);
    }
  },
  WASHWATER_PAH_LIMIT(c, { kw }, out) {
    const d = need(c, 'WASHWATER_DISCHARGING'),
      flow = need(c, 'WASHWATER_FLOW'),
      load = need(c, 'ENGINE_LOAD');
    for (let i = 0; i < out.length; i++) {
      const powerMW = ((load[i]! / 100) * kw) / 1000;
      out[i] = d[i] !== 1 || !(powerMW > 0) ? NaN : 2250 / (flow[i]! / powerMW);
    }
  },
  WASHWATER_TURBIDITY_ABOVE_INLET(c, { ts }, out) {
    const d = need(c, 'WASHWATER_DISCHARGING'),
      turbidity = need(c, 'WASHWATER_TURBIDITY'),
      inlet = need(c, 'WASHWATER_TURBIDITY_INLET');
    const n = out.length;
    const above = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = inlet[i]!;
      above[i] = turbidity[i]! - (v === v ? v : 0);
    }
    // The mean of the non-null rows in (t - 15 min, t], summed afresh per row (as the language defines it).
    let first = 0;
    for (let i = 0; i < n; i++) {
      if (d[i] !== 1) {
        out[i] = NaN;
        continue;
      }
      const from = ts[i]! - WINDOW_MS;
      while (ts[first]! <= from) first++;
      let sum = 0,
        count = 0;
      for (let k = first; k <= i; k++) {
        const v = above[k]!;
        if (v === v) {
          sum += v;
          count++;
        }
      }
      out[i] = count === 0 ? NaN : sum / count;
    }
  },
  WASHWATER_TURBIDITY_LIMIT(c, _r, out) {
    const d = need(c, 'WASHWATER_DISCHARGING');
    for (let i = 0; i < out.length; i++) out[i] = d[i] === 1 ? 25 : NaN;
  },
  WASHWATER_COMPLIANT(c, _r, out) {
    const d = need(c, 'WASHWATER_DISCHARGING'),
      pHCompliant = need(c, 'WASHWATER_PH_COMPLIANT'),
      pahAbove = need(c, 'WASHWATER_PAH_ABOVE_INLET'),
      pahLimit = need(c, 'WASHWATER_PAH_LIMIT'),
      turbidityAbove = need(c, 'WASHWATER_TURBIDITY_ABOVE_INLET'),
      turbidityLimit = need(c, 'WASHWATER_TURBIDITY_LIMIT');
    for (let i = 0; i < out.length; i++) {
      if (d[i] !== 1) {
        out[i] = NaN;
        continue;
      }
      const above = pahAbove[i]!,
        limit = pahLimit[i]!;
      const pahMet = above === above && (limit !== limit || above <= limit);
      out[i] = pHCompliant[i] === 1 && pahMet && turbidityAbove[i]! <= turbidityLimit[i]! ? 1 : 0;
    }
  },
  OPEN_LOOP_IN_NO_DISCHARGE_ZONE(c, { noDischarge }, out) {
    const d = need(c, 'WASHWATER_DISCHARGING');
    for (let i = 0; i < out.length; i++) {
      const z = noDischarge[i]!;
      // A position no zone can be told for (z > 1) leaves an open-loop row unknown.
      out[i] = d[i] !== 1 || z === 0 ? 0 : z === 1 ? 1 : NaN;
    }
  },
};

// ---- the same logic as expr-eval / mathjs expressions (ECA, NDZ and KW as variables, NULL = NaN); the rolling
// window of WASHWATER_TURBIDITY_ABOVE_INLET has no form there.
const expressions: Record<string, string | null> = {
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
  WASHWATER_DISCHARGING: 'SCRUBBER_MODE == 1 and WASHWATER_FLOW > 0 ? 1 : 0',
  WASHWATER_PH_LIMIT:
    'WASHWATER_DISCHARGING != 1 ? NULL : (ENGINE_LOAD > 0 and ENGINE_LOAD < 25 and WASHWATER_PH_INLET == WASHWATER_PH_INLET ? WASHWATER_PH_INLET - 2 : 6.5)',
  WASHWATER_PH_DISCHARGING: 'WASHWATER_DISCHARGING == 1 ? WASHWATER_PH : NULL',
  WASHWATER_PH_COMPLIANT:
    'WASHWATER_PH_LIMIT != WASHWATER_PH_LIMIT or WASHWATER_PH != WASHWATER_PH ? NULL : (WASHWATER_PH >= WASHWATER_PH_LIMIT ? 1 : 0)',
  WASHWATER_PAH_ABOVE_INLET:
    'WASHWATER_DISCHARGING != 1 ? NULL : WASHWATER_PAH - (WASHWATER_PAH_INLET == WASHWATER_PAH_INLET ? WASHWATER_PAH_INLET : 0)',
  WASHWATER_PAH_LIMIT:
    'WASHWATER_DISCHARGING != 1 or not (ENGINE_LOAD / 100 * KW / 1000 > 0) ? NULL : 50 * 45 / (WASHWATER_FLOW / (ENGINE_LOAD / 100 * KW / 1000))',
  WASHWATER_TURBIDITY_ABOVE_INLET: null,
  WASHWATER_TURBIDITY_LIMIT: 'WASHWATER_DISCHARGING == 1 ? 25 : NULL',
  WASHWATER_COMPLIANT:
    'WASHWATER_DISCHARGING != 1 ? NULL : (WASHWATER_PH_COMPLIANT == 1 and WASHWATER_PAH_ABOVE_INLET == WASHWATER_PAH_ABOVE_INLET and (WASHWATER_PAH_LIMIT != WASHWATER_PAH_LIMIT or WASHWATER_PAH_ABOVE_INLET <= WASHWATER_PAH_LIMIT) and WASHWATER_TURBIDITY_ABOVE_INLET <= WASHWATER_TURBIDITY_LIMIT ? 1 : 0)',
  OPEN_LOOP_IN_NO_DISCHARGE_ZONE: 'WASHWATER_DISCHARGING != 1 or NDZ == 0 ? 0 : (NDZ == 1 ? 1 : NULL)',
};

// CPU time of this process (user + system), not the wall clock: on a shared machine the wall clock also counts
// the time other processes had the core. BENCH_CLOCK=wall measures wall time instead.
const cpuClock = process.env.BENCH_CLOCK !== 'wall';
const now = () => {
  if (!cpuClock) return performance.now();
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Milliseconds of `runs` calls of f in a row. */
function time(runs: number, f: () => void): number {
  const t = now();
  for (let k = 0; k < runs; k++) f();
  return now() - t;
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The first row where the two columns differ (NaN equals NaN), or -1. */
const firstDifference = (a: Float64Array, b: Float64Array) =>
  a.length !== b.length
    ? 0
    : a.findIndex((v, i) => !(Object.is(v, b[i]) || Math.abs(v - b[i]!) <= 1e-12 * Math.max(1, Math.abs(v))));

const rowsInfo: Rows = {
  ts: timestamps,
  eca: inEca,
  noDischarge: inNoDischargeZone,
  kw: constants.Facility_TotalEffectKW,
};
const columns: Columns = { ...raw };
const parser = new Parser();
// mathjs declares its factory bundles as entries of a record, so the type allows undefined.
if (!all) throw new Error('mathjs exports no factory bundle "all"');
const math = create(all);
const rows: string[] = [];
const failures: string[] = [];
const ratios = {
  hand: [] as number[],
  best: [] as number[],
  exprEval: [] as number[],
  exprEvalJs: [] as number[],
  mathjs: [] as number[],
};
const missing = derived.filter((f) => !hand[f.name] || !(f.name in expressions)).map((f) => f.name);
if (missing.length)
  throw new Error(
    `No hand-written or reference form of ${missing.join(', ')}: add them to bench/formula/run.ts`,
  );
const began = performance.now();

for (const field of derived) {
  const result = compile(field.transformAlgorithm, {
    kind: 'measurement-field',
    inputNames: field.inputNames,
    outputType: field.dataType,
  });
  if (!result.ok) throw new Error(`${field.name}: ${JSON.stringify(result.errors)}`);
  const calc = result.program;
  const inputs = Object.fromEntries(calc.inputNames.map((n) => [n, need(columns, n)]));
  const handRun = hand[field.name]!;
  const expression = expressions[field.name] ?? null;
  const compiledRun = () =>
    calc.evaluateTimestamps({
      timestamps,
      inputs,
      isEcaZone: inEca,
      isNoDischargeZone: inNoDischargeZone,
      constants,
    });
  // Like evaluateTimestamps, the hand-written run allocates its output column.
  const handRunOnce = () => {
    const out = new Float64Array(ROWS);
    handRun(columns, rowsInfo, out);
    return out;
  };
  const compiled = compiledRun();
  const handOut = handRunOnce();
  const at = firstDifference(compiled, handOut);
  if (at >= 0) {
    failures.push(
      `${field.name}: compiled and hand-written results differ at row ${at}: ${compiled[at]} vs ${handOut[at]}`,
    );
    console.error(failures.at(-1));
    continue;
  }
  const nonNull = compiled.reduce((n, v) => (v === v ? n + 1 : n), 0);
  if (nonNull === 0) {
    failures.push(`${field.name}: every row is null (the bench's data do not exercise it)`);
    console.error(failures.at(-1));
  }
  columns[field.name] = compiled;
  if (only.length && !only.includes(field.name)) continue;

  // Side by side: each round times both, the order alternating; the ratio of a round is hand / compiled time.
  const compiledMs: number[] = [];
  const handMs: number[] = [];
  const roundRatios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let c: number, h: number;
    if (round % 2 === 0) {
      c = time(REPEATS, compiledRun);
      h = time(REPEATS, handRunOnce);
    } else {
      h = time(REPEATS, handRunOnce);
      c = time(REPEATS, compiledRun);
    }
    compiledMs.push(c / REPEATS);
    handMs.push(h / REPEATS);
    roundRatios.push(h / c);
  }

  const rate = (ms: number, n: number) => (n / ms) * 1000;
  const r = {
    compiled: rate(median(compiledMs), ROWS),
    hand: rate(median(handMs), ROWS),
    ratio: median(roundRatios),
    lowest: Math.min(...roundRatios),
    /** The fastest run of each, as a bench on a quiet machine would see them. */
    best: Math.min(...handMs) / Math.min(...compiledMs),
  };
  ratios.hand.push(r.ratio);
  ratios.best.push(r.best);
  const m = (x: number) => `${(x / 1e6).toFixed(1)} M`;
  const k = (x: number) => `${(x / 1e3).toFixed(0)} k`;
  const share = `${((100 * nonNull) / ROWS).toFixed(0)} %`;
  let references = '| – | – | – | – | – | – |';
  if (expression !== null) {
    const names = [...new Set([...field.inputNames, 'ECA', 'NDZ', 'KW', 'NULL'])];
    const scope: Record<string, number> = { KW: constants.Facility_TotalEffectKW, NULL: NaN };
    const exprEval = parser.parse(expression);
    const exprEvalJs = exprEval.toJSFunction(names.join(','));
    const mathjs = math.compile(expression);
    const refOut = new Float64Array(REFERENCE_ROWS);
    const refInputs = field.inputNames.map((n) => need(columns, n));
    // i < REFERENCE_ROWS < ROWS.
    const fill = (i: number) => {
      for (const [j, n] of field.inputNames.entries()) scope[n] = refInputs[j]![i]!;
      scope.ECA = inEca[i]!;
      scope.NDZ = inNoDischargeZone[i]!;
    };
    const referenceRuns = smoke ? 1 : 3;
    const exprEvalMs = Math.min(
      ...Array.from({ length: referenceRuns }, () =>
        time(1, () => {
          for (let i = 0; i < REFERENCE_ROWS; i++) {
            fill(i);
            refOut[i] = exprEval.evaluate(scope);
          }
        }),
      ),
    );
    const args = new Array(names.length);
    const exprEvalJsMs = Math.min(
      ...Array.from({ length: referenceRuns }, () =>
        time(1, () => {
          for (let i = 0; i < REFERENCE_ROWS; i++) {
            fill(i);
            for (let k = 0; k < names.length; k++) args[k] = scope[names[k]!];
            refOut[i] = exprEvalJs(...args);
          }
        }),
      ),
    );
    const mathjsMs = Math.min(
      ...Array.from({ length: referenceRuns }, () =>
        time(1, () => {
          for (let i = 0; i < REFERENCE_ROWS; i++) {
            fill(i);
            refOut[i] = Number(mathjs.evaluate(scope));
          }
        }),
      ),
    );
    const ref = {
      exprEval: rate(exprEvalMs, REFERENCE_ROWS),
      exprEvalJs: rate(exprEvalJsMs, REFERENCE_ROWS),
      mathjs: rate(mathjsMs, REFERENCE_ROWS),
    };
    ratios.exprEval.push(r.compiled / ref.exprEval);
    ratios.exprEvalJs.push(r.compiled / ref.exprEvalJs);
    ratios.mathjs.push(r.compiled / ref.mathjs);
    references = `| ${k(ref.exprEval)} | ${(r.compiled / ref.exprEval).toFixed(0)}x | ${k(ref.exprEvalJs)} | ${(r.compiled / ref.exprEvalJs).toFixed(0)}x | ${k(ref.mathjs)} | ${(r.compiled / ref.mathjs).toFixed(0)}x |`;
  }
  rows.push(
    `| ${field.name} | ${share} | ${m(r.compiled)} | ${m(r.hand)} | **${r.ratio.toFixed(2)}** | ${r.lowest.toFixed(2)} | ${r.best.toFixed(2)} ${references}`,
  );
  console.log(rows[rows.length - 1]);
}

const min = (xs: number[]) => Math.min(...xs);
const geo = (xs: number[]) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
const goalHand = min(ratios.hand) >= 0.85;
const goalExprEval = min(ratios.exprEval) >= 50;
const loadAtEnd = loadavg()
  .map((l) => l.toFixed(2))
  .join(', ');

const report = `# Calculation language benchmark${smoke ? ' (smoke run: figures not worth reading)' : ''}

Each default derived measurement calculation (DOMAIN.md) evaluated over ${smoke ? 'two weeks' : 'one year'} of 1-minute
samples (${ROWS.toLocaleString('en')} rows, inputs as Float64Arrays with about 1 % NaN gaps, more at the washwater
inlets, and a one-day gap). Rows per second of ${cpuClock ? 'CPU time (this process, user + system)' : 'wall time'}: the compiled and the
hand-written run of a calculation are timed side by side in ${ROUNDS} rounds (the order alternating, ${REPEATS} runs
a sample); the table gives the medians, the median and lowest of the rounds' ratios, and the ratio of the fastest
runs. The reference libraries:
best of ${smoke ? 1 : 3} over the first ${REFERENCE_ROWS.toLocaleString('en')} rows. The compiled results are checked equal to the
hand-written ones (the run fails otherwise).

- compiled: \`compile(...).evaluateTimestamps(...)\` of @portal/formula, time budget checks included
- hand-written: the same logic as a plain TypeScript loop over the columns (the ceiling)
- expr-eval 2.0.2: \`Parser.parse(expr).evaluate(scope)\`, and its \`toJSFunction\` (expr-eval's own compiled form)
- mathjs 15.2.0: \`math.compile(expr).evaluate(scope)\`

Machine: ${cpus()[0]?.model ?? 'unknown'}, ${availableParallelism()} cores (nproc), ${(totalmem() / 2 ** 30).toFixed(0)} GB, ${platform()} ${release()}, Node ${process.version}
Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${((performance.now() - began) / 1000).toFixed(0)} s
Command: \`npx tsx bench/formula/run.ts${smoke ? ' --smoke' : ''}\`${cpuClock ? '' : ' with BENCH_CLOCK=wall'}
Load average (1, 5, 15 min) at the start: ${loadAtStart}; at the end: ${loadAtEnd}

| calculation | rows with a value | compiled rows/s | hand-written rows/s | compiled / hand (median) | lowest round | fastest / fastest | expr-eval rows/s | compiled / expr-eval | expr-eval toJSFunction rows/s | compiled / toJSFunction | mathjs rows/s | compiled / mathjs |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Summary (lowest, geometric mean over the ${ratios.hand.length} calculations):
- compiled / hand-written, median of the rounds: ${min(ratios.hand).toFixed(2)}, ${geo(ratios.hand).toFixed(2)} (goal >= 0.85 on every calculation: ${goalHand ? 'met' : 'NOT met'})
- compiled / hand-written, fastest run of each: ${min(ratios.best).toFixed(2)}, ${geo(ratios.best).toFixed(2)}
- compiled / expr-eval evaluate: ${min(ratios.exprEval).toFixed(0)}x, ${geo(ratios.exprEval).toFixed(0)}x (goal >= 50x: ${goalExprEval ? 'met' : 'NOT met'})
- compiled / expr-eval toJSFunction: ${min(ratios.exprEvalJs).toFixed(0)}x, ${geo(ratios.exprEvalJs).toFixed(0)}x
- compiled / mathjs: ${min(ratios.mathjs).toFixed(0)}x, ${geo(ratios.mathjs).toFixed(0)}x
${failures.length ? `\nFAILED:\n${failures.map((f) => `- ${f}`).join('\n')}\n` : ''}`;
const out =
  process.env.BENCH_OUT ??
  join(import.meta.dirname, '..', '.work', smoke ? 'formula-smoke.md' : 'formula.md');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, report);
console.log(`\nwritten ${out}`);
console.log(report.split('Summary')[1]);
if (failures.length) {
  console.error(`FAILED: ${failures.length} of ${derived.length} calculations`);
  process.exit(1);
}
