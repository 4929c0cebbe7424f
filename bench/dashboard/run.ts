/**
 * Latency of the dashboards' report data calls on PostgreSQL with 100 ships (--ships N: 100, 1,000, 5,000) and a year
 * (--period year) or five (--period five-years) of hourly span values for every default report field, written with
 * COPY (bench/shared/synthetic-values.ts): the hourly rows of the first --hourly-ships ships (3 by default; the ship
 * dashboard reads the first ship), the daily, monthly and yearly roll-ups of every ship, which is all a dashboard
 * of whole days reads. The events list (GET /api/events) reads a year of compliance events per ship
 * (bench/shared/synthetic-events.ts, COPY; the mix of bench/events), the CII cards (GET /api/cii/fleet, the fleet
 * dashboard's; GET /api/facilities/{id}/cii, the ship's) each ship's carbon ledger year sums (`ledger_years`, the one
 * table they read besides the ships' particulars), filled for the period and the two years before.
 *
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/<own db> npx tsx bench/dashboard/run.ts [--reuse] [--ships 100]
 *        [--period year|five-years] [--hourly-ships 3] [--seconds 10] [--arrivals 2] [--quick] [--out file]
 * --reuse keeps the database of the previous run (skips the fill). REPORT_DATA_CACHE_ENTRIES=0 turns the server's
 * answer cache off (config.ts): every call is then computed as the first call after new data is. --arrivals: ship-days
 * re-executed per second (their roll-ups refreshed, the reports version moved) during the "data arriving" scenarios.
 * --quick: only the dashboards asked in one call (no call per report, no revalidation, no autocannon).
 * --only <text>: only the scenarios whose name contains the text (e.g. --only CII), in every table.
 * Results: bench/results/dashboard.md.
 * --smoke: 3 ships, a month of values, a few loads per scenario and a second of load; the same calls, and the run
 * fails on any error or an answer without values (its table goes to bench/.work/dashboard-smoke.md).
 */
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
// kysely is a dependency of apps/api only (bench/package.json stays as it is).
import { sql } from 'kysely';
import type { ReportData, ReportsData } from '@portal/contracts/reports';
import type { EventList } from '@portal/contracts/events';
import type { CiiResult, FleetCii } from '@portal/contracts/carbon';
import { openDatabase } from '../../apps/api/src/storage/database';
import { seedPlatform } from '../../apps/api/src/seed/platform';
import { reportFieldValueSources } from '../../apps/api/src/features/reports/sources';
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
const FIVE_YEARS = { from: '2021-01-01T00:00:00.000Z', to: '2025-12-31T23:59:59.999Z' };
const MONTH = { from: '2025-11-01T00:00:00.000Z', to: '2025-11-30T23:59:59.999Z' };

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const reuse = process.argv.includes('--reuse');
const SHIPS = Number(arg('--ships') ?? (smoke ? 3 : 100));
const seconds = Number(arg('--seconds') ?? (smoke ? 1 : 10));
/** The concurrent users' time per scenario: the smoke run's ten scenarios a third of a second each. */
const usersSeconds = smoke ? 0.3 : seconds;
const USERS = smoke ? 5 : 50;
const periodName = arg('--period') ?? 'year';
if (periodName !== 'year' && periodName !== 'five-years')
  throw new Error(`--period takes year or five-years, not ${periodName}`);
const HOURLY_SHIPS = Number(arg('--hourly-ships') ?? 3);
const ARRIVALS = Number(arg('--arrivals') ?? 2);
const quick = process.argv.includes('--quick');
const only = arg('--only');
/** Loads of a scenario one at a time: warm-up, measured, then each call alone. */
const SIZES = smoke ? { warmUp: 1, loads: 3, perCall: 2 } : { warmUp: 3, loads: 30, perCall: 10 };
/** The smoke run fills the month the month scenarios read; the year scenarios then read it within the year. */
const FILLED = smoke ? MONTH : periodName === 'five-years' ? FIVE_YEARS : YEAR;
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('Set DATABASE_URL to a PostgreSQL database of your own');
if (!Number.isInteger(SHIPS) || SHIPS < 1)
  throw new Error(`--ships takes a whole number of ships, not ${arg('--ships')}`);

async function main() {
  const database = reuse
    ? await openDatabase({ databaseUrl, dataDir: 'memory://', poolSize: 10 })
    : undefined;
  if (!reuse) await resetPostgres(databaseUrl!);
  // The harness's own seed would add the six demo ships: the fleet is seeded here, with its size.
  const server = await startTestServer(
    database ? { database, jobs: 'none', seed: false } : { jobs: 'none', seed: false },
  );
  const db = server.services.database.db;
  await seedPlatform(db, { ships: SHIPS });
  const ships = await db.selectFrom('facilities').select(['id', 'name']).orderBy('name').execute();
  const { computed } = await reportFieldValueSources(db);

  const existing = await sql<{ n: number }>`select count(*)::int as n from report_values`.execute(db);
  const existingDaily = await sql<{ n: number }>`select count(*)::int as n from report_values_daily`.execute(
    db,
  );
  const fill =
    existing.rows[0]!.n === 0 && existingDaily.rows[0]!.n === 0
      ? await fillSyntheticReportValues(db, ships, FILLED, {
          hourlyShips: Math.min(HOURLY_SHIPS, ships.length),
        })
      : undefined;
  // The events list's and the CII cards' rows, when the database has none (a --reuse of a run before them gets them).
  const existingEvents = await sql<{ n: number }>`select count(*)::int as n from compliance_events`.execute(
    db,
  );
  const eventsFill =
    existingEvents.rows[0]!.n === 0 ? await fillSyntheticEvents(db, ships, FILLED) : undefined;
  const existingCii = await sql<{ n: number }>`select count(*)::int as n from ledger_years`.execute(db);
  if (existingCii.rows[0]!.n === 0) await fillSyntheticCiiYears(db, ships, FILLED);
  const counts = await sql<{
    hourly: number;
    daily: number;
    fields: number;
    monthly: number;
    yearly: number;
    events: number;
    bytes: string;
  }>`select (select count(*) from report_values)::int as hourly, (select count(*) from compliance_events)::int as events, (select count(*) from report_values_daily)::int as daily,
      (select count(*) from report_values_monthly)::int as monthly, (select count(*) from report_values_yearly)::int as yearly,
      (select count(*) from report_fields)::int as fields, pg_size_pretty(pg_database_size(current_database())) as bytes`.execute(
    db,
  );
  const events = counts.rows[0]!.events;
  const hourlyShips = (
    await sql<{ n: number }>`select count(distinct facility_id)::int as n from report_values`.execute(db)
  ).rows[0]!.n;

  // Data arriving: ship-days of the ships with hourly rows re-executed (their values rewritten, the roll-ups of the
  // ship's day, month and year refreshed in one transaction, as the engine's store and roll-up steps do), which moves
  // the reports version: every cached answer is stale.
  const arrivingShips = ships.slice(0, Math.max(1, hourlyShips));
  let arrived = 0;
  const arrive = async (until: number) => {
    const every = 1000 / Math.max(ARRIVALS, 0.001);
    let next = performance.now();
    while (ARRIVALS > 0 && performance.now() < until) {
      const ship = arrivingShips[arrived % arrivingShips.length]!.id;
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

  // The server runs in a process of its own (the simulated users here would otherwise share its event loop).
  const api = await startBenchServer();
  const { address, token, cacheEntries } = api;
  const asked = process.env.REPORT_DATA_CACHE_ENTRIES;
  if (asked !== undefined && Number(asked) !== cacheEntries)
    throw new Error(`REPORT_DATA_CACHE_ENTRIES=${asked}, but the server runs with ${cacheEntries}`);
  // As a browser asks: it accepts gzip (and unpacks on its own CPU, not the server's).
  const headers = { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' };
  const ship = ships[0]!.id;

  // As the dashboards ask since session 5: all their reports in one call (reports/data).
  const fleetCalls = (p: typeof YEAR) => [
    `/api/reports/data?${new URLSearchParams({ ...p, reportIds: FLEET_REPORTS.join(',') })}`,
  ];
  const shipCalls = (p: typeof YEAR, duration: 'hourly' | 'daily') => [
    `/api/reports/data?${new URLSearchParams({ ...p, facilityId: ship, duration, reportIds: [...SHIP_REPORTS, SHIP_UPTIME_REPORT, ...SHIP_WASHWATER_REPORTS].join(',') })}`,
  ];
  // The spec's call per report, as the dashboards asked before: the reference for the revalidation goal.
  const fleetCallsPerReport = (p: typeof YEAR) =>
    FLEET_REPORTS.map((r) => `/api/reports/${r}/data?${new URLSearchParams(p)}`);
  const shipCallsPerReport = (p: typeof YEAR, duration: 'hourly' | 'daily') => [
    ...[...SHIP_REPORTS, ...SHIP_WASHWATER_REPORTS].map(
      (r) => `/api/reports/${r}/data?${new URLSearchParams({ ...p, facilityId: ship })}`,
    ),
    `/api/reports/${SHIP_UPTIME_REPORT}/data?${new URLSearchParams({ ...p, facilityId: ship, duration })}`,
  ];
  // The events list as the Events page opens (the fleet, the period, the first 100) and the CII cards of the year.
  const eventsCalls = (p: typeof YEAR) => [`/api/events?${new URLSearchParams(p)}`];
  const ciiYear = new Date(FILLED.from).getUTCFullYear();
  const fleetCiiCalls = [`/api/cii/fleet?year=${ciiYear}`];
  const shipCiiCalls = [`/api/facilities/${ship}/cii?year=${ciiYear}`];
  const allScenarios: { name: string; calls: string[]; arriving?: boolean }[] = [
    { name: 'fleet dashboard, month', calls: fleetCalls(MONTH) },
    { name: 'fleet dashboard, year', calls: fleetCalls(YEAR) },
    ...(periodName === 'five-years'
      ? [{ name: 'fleet dashboard, five years', calls: fleetCalls(FIVE_YEARS) }]
      : []),
    { name: 'ship dashboard, month', calls: shipCalls(MONTH, 'hourly') },
    { name: 'ship dashboard, year', calls: shipCalls(YEAR, 'daily') },
    { name: 'events list, fleet, 2025 (first 100)', calls: eventsCalls(YEAR) },
    { name: `CII card, fleet, ${ciiYear}`, calls: fleetCiiCalls },
    { name: `CII card, ship, ${ciiYear}`, calls: shipCiiCalls },
    ...(quick
      ? []
      : [
          { name: 'fleet dashboard, year, a call per report', calls: fleetCallsPerReport(YEAR) },
          { name: 'ship dashboard, year, a call per report', calls: shipCallsPerReport(YEAR, 'daily') },
        ]),
  ];
  const picked = (s: { name: string }) => only === undefined || s.name.includes(only);
  const scenarios = allScenarios.filter(picked);
  const allArriving = [
    {
      name: `fleet dashboard, year, data arriving (${ARRIVALS} ship-days/s)`,
      calls: fleetCalls(YEAR),
      arriving: true,
    },
    {
      name: `ship dashboard, year, data arriving (${ARRIVALS} ship-days/s)`,
      calls: shipCalls(YEAR, 'daily'),
      arriving: true,
    },
  ];
  const arriving = allArriving.filter(picked);

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
  const get = (pathAndQuery: string, requestHeaders: Record<string, string>, keepBody = false) =>
    new Promise<{ status: number; etag?: string; body?: string }>((resolve, reject) => {
      const request = http.get(address + pathAndQuery, { agent, headers: requestHeaders }, (response) => {
        const chunks: Buffer[] = [];
        if (keepBody) response.on('data', (chunk: Buffer) => chunks.push(chunk));
        else response.resume();
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            etag: response.headers.etag,
            body: keepBody
              ? (response.headers['content-encoding'] === 'gzip' ? gunzipSync : (b: Buffer) => b)(
                  Buffer.concat(chunks),
                ).toString()
              : undefined,
          }),
        );
        response.on('error', reject);
      });
      request.on('error', reject);
    });

  // Every call answers every report it asks for, each with a value: a report whose KPI has no values (a default
  // added without synthetic values) or an error fails the run.
  const problems: string[] = [];
  const hasValue = (data: ReportData | undefined) =>
    Object.values(data?.fields ?? {}).some((f) =>
      Array.isArray(f.value)
        ? f.value.some((item) => typeof item.value === 'number' && Number.isFinite(item.value))
        : typeof f.value === 'number' && Number.isFinite(f.value),
    );
  const check = async (call: string) => {
    const answer = await get(call, headers, true);
    if (answer.status !== 200)
      return problems.push(`${call}: ${answer.status} ${answer.body?.slice(0, 300)}`);
    // The events list counts every event of the fleet filled; the CII cards rate every ship (the demo ships' types
    // all have a CII).
    if (call.startsWith('/api/events')) {
      const list = JSON.parse(answer.body!) as EventList;
      if (
        !(list.totalCapped ? list.total <= events : list.total === events) ||
        list.items.length !== Math.min(100, events)
      )
        problems.push(`${call}: total ${list.total}, ${list.items.length} items; ${events} events filled`);
      return;
    }
    if (call.startsWith('/api/cii/fleet')) {
      const card = JSON.parse(answer.body!) as FleetCii;
      if (card.ships.length !== ships.length || card.ships.some((s) => s.rating === null))
        problems.push(
          `${call}: ${card.ships.length} ships, ${card.ships.filter((s) => s.rating === null).length} without a rating`,
        );
      return;
    }
    if (call.includes('/cii?')) {
      const card = JSON.parse(answer.body!) as CiiResult;
      if (card.rating === null) problems.push(`${call}: no rating`);
      return;
    }
    const json = JSON.parse(answer.body!) as ReportsData | ReportData;
    const reportIds = new URL(call, 'http://x').searchParams.get('reportIds')?.split(',');
    const answers: [string, ReportData | undefined][] = reportIds
      ? reportIds.map((id) => [id, (json as ReportsData).reports[id]])
      : [[call.split('/')[3]!, json as ReportData]];
    for (const [id, data] of answers)
      if (!hasValue(data)) problems.push(`${call}: report ${id} has no value`);
  };

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

  let totalErrors = 0;
  const lines: string[] = [];
  const out = (line = '') => {
    console.log(line);
    lines.push(line);
  };
  out(
    `# Dashboard data calls: latency on PostgreSQL (answer cache ${cacheEntries === 0 ? 'off' : `on, ${cacheEntries} entries`})${smoke ? ' (smoke run: figures not worth reading)' : ''}`,
  );
  out();
  out(
    `${ships.length} ships, ${smoke ? 'a month (November 2025)' : periodName === 'five-years' ? 'five years (2021-2025)' : 'a year (2025)'} of hourly values for the ${computed.length} distinct default report calculations (the ${counts.rows[0]!.fields} report fields read them, docs/decisions/0030-report-fields.md): ${counts.rows[0]!.hourly.toLocaleString('en-US')} rows in report_values (${hourlyShips} ships; the others only their roll-ups, all a dashboard of whole days reads), ${counts.rows[0]!.daily.toLocaleString('en-US')} in report_values_daily, ${counts.rows[0]!.monthly.toLocaleString('en-US')} monthly, ${counts.rows[0]!.yearly.toLocaleString('en-US')} yearly; ${events.toLocaleString('en-US')} compliance events${eventsFill ? ` (COPY: ${eventsFill.seconds.toFixed(1)} s)` : ''} and the ships' CII year sums (ledger_years); database ${counts.rows[0]!.bytes}.${fill ? ` Fill (COPY, then the monthly and yearly roll-ups in SQL): ${fill.seconds.toFixed(0)} s, ${Math.round((fill.hourlyRows + fill.dailyRows) / fill.seconds).toLocaleString('en-US')} rows/s.` : ''} SystemAdmin (sees every ship). Server in a process of its own (Fastify, pg pool of 10; bench/dashboard/server.ts), PostgreSQL on localhost; ${cpus().length} × ${cpus()[0]?.model.trim()}; load average at the start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' / ',
      )}. \`npx tsx bench/dashboard/run.ts ${process.argv.slice(2).join(' ')}\`, ${new Date().toISOString().slice(0, 10)}.`,
  );
  out();
  for (const s of scenarios) for (const c of s.calls) await check(c);
  out(
    `## One at a time (a dashboard = its calls in parallel, as the browser makes them; ${SIZES.loads} loads after ${SIZES.warmUp} warm-up)`,
  );
  out();
  out('| scenario | calls | dashboard p50 ms | p95 | p99 | slowest call p95 ms | errors |');
  out('|---|---|---|---|---|---|---|');
  const revalidating = (list: typeof scenarios) =>
    list
      .filter((s) => !quick && s.name.includes('year'))
      .map((s) => ({ ...s, name: `${s.name}, browser revalidates (ETag)`, etag: true }));
  for (const s of [...scenarios, ...revalidating(scenarios)]) {
    // Revalidation: the warm-up loads give this user its ETags, every measured load then sends If-None-Match.
    const etags = 'etag' in s ? new Map<string, string>() : undefined;
    for (let i = 0; i < SIZES.warmUp; i++) await load(s.calls, etags);
    const loads: number[] = [];
    let errors = 0;
    const perCall: number[][] = s.calls.map(() => []);
    for (let i = 0; i < SIZES.loads; i++) {
      const r = await load(s.calls, etags);
      loads.push(r.ms);
      errors += r.errors;
    }
    totalErrors += errors;
    for (const [i, c] of s.calls.entries()) {
      for (let k = 0; k < SIZES.perCall; k++) {
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
  out(
    `## ${USERS} concurrent users (each loads the dashboard again as soon as it has it; ${usersSeconds} s)`,
  );
  out();
  out('| scenario | dashboards loaded | dashboard p50 ms | p95 | p99 | errors |');
  out('|---|---|---|---|---|---|');
  const withRevalidation = [...scenarios, ...arriving, ...revalidating(scenarios)];
  for (const s of withRevalidation) {
    const loads: number[] = [];
    let errors = 0;
    const end = performance.now() + usersSeconds * 1000;
    const arrivedBefore = arrived;
    await Promise.all([
      s.arriving ? arrive(end) : Promise.resolve(),
      ...Array.from({ length: USERS }, async () => {
        const etags = 'etag' in s ? new Map<string, string>() : undefined;
        while (performance.now() < end) {
          const r = await load(s.calls, etags);
          loads.push(r.ms);
          errors += r.errors;
        }
      }),
    ]);
    totalErrors += errors;
    const st = stats(loads);
    const note = s.arriving ? ` (${arrived - arrivedBefore} ship-days re-executed)` : '';
    out(`| ${s.name}${note} | ${loads.length} | ${f(st.p50)} | ${f(st.p95)} | ${f(st.p99)} | ${errors} |`);
  }

  if (!quick) {
    out();
    out(
      `## autocannon: ${USERS} connections cycling through the dashboard's calls (per request; ${seconds} s)`,
    );
    out();
    out('| scenario | requests | req/s | p50 ms | p97.5 | p99 | errors | non-2xx |');
    out('|---|---|---|---|---|---|---|---|');
  }
  for (const s of quick ? [] : scenarios) {
    const result = await autocannon({
      url: address,
      connections: USERS,
      duration: seconds,
      headers,
      requests: s.calls.map((c) => ({ method: 'GET', path: c })),
    });
    totalErrors += result.errors + result.non2xx;
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
  await api.stop();
  await server.close();
  const file =
    arg('--out') ??
    path.join(here, '..', ...(smoke ? ['.work', 'dashboard-smoke.md'] : ['results', 'dashboard.md']));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, lines.join('\n') + '\n');
  if (totalErrors) problems.push(`${totalErrors} calls answered with an error`);
  if (problems.length) throw new Error(`FAILED:\n${problems.join('\n')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
