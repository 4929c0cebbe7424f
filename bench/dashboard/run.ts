/**
 * Latency of the dashboards' report data calls on PostgreSQL with 100 ships and a year of hourly span values
 * for every default report field (inserted directly into report_values, then the daily roll-up).
 *
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/<own db> npx tsx bench/dashboard/run.ts [--reuse] [--seconds 10]
 * --reuse keeps the database of the previous run (skips the 8 M row fill). Results: bench/results/dashboard.md.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
// kysely is a dependency of apps/api only (bench/package.json stays as it is).
import { sql } from 'kysely';
import { REPORT_CODES } from '@portal/contracts/reports';
import { openDatabase } from '../../apps/api/src/storage/database';
import { seedPlatform } from '../../apps/api/src/seed/platform';
import { reportFieldValueSources } from '../../apps/api/src/features/reports/sources';
import { resetPostgres, startTestServer } from '../../apps/api/test/harness';
import { fillSyntheticReportValues } from '../shared/synthetic-values';

const here = path.dirname(fileURLToPath(import.meta.url));
const SHIPS = 100;
const YEAR = { from: '2025-01-01T00:00:00.000Z', to: '2025-12-31T23:59:59.999Z' };
const MONTH = { from: '2025-11-01T00:00:00.000Z', to: '2025-11-30T23:59:59.999Z' };
const USERS = 50;

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const reuse = process.argv.includes('--reuse');
const seconds = Number(arg('--seconds') ?? 10);
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('Set DATABASE_URL to a PostgreSQL database of your own');

async function main() {
  const database = reuse
    ? await openDatabase({ databaseUrl, dataDir: 'memory://', poolSize: 10 })
    : undefined;
  if (!reuse) await resetPostgres(databaseUrl!);
  const server = await startTestServer(database ? { database, jobs: 'none' } : { jobs: 'none' });
  const db = server.services.database.db;
  await seedPlatform(db, { ships: SHIPS });
  const ships = await db.selectFrom('facilities').select(['id', 'name']).orderBy('name').execute();
  const { computed } = await reportFieldValueSources(db);

  const existing = await sql<{ n: number }>`select count(*)::int as n from report_values`.execute(db);
  if (existing.rows[0]!.n === 0) await fillSyntheticReportValues(db, ships, YEAR);
  const counts = await sql<{
    hourly: number;
    daily: number;
  }>`select (select count(*) from report_values)::int as hourly, (select count(*) from report_values_daily)::int as daily`.execute(
    db,
  );

  await server.close();

  // The server runs in a process of its own (the simulated users here would otherwise share its event loop).
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'server.ts')], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const { address, token } = JSON.parse(line) as { address: string; token: string };
  const headers = { authorization: `Bearer ${token}` };
  const ship = ships[0]!.id;

  const C = REPORT_CODES;
  const fleetReports = [
    C.fleetExtraRemovalOfSulfur,
    C.fleetCo2Reduction,
    C.fleetTotalCo2Emission,
    C.fleetMarpolCompliance,
    C.fleetSo2Co2Ratio,
    C.fleetOperationalAvailability,
    C.fleetSfocImpact,
  ];
  const shipReports = [
    C.shipMarpolCompliance,
    C.shipOperationalAvailability,
    C.shipCo2Reduction,
    C.shipSo2Co2Ratio,
    C.shipExtraRemovalOfSulfur,
    C.shipSfocImpact,
    C.shipTotalCo2Emission,
  ];
  // As the dashboards ask since session 5: all their reports in one call (reports/data).
  const fleetCalls = (p: typeof YEAR) => [
    `/api/reports/data?${new URLSearchParams({ ...p, reportIds: fleetReports.join(',') })}`,
  ];
  const shipCalls = (p: typeof YEAR, duration: 'hourly' | 'daily') => [
    `/api/reports/data?${new URLSearchParams({ ...p, facilityId: ship, duration, reportIds: [...shipReports, C.shipUptime].join(',') })}`,
  ];
  // The spec's call per report, as the dashboards asked before: the reference for the revalidation goal.
  const fleetCallsPerReport = (p: typeof YEAR) =>
    fleetReports.map((r) => `/api/reports/${r}/data?${new URLSearchParams(p)}`);
  const shipCallsPerReport = (p: typeof YEAR, duration: 'hourly' | 'daily') => [
    ...shipReports.map((r) => `/api/reports/${r}/data?${new URLSearchParams({ ...p, facilityId: ship })}`),
    `/api/reports/${C.shipUptime}/data?${new URLSearchParams({ ...p, facilityId: ship, duration })}`,
  ];
  const scenarios = [
    { name: 'fleet dashboard, month', calls: fleetCalls(MONTH) },
    { name: 'fleet dashboard, year', calls: fleetCalls(YEAR) },
    { name: 'ship dashboard, month', calls: shipCalls(MONTH, 'hourly') },
    { name: 'ship dashboard, year', calls: shipCalls(YEAR, 'daily') },
    { name: 'fleet dashboard, year, a call per report', calls: fleetCallsPerReport(YEAR) },
    { name: 'ship dashboard, year, a call per report', calls: shipCallsPerReport(YEAR, 'daily') },
  ];

  const percentile = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
  };
  const stats = (xs: number[]) => ({
    p50: percentile(xs, 50),
    p95: percentile(xs, 95),
    p99: percentile(xs, 99),
  });
  const f = (v: number) => v.toFixed(1);

  /** One dashboard load: its calls in parallel, as the browser makes them. */
  // node:http with keep-alive: far less client CPU than fetch, which shares the two cores with the server.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const get = (pathAndQuery: string, requestHeaders: Record<string, string>) =>
    new Promise<{ status: number; etag?: string }>((resolve, reject) => {
      const request = http.get(address + pathAndQuery, { agent, headers: requestHeaders }, (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, etag: response.headers.etag }));
        response.on('error', reject);
      });
      request.on('error', reject);
    });

  /** One dashboard load: its calls in parallel, as the browser makes them; `etags` revalidates what this user loaded before. */
  const load = async (calls: string[], etags?: Map<string, string>) => {
    const t0 = performance.now();
    const responses = await Promise.all(
      calls.map((c) =>
        get(c, etags?.has(c) ? { ...headers, 'if-none-match': etags.get(c)! } : headers).then((r) => {
          if (etags && r.etag) etags.set(c, r.etag);
          return r.status;
        }),
      ),
    );
    return { ms: performance.now() - t0, errors: responses.filter((s) => s !== 200 && s !== 304).length };
  };

  const lines: string[] = [];
  const out = (line = '') => {
    console.log(line);
    lines.push(line);
  };
  out(
    `# Dashboard data calls: latency on PostgreSQL (answer cache ${process.env.REPORT_DATA_CACHE_ENTRIES === '0' ? 'off' : 'on'})`,
  );
  out();
  out(
    `${ships.length} ships, a year (2025) of hourly values for the ${computed.length} distinct default report calculations (the 41 report fields read them, docs/decisions/0030-report-fields.md): ${counts.rows[0]!.hourly.toLocaleString('en-US')} rows in report_values, ${counts.rows[0]!.daily.toLocaleString('en-US')} in report_values_daily. SystemAdmin (sees every ship). Server in a process of its own (Fastify, pg pool of 10; bench/dashboard/server.ts), PostgreSQL on localhost; ${cpus().length} × ${cpus()[0]?.model.trim()}; load average at the start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')}. \`npx tsx bench/dashboard/run.ts\`, ${new Date().toISOString().slice(0, 10)}.`,
  );
  out();
  out(
    '## One at a time (a dashboard = its calls in parallel, as the browser makes them; 30 loads after 3 warm-up)',
  );
  out();
  out('| scenario | calls | dashboard p50 ms | p95 | p99 | slowest call p95 ms | errors |');
  out('|---|---|---|---|---|---|---|');
  const revalidating = (list: typeof scenarios) =>
    list
      .filter((s) => s.name.includes('year'))
      .map((s) => ({ ...s, name: `${s.name}, browser revalidates (ETag)`, etag: true }));
  for (const s of [...scenarios, ...revalidating(scenarios)]) {
    // Revalidation: the warm-up loads give this user its ETags, every measured load then sends If-None-Match.
    const etags = 'etag' in s ? new Map<string, string>() : undefined;
    for (let i = 0; i < 3; i++) await load(s.calls, etags);
    const loads: number[] = [];
    let errors = 0;
    const perCall: number[][] = s.calls.map(() => []);
    for (let i = 0; i < 30; i++) {
      const r = await load(s.calls, etags);
      loads.push(r.ms);
      errors += r.errors;
    }
    for (const [i, c] of s.calls.entries()) {
      for (let k = 0; k < 10; k++) {
        const t0 = performance.now();
        await get(c, etags?.has(c) ? { ...headers, 'if-none-match': etags.get(c)! } : headers);
        perCall[i]!.push(performance.now() - t0);
      }
    }
    const slowest = Math.max(...perCall.map((xs) => stats(xs).p95));
    const st = stats(loads);
    out(
      `| ${s.name} | ${s.calls.length} | ${f(st.p50)} | ${f(st.p95)} | ${f(st.p99)} | ${f(slowest)} | ${errors} |`,
    );
  }

  out();
  out(`## ${USERS} concurrent users (each loads the dashboard again as soon as it has it; ${seconds} s)`);
  out();
  out('| scenario | dashboards loaded | dashboard p50 ms | p95 | p99 | errors |');
  out('|---|---|---|---|---|---|');
  const withRevalidation = [...scenarios, ...revalidating(scenarios)];
  for (const s of withRevalidation) {
    const loads: number[] = [];
    let errors = 0;
    const end = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: USERS }, async () => {
        const etags = 'etag' in s ? new Map<string, string>() : undefined;
        while (performance.now() < end) {
          const r = await load(s.calls, etags);
          loads.push(r.ms);
          errors += r.errors;
        }
      }),
    );
    const st = stats(loads);
    out(`| ${s.name} | ${loads.length} | ${f(st.p50)} | ${f(st.p95)} | ${f(st.p99)} | ${errors} |`);
  }

  out();
  out(
    `## autocannon: ${USERS} connections cycling through the dashboard's calls (per request; ${seconds} s)`,
  );
  out();
  out('| scenario | requests | req/s | p50 ms | p97.5 | p99 | errors | non-2xx |');
  out('|---|---|---|---|---|---|---|---|');
  for (const s of scenarios) {
    const result = await autocannon({
      url: address,
      connections: USERS,
      duration: seconds,
      headers,
      requests: s.calls.map((c) => ({ method: 'GET', path: c })),
    });
    out(
      `| ${s.name} | ${result.requests.total} | ${f(result.requests.average)} | ${result.latency.p50} | ${result.latency.p97_5} | ${result.latency.p99} | ${result.errors} | ${result.non2xx} |`,
    );
  }

  out();
  out(
    `Load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')}.`,
  );
  agent.destroy();
  child.kill('SIGTERM');
  await once(child, 'exit');
  writeFileSync(arg('--out') ?? path.join(here, '..', 'results', 'dashboard.md'), lines.join('\n') + '\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
