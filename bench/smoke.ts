/**
 * Every bench at its smoke size (`npm run bench:smoke`): the same code paths as the full run in seconds, each run
 * failing on a crash or a wrong result, so that a change that breaks a bench is seen by CI (.ci/run) and not by the
 * next person who measures. The full sizes stay manual, their results in bench/results/*.md.
 *
 * Two benches at a time (the machines here have 2 cores), the longest first; one line per bench with its time, and
 * the end of its log when it failed. Logs in bench/.work/smoke/. The benches that need PostgreSQL get a database of
 * their own beside the one PG_TEST_URL (else DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test) names:
 * `<name>_bench_dashboard` and so on, made when missing and emptied by the bench.
 *
 * Run: npm run bench:smoke [-- --only dashboard,formula]
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const logs = path.join(root, 'bench', '.work', 'smoke');
const PARALLEL = 2;
/** A bench that has not ended after this long has hung (a server or a worker thread left running). */
const TIMEOUT_MS = 5 * 60_000;
const base = process.env.PG_TEST_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Bench {
  name: string;
  /** Scripts under bench/ with their arguments, run one after the other. */
  steps: string[][];
  /** A PostgreSQL database of its own (its name's suffix), passed as DATABASE_URL and as {db} in the arguments. */
  database?: string;
  env?: Record<string, string>;
}

// The longest first, so that two lanes end together.
const BENCHES: Bench[] = [
  { name: 'load', steps: [['load/run.ts', '--smoke']], database: 'load' },
  // The answer cache off: every call computes its answer (the cached path is the API tests').
  {
    name: 'dashboard',
    steps: [['dashboard/run.ts', '--smoke']],
    database: 'dashboard',
    env: { REPORT_DATA_CACHE_ENTRIES: '0' },
  },
  {
    name: 'pipeline',
    steps: [
      ['pipeline/run.ts', '--smoke', '--postgres', '{db}'],
      ['pipeline/events.ts', '--smoke', '--postgres', '{db}'],
    ],
    database: 'pipeline',
  },
  { name: 'events', steps: [['events/run.ts', '--smoke']], database: 'events' },
  { name: 'dashboard/memory', steps: [['dashboard/memory.ts', '--smoke']], database: 'dashboard_memory' },
  { name: 'alerts/fanout', steps: [['alerts/fanout.ts', '--smoke']] },
  { name: 'alerts/latency', steps: [['alerts/latency.ts', '--smoke']] },
  { name: 'live/ingest', steps: [['live/ingest.ts', '--smoke']] },
  { name: 'live/alerts', steps: [['live/alerts.ts', '--smoke']] },
  { name: 'ingest/parse', steps: [['ingest/parse.ts', '--smoke']] },
  { name: 'ingest/pipeline', steps: [['ingest/pipeline.ts', '--smoke']] },
  { name: 'ingest/seed', steps: [['ingest/seed.ts', '--smoke']] },
  { name: 'ingest/zip-memory', steps: [['ingest/zip-memory.ts', '--smoke']] },
  { name: 'ingest/once', steps: [['ingest/once.ts', '--smoke', '--verify']] },
  { name: 'formula', steps: [['formula/run.ts', '--smoke']] },
  { name: 'demo-fleet', steps: [['demo-fleet/run.ts', '--smoke']] },
  { name: 'ports', steps: [['ports/port-at.ts', '--smoke']] },
  { name: 'carbon', steps: [['carbon/run.ts', '--smoke', '--postgres', '{db}']], database: 'carbon' },
  { name: 'partitions', steps: [['partitions/migration.ts', '--smoke']], database: 'partitions' },
  { name: 'rate-limits', steps: [['rate-limits/run.ts', '--smoke']], database: 'rate_limits' },
];

function databaseUrl(suffix: string): string {
  const url = new URL(base);
  const name = `${decodeURIComponent(url.pathname.slice(1)) || 'postgres'}_bench_${suffix}`;
  url.pathname = `/${encodeURIComponent(name)}`;
  return url.toString();
}

/** Makes the benches' databases that are missing (beside the base database, on its server). */
async function createDatabases(benches: Bench[]): Promise<void> {
  const wanted = benches.flatMap((b) => (b.database ? [new URL(databaseUrl(b.database))] : []));
  if (!wanted.length) return;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    for (const url of wanted) {
      const name = decodeURIComponent(url.pathname.slice(1));
      const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (!exists.rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    }
  } finally {
    await client.end();
  }
}

const running = new Set<number>();

/** Runs a bench's steps in turn; its exit code (the first failing step's), its seconds and its log. */
async function run(bench: Bench): Promise<{ code: number; seconds: number; log: string }> {
  const log = path.join(logs, `${bench.name.replace(/\//g, '-')}.log`);
  const out = createWriteStream(log);
  const db = bench.database ? databaseUrl(bench.database) : undefined;
  const env = { ...process.env, BENCH_SMOKE: '1', ...bench.env, ...(db ? { DATABASE_URL: db } : {}) };
  // Without a database of its own a bench runs on the embedded one: no DATABASE_URL of this process reaches it.
  if (!db) delete env.DATABASE_URL;
  const started = performance.now();
  let code = 0;
  for (const [script, ...args] of bench.steps) {
    const argv = [
      '--import',
      'tsx',
      path.join('bench', script!),
      ...args.map((a) => (a === '{db}' ? db! : a)),
    ];
    out.write(`$ node ${argv.join(' ')}\n`);
    // A process group of its own, so that a hung bench is stopped with the servers it started.
    const child = spawn(process.execPath, argv, {
      cwd: root,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child.pid!);
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    const timer = setTimeout(() => {
      out.write(`\n--- no end after ${TIMEOUT_MS / 1000} s: stopped\n`);
      process.kill(-child.pid!, 'SIGKILL');
    }, TIMEOUT_MS);
    code = await new Promise<number>((resolve) =>
      child.on('close', (c, signal) => resolve(c ?? (signal ? 1 : 0))),
    );
    clearTimeout(timer);
    running.delete(child.pid!);
    if (code !== 0) break;
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return { code, seconds: (performance.now() - started) / 1000, log };
}

async function main(): Promise<void> {
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt > 0 ? (process.argv[onlyAt + 1] ?? '').split(',') : [];
  const benches = only.length ? BENCHES.filter((b) => only.includes(b.name)) : BENCHES;
  if (only.length && benches.length !== only.length)
    throw new Error(`Unknown bench in --only; the benches: ${BENCHES.map((b) => b.name).join(', ')}`);
  mkdirSync(logs, { recursive: true });
  await createDatabases(benches);
  const started = performance.now();
  const queue = [...benches];
  const failed: string[] = [];
  const lane = async () => {
    for (let bench = queue.shift(); bench; bench = queue.shift()) {
      const r = await run(bench);
      const line = `${r.code === 0 ? 'ok    ' : 'FAILED'} ${bench.name.padEnd(18)} ${r.seconds.toFixed(1).padStart(6)} s`;
      if (r.code === 0) {
        console.log(line);
        continue;
      }
      failed.push(bench.name);
      const tail = readFileSync(r.log, 'utf8').trimEnd().split('\n').slice(-30).join('\n');
      console.log(`${line} (exit ${r.code}; ${path.relative(root, r.log)}):\n${tail}\n`);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, lane));
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    `bench:smoke: ${benches.length} benches, ${benches.length - failed.length} ok${failed.length ? `, FAILED: ${failed.join(', ')}` : ''} in ${seconds} s`,
  );
  if (failed.length) process.exitCode = 1;
}

const stopAll = () => {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already ended
    }
  }
  process.exit(130);
};
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
