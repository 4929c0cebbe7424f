// How promptly a runaway calculation stops at its time budget: the cases of the formula package's safety and limits
// tests (a quadratic lambda, a series per sample, a nested allocation through runTest), each timed from its start to
// its error, against its budget. The tests check that each stops with the budget's error; how long that took is a
// figure of this machine, so it is here, not an assertion there.
// Run: npx tsx bench/formula/budget.ts   (writes bench/results/formula-budget.md)
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { compile, runTest, type CalculationKind } from '@portal/formula';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const constants = {
  Facility_IMO: '9312345',
  Facility_NumberOfScrubbers: 2,
  Facility_ScrubberSystemType: 'Hybrid',
  Facility_TotalEffectKW: 12000,
};
const loadAtStart = loadavg()
  .map((l) => l.toFixed(1))
  .join(', ');

function compiled(source: string, kind: CalculationKind, inputNames: string[]) {
  const result = compile(source, { kind, inputNames });
  if (!result.ok) throw new Error(`expected to compile: ${JSON.stringify(result.errors)}`);
  return result.program;
}

/** One report-field span holding every sample. */
function oneSpan(n: number) {
  return {
    spanStarts: Float64Array.of(0),
    spanSeconds: 86_400,
    timestamps: Float64Array.from({ length: n }, (_, k) => k * 10),
    inputs: { X: Float64Array.from({ length: n }, (_, k) => k) },
    constants,
  };
}

interface Case {
  name: string;
  /** The budget the case runs with, in ms (what the error names). */
  budgetMs: number;
  /** Runs the case; answers the error text it ended with. */
  run(): string;
}

const quadratic = compiled('return X.Count(v => X.Any(w => w > v * 2));', 'report-field', ['X']);
const selectPerSample = compiled(
  'return X.Select(a => X.Select(b => a + b).Where(c => c > 0).Sum()).Average();',
  'report-field',
  ['X'],
);
const nestedInput = Array.from({ length: 20_000 }, (_, k) => ({
  timestamp: new Date(k * 1000).toISOString(),
  inputValues: { X: k },
}));

const errorOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the budget to stop it');
};

const cases: Case[] = [
  {
    name: 'quadratic lambda, 40,000 samples (safety.test.ts)',
    budgetMs: 50,
    run: () =>
      errorOf(() =>
        quadratic.evaluateSpans({
          spanStarts: Float64Array.of(0),
          spanSeconds: 3600,
          timestamps: Float64Array.from({ length: 40_000 }, (_, k) => k * 10),
          inputs: { X: Float64Array.from({ length: 40_000 }, (_, k) => k) },
          constants,
          budgetMs: 50,
        }),
      ),
  },
  {
    name: 'a Select per sample, 200,000 samples (limits.test.ts)',
    budgetMs: 200,
    run: () => errorOf(() => selectPerSample.evaluateSpans({ ...oneSpan(200_000), budgetMs: 200 })),
  },
  {
    name: 'nested allocation through runTest, 20,000 rows (limits.test.ts)',
    budgetMs: 5000,
    run: () => {
      const result = runTest(
        'return X.Select(a => X.Select(b => X.Select(c => a + b + c).Sum()).Sum()).Sum();',
        { kind: 'report-field', inputNames: ['X'], algorithmSecondsSpan: 86_400 },
        { inputData: nestedInput, constants: {} },
      );
      return result.errors[0]?.message ?? 'no error';
    },
  },
];

const rows: string[] = [];
for (const c of cases) {
  const times: number[] = [];
  let message = '';
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    message = c.run();
    times.push(performance.now() - started);
  }
  if (!/time budget/.test(message)) throw new Error(`${c.name}: ended with "${message}"`);
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const worst = times.at(-1)!;
  rows.push(
    `| ${c.name} | ${c.budgetMs} ms | ${median.toFixed(0)} ms | ${worst.toFixed(0)} ms | ${(worst - c.budgetMs).toFixed(0)} ms |`,
  );
  console.log(
    `${c.name}: median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms (budget ${c.budgetMs} ms)`,
  );
}

const report = `# Formula time budget: how promptly a runaway calculation stops

\`npx tsx bench/formula/budget.ts\`, ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores
(${cpus()[0]?.model ?? 'unknown'}), load ${loadAtStart} at start, ${ROUNDS} runs of each case.

Each case is timed from its start to the budget's error. The tests (packages/formula/src/safety.test.ts,
limits.test.ts) check that each stops with that error; how long it took is this table's.
runTest's budget is DEFAULT_BUDGET_MS (packages/formula/src/index.ts).

| Case | Budget | Median | Worst | Worst past the budget |
| --- | ---: | ---: | ---: | ---: |
${rows.join('\n')}
`;
writeFileSync(join(import.meta.dirname, '../results/formula-budget.md'), report);
