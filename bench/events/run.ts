/**
 * Latency of the fleet events list (GET /api/events) on PostgreSQL with 100 ships and a year of events each, as the
 * engine derives them from a demo ship's year (ECA entries and exits, transients at departures and load changes, a
 * few malfunctions, data gaps), inserted directly (the engine's own time is bench/pipeline's).
 *
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/<own db> npx tsx bench/events/run.ts [--reuse] [--ships 100]
 * The run's table goes to bench/.work/events.md; bench/results/events.md records the runs.
 * --smoke: 3 ships, a few calls per scenario; the same calls, and the run fails on any error or a list whose count
 * is not the events inserted (its table to bench/.work/events-smoke.md).
 */
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { EventList } from '@portal/contracts/events';
import { openDatabase } from '../../apps/api/src/storage/database';
import { seedPlatform } from '../../apps/api/src/seed/platform';
import { resetPostgres, startTestServer } from '../../apps/api/test/harness';
import { startBenchServer } from '../shared/bench-server';
import { syntheticShipYearEvents } from '../shared/synthetic-events';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const SHIPS = Number(arg('--ships') ?? (smoke ? 3 : 100));
const YEAR_FROM = Date.UTC(2025, 0, 1);
const USERS = smoke ? 5 : 50;
/** Calls per scenario: warm-up, one at a time, per user at once. */
const SIZES = smoke ? { warmUp: 1, alone: 3, perUser: 2 } : { warmUp: 5, alone: 40, perUser: 10 };
const reuse = process.argv.includes('--reuse');
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('Set DATABASE_URL to a PostgreSQL database of your own');

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
  const ships = await db.selectFrom('facilities').select(['id']).orderBy('name').execute();
  const existing = await sql<{ n: number }>`select count(*)::int as n from compliance_events`.execute(db);
  if (existing.rows[0]!.n === 0) {
    for (const [i, ship] of ships.entries()) {
      const rows = syntheticShipYearEvents(ship.id, i + 1, YEAR_FROM);
      for (let at = 0; at < rows.length; at += 2000)
        await db
          .insertInto('compliance_events')
          .values(rows.slice(at, at + 2000) as never)
          .execute();
    }
    await sql`analyze compliance_events`.execute(db);
  }
  const total = (await sql<{ n: number }>`select count(*)::int as n from compliance_events`.execute(db))
    .rows[0]!.n;

  const firstShip = await db
    .selectFrom('compliance_events')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('facility_id', '=', ships[0]!.id)
    .executeTakeFirstOrThrow();
  await server.close();

  const api = await startBenchServer();
  const { address, token } = api;
  const headers = { authorization: `Bearer ${token}` };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const get = (pathAndQuery: string, keepBody = false) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.get(address + pathAndQuery, { agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        if (keepBody) response.on('data', (chunk: Buffer) => chunks.push(chunk));
        else response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      });
      request.on('error', reject);
    });
  const status = async (pathAndQuery: string) => (await get(pathAndQuery)).status;
  const year = { from: '2025-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z' };
  const month = { from: '2025-11-01T00:00:00.000Z', to: '2025-12-01T00:00:00.000Z' };
  const scenarios = [
    { name: 'fleet list, year (first 100)', url: `/api/events?${new URLSearchParams(year)}` },
    { name: 'fleet list, month (first 100)', url: `/api/events?${new URLSearchParams(month)}` },
    {
      name: 'fleet list, year, malfunctions and repeated, open',
      url: `/api/events?${new URLSearchParams(year)}&classification=malfunction&classification=repeated&state=open`,
    },
    { name: 'fleet card (counts), year', url: `/api/events?${new URLSearchParams(year)}&limit=1` },
    {
      name: 'ship list, year',
      url: `/api/events?${new URLSearchParams({ ...year, facilityId: ships[0]!.id })}`,
    },
  ];
  const percentile = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
  };
  // The lists count what was inserted: every event of the year over the fleet, and the first ship's alone.
  const problems: string[] = [];
  const expectTotal = async (url: string, expected: number) => {
    const answer = await get(url, true);
    if (answer.status !== 200) return problems.push(`${url}: ${answer.status} ${answer.body.slice(0, 300)}`);
    const list = JSON.parse(answer.body) as EventList;
    const counted = list.totalCapped ? list.total <= expected : list.total === expected;
    if (!counted || list.items.length !== Math.min(100, expected))
      problems.push(`${url}: total ${list.total}, ${list.items.length} items; ${expected} events inserted`);
  };
  await expectTotal(scenarios[0]!.url, total);
  await expectTotal(scenarios[4]!.url, firstShip.n);
  const lines: string[] = [];
  const out = (l = '') => {
    console.log(l);
    lines.push(l);
  };
  out(
    `# Compliance events list: latency on PostgreSQL${smoke ? ' (smoke run: figures not worth reading)' : ''}`,
  );
  out();
  out(
    `${SHIPS} ships, a year (2025) of events each: ${total.toLocaleString('en-US')} rows in compliance_events. SystemAdmin (sees every ship). Server in a process of its own (bench/dashboard/server.ts), PostgreSQL on localhost; ${cpus().length} × ${cpus()[0]?.model.trim()}; load average at the start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' / ',
      )}. \`npx tsx bench/events/run.ts\`, ${new Date().toISOString().slice(0, 10)}. Goal: fleet list p95 under 50 ms.`,
  );
  out();
  out(`| scenario | one at a time p50 ms | p95 | ${USERS} users p50 ms | p95 | errors |`);
  out('|---|---|---|---|---|---|');
  for (const s of scenarios) {
    for (let i = 0; i < SIZES.warmUp; i++) await status(s.url);
    const alone: number[] = [];
    let errors = 0;
    const countErrors = () => {
      if (errors) problems.push(`${s.name}: ${errors} calls answered with an error`);
    };
    for (let i = 0; i < SIZES.alone; i++) {
      const t0 = performance.now();
      if ((await status(s.url)) !== 200) errors++;
      alone.push(performance.now() - t0);
    }
    const together: number[] = [];
    await Promise.all(
      Array.from({ length: USERS }, async () => {
        for (let i = 0; i < SIZES.perUser; i++) {
          const t0 = performance.now();
          if ((await status(s.url)) !== 200) errors++;
          together.push(performance.now() - t0);
        }
      }),
    );
    out(
      `| ${s.name} | ${percentile(alone, 50).toFixed(1)} | ${percentile(alone, 95).toFixed(1)} | ${percentile(together, 50).toFixed(1)} | ${percentile(together, 95).toFixed(1)} | ${errors} |`,
    );
    countErrors();
  }
  agent.destroy();
  await api.stop();
  // The table of this run; bench/results/events.md quotes the runs with what they mean.
  mkdirSync(path.join(here, '..', '.work'), { recursive: true });
  writeFileSync(
    path.join(here, '..', '.work', smoke ? 'events-smoke.md' : 'events.md'),
    `${lines.join('\n')}\n`,
  );
  if (problems.length) throw new Error(`FAILED:\n${problems.join('\n')}`);
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
