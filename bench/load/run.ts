/**
 * Load and soak of a PostgreSQL-backed portal (issue 9, point 4).
 *
 * The fleet: 100 demo ships with a year (2025) of hourly report values inserted directly (as bench/dashboard does,
 * the same deterministic values), plus 10 of them with a week of real logger files (imported through the upload
 * service) and the default calculations, so an execution has work to do. The portal runs as two processes, as in
 * production (docs/operations.md): an API process (`--services=web`) and a worker (`--services=worker`).
 * 50 users (autocannon connections), each request a random call of a fleet or ship dashboard page (its report
 * data calls, the ship list and the active messages), as one of five demo users signed in through the real OIDC
 * flow. While the load runs, executions for the 10 ships are requested through the API and timed.
 * The soak then keeps a fixed rate for 10 minutes and samples p95, the API process's RSS and the database's
 * connections every 30 s.
 *
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/portal_load npx tsx bench/load/run.ts [--reuse] [--ships 100] [--seconds 60] [--soak-minutes 10] [--port 18450]
 * --reuse keeps the filled database of a previous run. Results: bench/results/load.md.
 * --smoke: 3 ships with a month of values, one of them with a day of logger files, 5 users for 3 s, one soak window
 * of 3 s; the same processes and calls, and the run fails on any error, timeout or failed execution (its table
 * goes to bench/.work/load-smoke.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
// kysely is a dependency of apps/api only (bench/package.json stays as it is).
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../../apps/api/src/storage/database';
import type { Database } from '../../apps/api/src/db/schema';
import { DEMO_USERS, seedPlatform } from '../../apps/api/src/seed/platform';
import { prepareShips } from '../../apps/api/test/execution-fixtures';
import { resetPostgres, startTestServer } from '../../apps/api/test/harness';
import {
  call,
  killAll,
  rssMegabytes,
  signInOverHttp,
  spawnServer,
  waitUntilServing,
} from '../../apps/api/test/processes';
import { fillSyntheticReportValues } from '../shared/synthetic-values';
import {
  FLEET_REPORTS,
  SHIP_REPORTS,
  SHIP_UPTIME_REPORT,
  SHIP_WASHWATER_REPORTS,
} from '../shared/dashboard-calls';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const SHIPS = Number(arg('--ships') ?? (smoke ? 3 : 100));
const EXECUTED_SHIPS = smoke ? 1 : 10;
const EXECUTION_DAYS = smoke ? 1 : 7;
const EXECUTION_UNTIL = new Date('2026-01-01T00:00:00.000Z');
const YEAR = { from: '2025-01-01T00:00:00.000Z', to: '2025-12-31T23:59:59.999Z' };
const MONTH = { from: '2025-11-01T00:00:00.000Z', to: '2025-11-30T23:59:59.999Z' };
const USERS = smoke ? 5 : 50;
const SIGNED_IN = ['admin', 'north.admin', 'north.anna', 'south.admin', 'south.maria'];
const reuse = process.argv.includes('--reuse');
const seconds = Number(arg('--seconds') ?? (smoke ? 3 : 60));
const soakMinutes = Number(arg('--soak-minutes') ?? (smoke ? 0.05 : 10));
/** A soak window: 30 s; 3 s in the smoke run. */
const WINDOW_SECONDS = smoke ? 3 : 30;
const WARM_UP_SECONDS = smoke ? 1 : 5;
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('Set DATABASE_URL to a PostgreSQL database of your own');
if (!Number.isInteger(SHIPS) || SHIPS < EXECUTED_SHIPS)
  throw new Error(`--ships takes a whole number of ships, at least ${EXECUTED_SHIPS}`);

/** A port nobody listens on now (the smoke run's default: runs beside others must not meet on one port). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function fillFleet(): Promise<void> {
  await resetPostgres(databaseUrl!);
  // The harness's own seed would add the six demo ships: the fleet is seeded here, with its size.
  const server = await startTestServer({ jobs: 'none', seed: false });
  const db = server.services.database.db;
  const seed = await seedPlatform(db, { ships: SHIPS });
  const ships = await db.selectFrom('facilities').select(['id', 'name']).orderBy('name').execute();
  await fillSyntheticReportValues(db, ships, smoke ? MONTH : YEAR);
  const executed = Object.fromEntries(Object.entries(seed.facilityIds).slice(0, EXECUTED_SHIPS));
  const t0 = Date.now();
  await prepareShips(server.services.database, executed, EXECUTION_DAYS, EXECUTION_UNTIL);
  console.log(`logger files of ${EXECUTED_SHIPS} ships: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  await server.close();
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

async function connections(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(
    db,
  );
  return rows[0]!.n;
}

async function main() {
  const port = Number(arg('--port') ?? (smoke ? await freePort() : 18450));
  if (!reuse) await fillFleet();
  const database = await openDatabase({ databaseUrl, dataDir: 'memory://', poolSize: 2 });
  const db = database.db;
  const counts = await sql<{
    hourly: number;
    daily: number;
    files: number;
  }>`select (select count(*) from report_values)::int as hourly, (select count(*) from report_values_daily)::int as daily, (select count(*) from data_files)::int as files`.execute(
    db,
  );

  const api = spawnServer({ databaseUrl, services: 'web', port });
  const worker = spawnServer({ databaseUrl, services: 'worker', env: { QUEUE_POLLING_SECONDS: '1' } });
  try {
    await waitUntilServing(api);
    const address = api.url!;
    const tokens = new Map<string, string>();
    for (const username of SIGNED_IN)
      tokens.set(
        username,
        await signInOverHttp(address, username, DEMO_USERS.find((d) => d.username === username)!.password),
      );

    // Every call of a fleet or ship dashboard page, per signed-in user, on ships that user sees.
    const pool: { path: string; headers: Record<string, string>; kind: string }[] = [];
    for (const [username, token] of tokens) {
      const headers = { authorization: `Bearer ${token}` };
      const visible = await call(address, token, 'GET', '/api/facilities');
      const ships = (visible.json as { id: string }[]).map((s) => s.id);
      if (!ships.length) throw new Error(`${username} sees no ship`);
      const page = [
        { path: '/api/facilities', kind: 'ship list' },
        { path: '/api/messages?isActive=true', kind: 'messages' },
      ];
      for (const period of [MONTH, YEAR]) {
        for (const p of page) pool.push({ ...p, headers });
        for (const r of FLEET_REPORTS)
          pool.push({
            path: `/api/reports/${r}/data?${new URLSearchParams(period)}`,
            headers,
            kind: 'fleet dashboard',
          });
        for (const ship of ships.slice(0, 8)) {
          for (const p of page) pool.push({ ...p, headers });
          for (const r of [...SHIP_REPORTS, ...SHIP_WASHWATER_REPORTS])
            pool.push({
              path: `/api/reports/${r}/data?${new URLSearchParams({ ...period, facilityId: ship })}`,
              headers,
              kind: 'ship dashboard',
            });
          pool.push({
            path: `/api/reports/${SHIP_UPTIME_REPORT}/data?${new URLSearchParams({ ...period, facilityId: ship, duration: period === YEAR ? 'daily' : 'hourly' })}`,
            headers,
            kind: 'ship dashboard',
          });
        }
      }
    }
    const mix = Object.entries(
      pool.reduce<Record<string, number>>((m, p) => ({ ...m, [p.kind]: (m[p.kind] ?? 0) + 1 }), {}),
    )
      .map(([k, n]) => `${k} ${((100 * n) / pool.length).toFixed(0)} %`)
      .join(', ');
    const requests = [
      {
        method: 'GET' as const,
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          ...pool[Math.floor(Math.random() * pool.length)]!,
        }),
      },
    ];
    /** One autocannon run; every response time is kept, so the percentiles are exact (autocannon has no p95). */
    const cannon = async (options: Partial<autocannon.Options>) => {
      const times: number[] = [];
      // Without a callback autocannon answers its run's event emitter, made awaitable.
      const instance = autocannon({
        url: address,
        connections: USERS,
        requests,
        timeout: 30,
        ...options,
      }) as unknown as autocannon.Instance & Promise<autocannon.Result>;
      // Listening is not awaiting: through the emitter's type, .on answers the emitter, not the run's promise.
      const emitter: autocannon.Instance = instance;
      emitter.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) =>
        times.push(ms),
      );
      const result = await instance;
      return {
        result,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        p99: percentile(times, 99),
        errors: result.errors + result.non2xx + result.timeouts,
      };
    };

    // Executions of the 10 ships with logger files, requested through the API while the load runs.
    const admin = tokens.get('admin')!;
    const executionShips = await db.selectFrom('data_files').select('facility_id').distinct().execute();
    const from = new Date(EXECUTION_UNTIL.getTime() - EXECUTION_DAYS * 86_400_000).toISOString();
    const to = new Date(EXECUTION_UNTIL.getTime() - 1).toISOString();
    const execute = async () => {
      const t0 = performance.now();
      const ids: string[] = [];
      for (const { facility_id } of executionShips) {
        const files = await db
          .selectFrom('data_files')
          .select('id')
          .where('facility_id', '=', facility_id)
          .execute();
        const answer = await call(
          address,
          admin,
          'POST',
          '/api/algorithm/calculations/measurement-field/execute',
          { facilityId: facility_id, from, to, facilityDataSourceFileIds: files.map((f) => f.id) },
        );
        if (answer.status !== 202)
          throw new Error(`execute answered ${answer.status}: ${JSON.stringify(answer.json)}`);
        ids.push(answer.json.id);
      }
      const deadline = Date.now() + (smoke ? 120_000 : 1_800_000);
      for (;;) {
        if (Date.now() > deadline) throw new Error(`the executions ${ids.join(', ')} did not end in time`);
        const rows = await db
          .selectFrom('executions')
          .select(['state', 'error'])
          .where('id', 'in', ids)
          .execute();
        if (rows.every((r) => r.state === 'done' || r.state === 'failed')) {
          return {
            seconds: (performance.now() - t0) / 1000,
            done: rows.filter((r) => r.state === 'done').length,
            failed: rows.filter((r) => r.state === 'failed').map((r) => r.error),
          };
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    console.log(`warm-up; pool of ${pool.length} calls (${mix})`);
    await cannon({ duration: WARM_UP_SECONDS });

    const loadBefore = loadAverage();
    const rssBefore = rssMegabytes(api.pid);
    console.log(`load ${seconds} s, load average before ${loadBefore}`);
    const running = cannon({ duration: seconds });
    await new Promise((r) => setTimeout(r, Math.min(5, seconds / 3) * 1000));
    const underLoad = await execute();
    const { result: loaded, ...latency } = await running;
    const loadAfter = loadAverage();
    console.log(
      `done: ${loaded.requests.total} requests, p95 ${latency.p95.toFixed(1)} ms, execution ${underLoad.seconds.toFixed(1)} s`,
    );
    const quiet = await execute();

    // Soak: a fixed rate (half the measured throughput), 30 s windows.
    const rate = Math.max(10, Math.round(loaded.requests.average / 2 / 10) * 10);
    const windows = Math.max(1, Math.round((soakMinutes * 60) / WINDOW_SECONDS));
    const samples: {
      minute: number;
      requests: number;
      p50: number;
      p95: number;
      p99: number;
      errors: number;
      rss: number;
      connections: number;
      load: string;
    }[] = [];
    samples.push({
      minute: 0,
      requests: 0,
      p50: NaN,
      p95: NaN,
      p99: NaN,
      errors: 0,
      rss: rssMegabytes(api.pid),
      connections: await connections(db),
      load: loadAverage(),
    });
    for (let w = 1; w <= windows; w++) {
      const r = await cannon({ duration: WINDOW_SECONDS, overallRate: rate });
      samples.push({
        minute: (w * WINDOW_SECONDS) / 60,
        requests: r.result.requests.total,
        p50: r.p50,
        p95: r.p95,
        p99: r.p99,
        errors: r.errors,
        rss: rssMegabytes(api.pid),
        connections: await connections(db),
        load: loadAverage(),
      });
      console.log(`soak ${w}/${windows}:`, JSON.stringify(samples.at(-1)));
    }

    const lines: string[] = [];
    const out = (line = '') => {
      console.log(line);
      lines.push(line);
    };
    const first = samples[1]!;
    const last = samples.at(-1)!;
    out(`# Load and soak on PostgreSQL${smoke ? ' (smoke run: figures not worth reading)' : ''}`);
    out();
    out(
      `${SHIPS} ships; ${smoke ? 'a month (November 2025)' : 'a year (2025)'} of hourly report values inserted directly, as bench/dashboard does: ${counts.rows[0]!.hourly.toLocaleString('en-US')} rows in report_values, ${counts.rows[0]!.daily.toLocaleString('en-US')} in report_values_daily; ${EXECUTED_SHIPS} ships also have ${EXECUTION_DAYS} days of demo logger files (${counts.rows[0]!.files} files, imported through the upload service) and the default calculations. ` +
        `Portal as two processes on this machine (${os.cpus().length} cores, shared): API \`--services=web\` and a worker \`--services=worker\`, PostgreSQL on localhost. ` +
        `Users ${SIGNED_IN.join(', ')} signed in through the OIDC flow over HTTP. \`npx tsx bench/load/run.ts ${process.argv.slice(2).join(' ')}\`, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    );
    out();
    out(`## ${USERS} concurrent users for ${seconds} s`);
    out();
    out(
      `Each of the ${USERS} autocannon connections sends the next request as soon as it has the answer; every request is a random call of a fleet or ship dashboard page (month or year) as one of the signed-in users: ${mix}.`,
    );
    out();
    out('| requests | req/s | p50 ms | p95 ms | p99 ms | max ms | errors | non-2xx | timeouts |');
    out('|---|---|---|---|---|---|---|---|---|');
    const f = (v: number) => v.toFixed(1);
    out(
      `| ${loaded.requests.total} | ${loaded.requests.average.toFixed(1)} | ${f(latency.p50)} | ${f(latency.p95)} | ${f(latency.p99)} | ${loaded.latency.max} | ${loaded.errors} | ${loaded.non2xx} | ${loaded.timeouts} |`,
    );
    out();
    out(
      `Load average (1 / 5 / 15 min) before: ${loadBefore}; after: ${loadAfter}. API RSS before ${rssBefore.toFixed(0)} MB, after ${rssMegabytes(api.pid).toFixed(0)} MB.`,
    );
    out();
    out(`## Executions of ${EXECUTED_SHIPS} ships (${EXECUTION_DAYS} days each), requested through the API`);
    out();
    out('| when | seconds until all done | done | failed |');
    out('|---|---|---|---|');
    out(
      `| during the load (requested ${Math.min(5, seconds / 3)} s in) | ${underLoad.seconds.toFixed(1)} | ${underLoad.done} | ${underLoad.failed.length} |`,
    );
    out(
      `| afterwards, no load (same executions again) | ${quiet.seconds.toFixed(1)} | ${quiet.done} | ${quiet.failed.length} |`,
    );
    out();
    out(
      `## Soak: ${soakMinutes} minutes at ${rate} requests/s (half the throughput above), ${USERS} connections, sampled every ${WINDOW_SECONDS} s`,
    );
    out();
    out(
      '| minute | requests | p50 ms | p95 ms | p99 ms | errors | API RSS MB | DB connections | load average |',
    );
    out('|---|---|---|---|---|---|---|---|---|');
    for (const s of samples)
      out(
        `| ${s.minute} | ${s.requests} | ${Number.isNaN(s.p50) ? '' : f(s.p50)} | ${Number.isNaN(s.p95) ? '' : f(s.p95)} | ${Number.isNaN(s.p99) ? '' : f(s.p99)} | ${s.errors} | ${s.rss.toFixed(0)} | ${s.connections} | ${s.load} |`,
      );
    out();
    out(
      `Minute 0 is the idle moment before the soak (pools shrink when idle). First window → last window: p95 ${f(first.p95)} → ${f(last.p95)} ms, API RSS ${first.rss.toFixed(0)} → ${last.rss.toFixed(0)} MB (highest ${Math.max(...samples.map((s) => s.rss)).toFixed(0)}), database connections ${first.connections} → ${last.connections} (highest ${Math.max(...samples.map((s) => s.connections))}), errors ${samples.reduce((n, s) => n + s.errors, 0)}.`,
    );
    const file =
      arg('--out') ?? path.join(here, '..', ...(smoke ? ['.work', 'load-smoke.md'] : ['results', 'load.md']));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, lines.join('\n') + '\n');
    const problems = [
      latency.errors ? `${latency.errors} errors, non-2xx answers or timeouts under load` : '',
      ...[underLoad, quiet].flatMap((run) => [
        ...run.failed.map((error) => `an execution failed: ${error}`),
        run.done !== executionShips.length ? `${run.done} of ${executionShips.length} executions done` : '',
      ]),
      executionShips.length === 0 ? 'no ship has logger files to execute' : '',
      samples.some((s) => s.errors) ? `${samples.reduce((n, s) => n + s.errors, 0)} errors in the soak` : '',
    ].filter(Boolean);
    if (problems.length) throw new Error(`FAILED:\n${problems.join('\n')}`);
  } finally {
    await killAll();
    void worker;
    await database.close();
  }
}

main().catch(async (error) => {
  console.error(error);
  await killAll();
  process.exit(1);
});
