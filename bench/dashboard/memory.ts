/**
 * Memory of an API process under a long dashboard load (issue 34: "memory of an API process flat over a 10-minute
 * load at 1,000 ships"). The fleet of bench/dashboard/run.ts (--ships N, a year of report values with COPY, the
 * events and the CII year sums), then the API server in a process of its own (bench/dashboard/server.ts, started with
 * --expose-gc and BENCH_MEMORY=1) under --users concurrent users for --minutes, each loading in turn the fleet
 * dashboard (year), the ship dashboard (year, a ship of its own), the events list and the fleet CII card, while
 * --arrivals ship-days a second are re-executed (the reports version moves, cached answers go stale). Every
 * --sample-seconds the server's memory is read from GET /bench/memory (process.memoryUsage() after a full
 * collection) and its RSS also from /proc/<pid>/status. Reports start, end, max and the slope (least squares, MB per
 * minute) of the RSS and the heap in use, over every sample after the first minute.
 *
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/<own db> npx tsx bench/dashboard/memory.ts [--reuse]
 *        [--ships 100] [--minutes 10] [--sample-seconds 15] [--users 50] [--arrivals 1] [--out file]
 * --reuse keeps the filled database of a previous run (of this bench or of run.ts): no reset, no fill when the
 * tables have rows; the server still runs this checkout's migrations and signs in (it writes sessions).
 * Results: bench/results/dashboard-memory.md. --smoke: 3 ships, a month, 5 users for 6 s sampled every second; fails
 * on any error or no sample (its table goes to bench/.work/dashboard-memory-smoke.md).
 */
import http from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openDatabase } from '../../apps/api/src/storage/database';
import { seedPlatform } from '../../apps/api/src/seed/platform';
import { resetPostgres, startTestServer } from '../../apps/api/test/harness';
import { refreshDailyRollup } from '../../apps/api/src/storage';
import { fillSyntheticReportValues } from '../shared/synthetic-values';
import { fillSyntheticCiiYears, fillSyntheticEvents } from '../shared/synthetic-events';
import { startBenchServer } from '../shared/bench-server';
import {
  FLEET_REPORTS,
  SHIP_REPORTS,
  SHIP_UPTIME_REPORT,
  SHIP_WASHWATER_REPORTS,
} from '../shared/dashboard-calls';

const here = path.dirname(fileURLToPath(import.meta.url));
const YEAR = { from: '2025-01-01T00:00:00.000Z', to: '2025-12-31T23:59:59.999Z' };
const MONTH = { from: '2025-11-01T00:00:00.000Z', to: '2025-11-30T23:59:59.999Z' };
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const reuse = process.argv.includes('--reuse');
const SHIPS = Number(arg('--ships') ?? (smoke ? 3 : 100));
const MINUTES = Number(arg('--minutes') ?? (smoke ? 0.1 : 10));
const SAMPLE_SECONDS = Number(arg('--sample-seconds') ?? (smoke ? 1 : 15));
const USERS = Number(arg('--users') ?? (smoke ? 5 : 50));
const ARRIVALS = Number(arg('--arrivals') ?? 1);
const FILLED = smoke ? MONTH : YEAR;
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('Set DATABASE_URL to a PostgreSQL database of your own');
for (const [name, value] of Object.entries({ SHIPS, MINUTES, SAMPLE_SECONDS, USERS, ARRIVALS }))
  if (!Number.isFinite(value) || value < 0 || (name !== 'ARRIVALS' && value === 0))
    throw new Error(`${name.toLowerCase()}: not a number this bench takes`);

const MB = 1024 * 1024;

async function main() {
  const database = reuse ? await openDatabase({ databaseUrl, dataDir: 'memory://', poolSize: 4 }) : undefined;
  if (!reuse) await resetPostgres(databaseUrl!);
  const server = await startTestServer(
    database ? { database, jobs: 'none', seed: false } : { jobs: 'none', seed: false },
  );
  const db = server.services.database.db;
  if (!reuse) await seedPlatform(db, { ships: SHIPS });
  const ships = await db.selectFrom('facilities').select(['id', 'name']).orderBy('name').execute();
  const has = async (table: string) =>
    (await sql<{ n: number }>`select exists (select 1 from ${sql.table(table)}) as n`.execute(db)).rows[0]!.n;
  if (!(await has('report_values_daily')))
    await fillSyntheticReportValues(db, ships, FILLED, { hourlyShips: Math.min(3, ships.length) });
  if (!(await has('compliance_events'))) await fillSyntheticEvents(db, ships, FILLED);
  if (!(await has('ledger_years'))) await fillSyntheticCiiYears(db, ships, FILLED);
  const hourlyShips = (
    await db.selectFrom('report_values').select('facility_id').distinct().limit(10).execute()
  ).map((r) => r.facility_id);

  // The server's /bench/memory route (server.ts), and a full collection before each reading.
  process.env.BENCH_MEMORY = '1';
  const api = await startBenchServer({ nodeOptions: ['--expose-gc'] });
  const { address, token, pid } = api;
  const headers = { authorization: `Bearer ${token}` };
  const year = new Date(FILLED.from).getUTCFullYear();
  const calls = [
    {
      name: 'fleet dashboard, year',
      urls: () => [
        `/api/reports/data?${new URLSearchParams({ ...YEAR, reportIds: FLEET_REPORTS.join(',') })}`,
      ],
    },
    {
      name: 'ship dashboard, year',
      urls: (user: number) => [
        `/api/reports/data?${new URLSearchParams({ ...YEAR, facilityId: ships[user % ships.length]!.id, duration: 'daily', reportIds: [...SHIP_REPORTS, SHIP_UPTIME_REPORT, ...SHIP_WASHWATER_REPORTS].join(',') })}`,
      ],
    },
    { name: 'events list', urls: () => [`/api/events?${new URLSearchParams(YEAR)}`] },
    { name: 'fleet CII card', urls: () => [`/api/cii/fleet?year=${year}`] },
  ];

  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const get = (pathAndQuery: string, withHeaders = true) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.get(
        address + pathAndQuery,
        { agent, headers: withHeaders ? headers : {} },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
    });

  interface Sample {
    seconds: number;
    rssMb: number;
    procRssMb: number;
    heapUsedMb: number;
    heapTotalMb: number;
    externalMb: number;
    loads: number;
    p95: number;
    load1: number;
  }
  const samples: Sample[] = [];
  let loadsSince: number[] = [];
  let totalLoads = 0;
  let errors = 0;
  const problems: string[] = [];
  const procRss = () => {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return kb / 1024;
  };
  const percentile = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
  };
  const started = performance.now();
  const sample = async () => {
    const answer = await get('/bench/memory', false);
    if (answer.status !== 200)
      throw new Error(`/bench/memory: ${answer.status} ${answer.body.slice(0, 200)}`);
    const m = JSON.parse(answer.body) as NodeJS.MemoryUsage & { collected: boolean };
    if (!m.collected) throw new Error('The bench server runs without --expose-gc');
    samples.push({
      seconds: (performance.now() - started) / 1000,
      rssMb: m.rss / MB,
      procRssMb: procRss(),
      heapUsedMb: m.heapUsed / MB,
      heapTotalMb: m.heapTotal / MB,
      externalMb: (m.external + m.arrayBuffers) / MB,
      loads: loadsSince.length,
      p95: percentile(loadsSince, 95),
      load1: loadavg()[0]!,
    });
    loadsSince = [];
  };

  // Data arriving: as run.ts, ship-days of the ships with hourly rows rewritten and their roll-ups refreshed.
  let arrived = 0;
  const arrive = async (until: number) => {
    if (ARRIVALS <= 0 || hourlyShips.length === 0) return;
    const every = 1000 / ARRIVALS;
    let next = performance.now();
    while (performance.now() < until) {
      const ship = hourlyShips[arrived % hourlyShips.length]!;
      const day = new Date(FILLED.from).getTime() + (arrived % 28) * 86_400_000;
      await db.transaction().execute(async (trx) => {
        await sql`update report_values set value = value where facility_id = ${ship} and span_start >= ${new Date(day)} and span_start < ${new Date(day + 86_400_000)}`.execute(
          trx,
        );
        await refreshDailyRollup(trx, ship, 'all', new Date(day), new Date(day + 86_400_000 - 1));
      });
      arrived++;
      next += every;
      const wait = next - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };

  const loadStart = loadavg();
  await sample();
  const end = started + MINUTES * 60_000;
  const sampler = (async () => {
    for (let k = 1; performance.now() < end; k++) {
      const wait = started + k * SAMPLE_SECONDS * 1000 - performance.now();
      if (wait > 0)
        await new Promise((resolve) => setTimeout(resolve, Math.min(wait, end - performance.now())));
      if (performance.now() >= end) break;
      await sample();
    }
  })();
  await Promise.all([
    sampler,
    arrive(end),
    ...Array.from({ length: USERS }, async (_, user) => {
      for (let turn = user; performance.now() < end; turn++) {
        const call = calls[turn % calls.length]!;
        const t0 = performance.now();
        const answers = await Promise.all(call.urls(user).map((u) => get(u)));
        for (const a of answers)
          if (a.status !== 200) {
            errors++;
            if (problems.length < 5) problems.push(`${call.name}: ${a.status} ${a.body.slice(0, 200)}`);
          }
        loadsSince.push(performance.now() - t0);
        totalLoads++;
      }
    }),
  ]);
  await sample();
  agent.destroy();
  await api.stop();
  await server.close();
  if (database) await database.close();

  // The slope over the samples after the first minute (the caches and pools fill in it), least squares.
  const steady = samples.filter((s) => s.seconds >= Math.min(60, (MINUTES * 60) / 3));
  // And over the second half alone: a cache that fills in the first minutes is not a leak.
  const secondHalf = samples.filter((s) => s.seconds >= (samples.at(-1)?.seconds ?? 0) / 2);
  const slope = (pick: (s: Sample) => number, over = steady) => {
    const xs = over.map((s) => s.seconds / 60);
    const ys = over.map(pick);
    const n = xs.length;
    if (n < 2) return NaN;
    const mx = xs.reduce((a, b) => a + b, 0) / n;
    const my = ys.reduce((a, b) => a + b, 0) / n;
    const num = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0);
    const den = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
    return num / den;
  };
  const f = (v: number, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : '-');
  const lines: string[] = [];
  const out = (line = '') => {
    console.log(line);
    lines.push(line);
  };
  const first = samples[0]!;
  const last = samples.at(-1)!;
  const max = (pick: (s: Sample) => number) => Math.max(...samples.map(pick));
  out(
    `# Memory of an API process under the dashboard load${smoke ? ' (smoke run: figures not worth reading)' : ''}`,
  );
  out();
  out(
    `${ships.length} ships, ${smoke ? 'a month' : 'a year (2025)'} of report values (COPY; the hourly rows of ${hourlyShips.length} ships), their events and CII year sums; ${USERS} users for ${MINUTES} min, each loading in turn ${calls.map((c) => c.name).join(', ')} (the answer cache ${process.env.REPORT_DATA_CACHE_ENTRIES === '0' ? 'off' : 'on'}); ${ARRIVALS} ship-days re-executed a second (${arrived} in all). Server: bench/dashboard/server.ts in a process of its own with --expose-gc; memory read every ${SAMPLE_SECONDS} s after a full collection. ${cpus().length} × ${cpus()[0]?.model.trim()}, PostgreSQL on localhost; load average at the start ${loadStart.map((l) => l.toFixed(2)).join(' / ')}, at the end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' / ',
      )}. \`npx tsx bench/dashboard/memory.ts ${process.argv.slice(2).join(' ')}\`, ${new Date().toISOString().slice(0, 16)}Z.`,
  );
  out();
  out(`${totalLoads.toLocaleString('en-US')} loads, ${errors} errors.`);
  out();
  out('| | RSS MB | heap used MB | heap total MB | external + array buffers MB |');
  out('|---|---|---|---|---|');
  out(
    `| start (before the load) | ${f(first.rssMb)} | ${f(first.heapUsedMb)} | ${f(first.heapTotalMb)} | ${f(first.externalMb)} |`,
  );
  out(`| end | ${f(last.rssMb)} | ${f(last.heapUsedMb)} | ${f(last.heapTotalMb)} | ${f(last.externalMb)} |`);
  out(
    `| max | ${f(max((s) => s.rssMb))} | ${f(max((s) => s.heapUsedMb))} | ${f(max((s) => s.heapTotalMb))} | ${f(max((s) => s.externalMb))} |`,
  );
  out(
    `| slope after ${f(steady[0]?.seconds ?? NaN, 0)} s, MB/min (${steady.length} samples) | ${f(
      slope((s) => s.rssMb),
      2,
    )} | ${f(
      slope((s) => s.heapUsedMb),
      2,
    )} | ${f(
      slope((s) => s.heapTotalMb),
      2,
    )} | ${f(
      slope((s) => s.externalMb),
      2,
    )} |`,
  );
  out(
    `| slope over the second half, MB/min (${secondHalf.length} samples) | ${f(
      slope((s) => s.rssMb, secondHalf),
      2,
    )} | ${f(
      slope((s) => s.heapUsedMb, secondHalf),
      2,
    )} | ${f(
      slope((s) => s.heapTotalMb, secondHalf),
      2,
    )} | ${f(
      slope((s) => s.externalMb, secondHalf),
      2,
    )} |`,
  );
  out();
  out(
    '| s | RSS MB | RSS (/proc) MB | heap used MB | external MB | loads since | their p95 ms | load average (1 min) |',
  );
  out('|---|---|---|---|---|---|---|---|');
  for (const s of samples)
    out(
      `| ${f(s.seconds, 0)} | ${f(s.rssMb)} | ${f(s.procRssMb)} | ${f(s.heapUsedMb)} | ${f(s.externalMb)} | ${s.loads} | ${f(s.p95)} | ${f(s.load1, 2)} |`,
    );
  const file =
    arg('--out') ??
    path.join(
      here,
      '..',
      ...(smoke ? ['.work', 'dashboard-memory-smoke.md'] : ['results', 'dashboard-memory.md']),
    );
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, lines.join('\n') + '\n');
  if (errors) problems.unshift(`${errors} calls answered with an error`);
  if (samples.length < 2) problems.push('fewer than two memory samples');
  if (totalLoads === 0) problems.push('no load made');
  if (problems.length) throw new Error(`FAILED:\n${problems.join('\n')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
