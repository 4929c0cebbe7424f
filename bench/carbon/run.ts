/**
 * The carbon ledger's cost (issue 31):
 *
 * 1. What the step "port calls and voyages" (and its store step) adds to a ship-year's execution: a demo ship's year of
 *    daily logger files imported, then one execution through the queue and the real job with the engine's stage
 *    timings; the ledger's share of the execution, against the goal of under 10 %. Then the ledger alone over the
 *    year (the carbon-ledger job: what a port or mapping change costs a ship), twice (the second writes nothing).
 * 2. The fleet CII card for 100 ships: a year of the ledger's pieces per ship (two a day, as a ship at sea and in port
 *    has them) written through storage/, the ships' particulars set, then GET /api/cii/fleet through the app as the
 *    SystemAdmin (who sees every ship): p50 and p95 of the answer, against the goal of p95 under 50 ms.
 *
 * Run: npx tsx bench/carbon/run.ts [--kinds pglite,postgres] [--postgres postgres://postgres@127.0.0.1:5432/<db>]
 *        [--days 365] [--ships 100] [--calls 200] [--record "a title"] [--smoke]
 * The PostgreSQL database's public schema is emptied. --smoke: 2 days, 5 ships, 20 calls; checked, not recorded.
 * Fails when an execution fails, the ledger stores no piece, or the card misses a ship.
 */
import { appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FleetCii } from '@portal/contracts/carbon';
import { demoShips, writeShipDayFile } from '@portal/demo-fleet';
import { resetPostgres, startTestServer } from '../../apps/api/test/harness';
import { openDatabase, type DatabaseHandle } from '../../apps/api/src/storage/database';
import { migrateToLatest } from '../../apps/api/src/db/migrate';
import { ensurePortReference } from '../../apps/api/src/features/ports/reference';
import { seedPlatform } from '../../apps/api/src/seed/platform';
import { seedDemoData } from '../../apps/api/src/features/files/demo';
import { seedDefaultMeasurementCalculations } from '../../apps/api/src/features/calculations/seed';
import { executeDemoFleet } from '../../apps/api/src/features/executions/demo';
import { runLedger } from '../../apps/api/src/features/executions/run-ledger';
import { ledgerPorts } from '../../apps/api/src/features/carbon/ledger-ports';
import { enginePorts } from '../../apps/api/src/features/engine-ports';
import { startJobs } from '../../apps/api/src/features/jobs';
import { importUploadedFile } from '../../apps/api/src/features/files/import';
import { replaceLedgerSegments, type StoredSegment } from '../../apps/api/src/storage';
import type { Services } from '../../apps/api/src/services';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const days = Number(arg('--days', smoke ? '2' : '365'));
const fleetShips = Number(arg('--ships', smoke ? '5' : '100'));
const calls = Number(arg('--calls', smoke ? '20' : '200'));
const kinds = arg('--kinds', 'pglite,postgres').split(',');
const postgresUrl = arg(
  '--postgres',
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/portal_carbon_bench',
);
const record = arg('--record', '');
const DAY = 86_400_000;
const UNTIL = new Date('2025-01-01T00:00:00.000Z');
const LEDGER_STAGES = ['port calls and voyages', 'store port calls and voyages'];

async function open(kind: string): Promise<DatabaseHandle> {
  if (kind === 'pglite') return openDatabase({ dataDir: 'memory://' });
  await resetPostgres(postgresUrl);
  return openDatabase({ databaseUrl: postgresUrl, dataDir: 'memory://' });
}

interface ExecutionResult {
  kind: string;
  portIndexS: number;
  executeS: number;
  stages: Record<string, number>;
  ledgerS: number;
  stagesS: number;
  share: number;
  pieces: number;
  calls: number;
  voyages: number;
  aloneS: number[];
}

async function shipYear(kind: string): Promise<ExecutionResult> {
  const database = await open(kind);
  await migrateToLatest(database.db);
  // The shipped UN/LOCODE reference, as a server's start loads it: the demo ship's calls are at its ports.
  await ensurePortReference(database.db);
  const seed = await seedPlatform(database.db, { ships: 6 });
  const ship = demoShips(6)[0]!;
  const facilityId = seed.facilityIds[ship.key]!;
  const services = { database, config: {} } as unknown as Services;
  const configured = await seedDemoData(database, {
    facilityIds: { [ship.key]: facilityId },
    days: 0,
    until: UNTIL,
  });
  if (configured.errors.length) throw new Error(configured.errors.slice(0, 3).join('\n'));
  const source = await database.db
    .selectFrom('facility_data_sources')
    .select('id')
    .where('facility_id', '=', facilityId)
    .executeTakeFirstOrThrow();
  for (let d = days; d >= 1; d--) {
    const file = await writeShipDayFile(ship, new Date(UNTIL.getTime() - d * DAY));
    const imported = await importUploadedFile(database, {
      facilityId,
      dataSourceId: source.id,
      fileName: file.fileName,
      content: file.content,
      importedBy: null,
    });
    if (imported.errorMessages.length) throw new Error(imported.errorMessages.join('; '));
    if (d % 50 === 0) process.stdout.write(`\r  ${kind}: ${days - d + 1}/${days} files imported`);
  }
  process.stdout.write('\n');
  await seedDefaultMeasurementCalculations(database.db, facilityId, new Date('2000-01-01T00:00:00.000Z'));

  // The organization's port index, built once per process and set of ports (a worker keeps it): built here, timed
  // apart, so the execution measures a worker's steady state.
  const organization = await database.db
    .selectFrom('facilities')
    .select('primary_organization_id')
    .where('id', '=', facilityId)
    .executeTakeFirstOrThrow();
  let started = performance.now();
  await ledgerPorts.portsFor(database.db, organization.primary_organization_id);
  const portIndexS = (performance.now() - started) / 1000;

  const stages: Record<string, number> = {};
  const queue = await startJobs(services, {
    work: true,
    tuning: { QUEUE_POLLING_SECONDS: 0.5 },
    run: { timings: stages },
  });
  started = performance.now();
  const result = await executeDemoFleet(services, {
    facilityIds: [facilityId],
    from: new Date(UNTIL.getTime() - days * DAY),
    to: new Date(UNTIL.getTime() - 1),
    pollMs: 100,
  });
  const executeS = (performance.now() - started) / 1000;
  if (result.failed.length) throw new Error(JSON.stringify(result.failed));
  await queue.stop();
  const count = async (table: 'ledger_segments' | 'port_calls' | 'voyages') =>
    Number(
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('facility_id', '=', facilityId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const pieces = await count('ledger_segments');
  if (pieces === 0) throw new Error('the execution stored no piece of the ledger');
  // The ledger alone over the year, twice: the second finds everything as it is and writes nothing.
  const aloneS: number[] = [];
  for (let i = 0; i < 2; i++) {
    started = performance.now();
    const outcome = await runLedger(services, enginePorts(), { facilityId });
    if (outcome.status !== 'done') throw new Error(JSON.stringify(outcome));
    aloneS.push((performance.now() - started) / 1000);
  }
  const seconds = Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, v / 1000]));
  const ledgerS = LEDGER_STAGES.reduce((s, k) => s + (seconds[k] ?? 0), 0);
  // The execution's own time: the computing stages, then the commit, which the store stages, the ledger's two (it is
  // derived under the ship's lock) and the roll-up are part of.
  const stagesS = Object.entries(seconds)
    .filter(([k]) => !k.startsWith('store ') && k !== 'daily roll-up' && !LEDGER_STAGES.includes(k))
    .reduce((s, [, v]) => s + v, 0);
  const out: ExecutionResult = {
    kind,
    portIndexS,
    executeS,
    stages: seconds,
    ledgerS,
    stagesS,
    share: ledgerS / stagesS,
    pieces,
    calls: await count('port_calls'),
    voyages: await count('voyages'),
    aloneS,
  };
  await database.close();
  console.log(
    `  ${kind}: execution ${executeS.toFixed(1)} s, stages ${stagesS.toFixed(2)} s, ledger ${ledgerS.toFixed(2)} s (${(out.share * 100).toFixed(1)} %); ${out.calls} calls, ${out.voyages} voyages, ${pieces} pieces; ledger alone ${aloneS.map((s) => s.toFixed(2)).join(' s, ')} s`,
  );
  return out;
}

interface CardResult {
  kind: string;
  ships: number;
  pieces: number;
  p50: number;
  p95: number;
  max: number;
}

async function fleetCard(kind: string): Promise<CardResult> {
  if (kind === 'postgres') process.env.DATABASE_URL = postgresUrl;
  else delete process.env.DATABASE_URL;
  const server = await startTestServer({ seed: false, jobs: 'none' });
  const { db } = server.services.database;
  const seed = await seedPlatform(db, { ships: fleetShips });
  const ids = Object.values(seed.facilityIds).slice(0, fleetShips);
  if (ids.length < fleetShips) throw new Error(`the seed made ${ids.length} ships, not ${fleetShips}`);
  const year = 2025;
  const from = Date.UTC(year, 0, 1);
  let pieces = 0;
  for (const [n, id] of ids.entries()) {
    await db
      .updateTable('facilities')
      .set({
        ship_type: 'BULK_CARRIER',
        deadweight_tonnes: 40_000 + 400 * n,
        gross_tonnage: 25_000 + 200 * n,
      })
      .where('id', '=', id)
      .execute();
    // A day at sea then part of a day in port, all year: two pieces a day; each ship burns a little more than the last.
    const segments: StoredSegment[] = [];
    for (let d = 0; d < 365; d++) {
      const day = from + d * DAY;
      const atSea = 20 * 3_600_000;
      const kg = (18_000 + 150 * n) * (1 + 0.2 * Math.sin(d / 20));
      const base = { day, hoursWithoutPosition: 0, hoursWithoutFuelData: { flow: 0 }, unknownFuelKg: 0 };
      segments.push({
        ...base,
        start: day,
        end: day + atSea,
        kind: 'voyage',
        distanceNm: 260,
        hoursUnderWay: 20,
        hoursNotUnderWay: 0,
        fuel: [{ consumer: 'MAIN_ENGINE', fuelType: 'HFO', kg, kgNotUnderWay: 0 }],
        co2g: kg * 1000 * 3.114,
        scrubberKg: kg * 0.02,
        scrubberCo2g: kg * 0.02 * 1000 * 3.114,
      });
      segments.push({
        ...base,
        start: day + atSea,
        end: day + DAY,
        kind: 'stay',
        distanceNm: 0,
        hoursUnderWay: 0,
        hoursNotUnderWay: 4,
        fuel: [{ consumer: 'AUX_ENGINE', fuelType: 'MDO_MGO', kg: 600, kgNotUnderWay: 600 }],
        co2g: 600 * 1000 * 3.206,
        scrubberKg: 0,
        scrubberCo2g: 0,
      });
    }
    await db.transaction().execute((trx) => replaceLedgerSegments(trx, id, from, from + 365 * DAY, segments));
    pieces += segments.length;
  }
  const token = await server.tokenFor('admin');
  const ask = async () => {
    const started = performance.now();
    const response = await server.app.inject({
      method: 'GET',
      url: `/api/cii/fleet?year=${year}`,
      headers: { authorization: `Bearer ${token}` },
    });
    const ms = performance.now() - started;
    if (response.statusCode !== 200) throw new Error(response.body);
    const card = response.json() as FleetCii;
    const rated = card.ships.filter((s) => ids.includes(s.shipId) && s.rating !== null);
    if (rated.length !== ids.length) throw new Error(`the card rated ${rated.length} of ${ids.length} ships`);
    return ms;
  };
  for (let i = 0; i < 5; i++) await ask();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) times.push(await ask());
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  await server.close();
  const out = { kind, ships: ids.length, pieces, p50: at(0.5), p95: at(0.95), max: times.at(-1)! };
  console.log(
    `  ${kind}: fleet CII card of ${out.ships} ships (${pieces} pieces): p50 ${out.p50.toFixed(1)} ms, p95 ${out.p95.toFixed(1)} ms, max ${out.max.toFixed(1)} ms over ${calls} calls`,
  );
  return out;
}

const executions: ExecutionResult[] = [];
const cards: CardResult[] = [];
for (const kind of kinds) executions.push(await shipYear(kind));
for (const kind of kinds) cards.push(await fleetCard(kind));

const f = (n: number, d = 2) => n.toFixed(d);
const lines = [
  `## ${record || 'Carbon ledger: a ship-year execution and the fleet CII card'}`,
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}), Node ${process.version}. ` +
    `Run: \`npx tsx bench/carbon/run.ts ${process.argv.slice(2).join(' ')}\`. Load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}.`,
  '',
  `A demo ship's ${days} days (one sample a minute), executed once through the queue; the stages' seconds (the store stages, the ledger's and the roll-up inside the commit). Ledger = "port calls and voyages" + "store port calls and voyages"; share = ledger / the execution's stages (goal: under 10 %). "Alone": the carbon-ledger job over the same data, first and second run.`,
  '',
  '| database | execute s | stages s | ledger s | share | goal | calls | voyages | pieces | alone s (1st, 2nd) | port index s (once a process) |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
  ...executions.map(
    (e) =>
      `| ${e.kind} | ${f(e.executeS, 1)} | ${f(e.stagesS)} | ${f(e.ledgerS)} | ${f(e.share * 100, 1)} % | ${e.share < 0.1 ? 'met' : 'missed'} (< 10 %) | ${e.calls} | ${e.voyages} | ${e.pieces} | ${e.aloneS.map((s) => f(s)).join(', ')} | ${f(e.portIndexS)} |`,
  ),
  '',
  'Stages (s):',
  '',
  ...executions.map(
    (e) =>
      `- ${e.kind}: ${Object.entries(e.stages)
        .map(([k, v]) => `${k} ${f(v)}`)
        .join(', ')}`,
  ),
  '',
  `The fleet CII card (GET /api/cii/fleet, through the app, as the SystemAdmin): ${calls} calls after 5 to warm up.`,
  '',
  '| database | ships | pieces | p50 ms | p95 ms | max ms | goal |',
  '|---|---|---|---|---|---|---|',
  ...cards.map(
    (c) =>
      `| ${c.kind} | ${c.ships} | ${c.pieces} | ${f(c.p50, 1)} | ${f(c.p95, 1)} | ${f(c.max, 1)} | ${c.p95 < 50 ? 'met' : 'missed'} (p95 < 50 ms) |`,
  ),
  '',
];
console.log(lines.join('\n'));
if (record && !smoke) appendFileSync(path.join(here, '..', 'results', 'carbon.md'), `\n${lines.join('\n')}`);
process.exit(0);
