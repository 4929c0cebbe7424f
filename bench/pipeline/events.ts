/**
 * What deriving compliance events adds to the execution of one ship-year: the engine's steps timed over the whole
 * year, five times in a row on the database the pipeline bench left (run `bench/pipeline/run.ts --ships 1 --kinds
 * postgres --postgres <url>` first), each run's writes rolled back so the next one starts from the same state.
 * The events' share is (compliance events + store events) / (all the other steps), per run and for the fastest run
 * of each step. Results: bench/results/pipeline.md.
 *
 * Run: npx tsx bench/pipeline/events.ts --postgres postgres://postgres@127.0.0.1:5432/<the pipeline bench's db> [--runs 5]
 * --smoke: one run (after `bench/pipeline/run.ts --smoke --kinds postgres`).
 */
import os from 'node:os';
import { openDatabase } from '../../apps/api/src/storage/database';
import { computePeriod, storeComputed } from '../../apps/api/src/features/executions/engine';
import { enginePorts } from '../../apps/api/src/features/engine-ports';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const RUNS = Number(arg('--runs') ?? (smoke ? 1 : 5));
const databaseUrl = arg('--postgres');
if (!databaseUrl) throw new Error('Give --postgres <url> of the pipeline bench database');

class Rollback extends Error {}

async function main() {
  const database = await openDatabase({ databaseUrl, dataDir: 'memory://', poolSize: 4 });
  const { db } = database;
  const ship = await db
    .selectFrom('facilities')
    .select(['id', 'data_timestamp_min', 'data_timestamp_max'])
    .where('data_timestamp_min', 'is not', null)
    .executeTakeFirstOrThrow();
  const DAY = 86_400_000;
  const from = Math.floor(new Date(ship.data_timestamp_min!).getTime() / DAY) * DAY;
  const to = Math.ceil((new Date(ship.data_timestamp_max!).getTime() + 1) / DAY) * DAY;
  const EVENTS = ['compliance events', 'store events'];
  const runs: Record<string, number>[] = [];
  for (let run = 0; run < RUNS; run++) {
    const timings: Record<string, number> = {};
    const computed = await computePeriod(
      db,
      {
        facilityId: ship.id,
        from,
        to,
        measurementFieldIds: 'all',
        reportFieldIds: 'all',
        timings,
      },
      enginePorts(),
    );
    await db
      .transaction()
      .execute(async (trx) => {
        await storeComputed(trx, computed, enginePorts());
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    runs.push(timings);
    const events = EVENTS.reduce((s, k) => s + (timings[k] ?? 0), 0);
    const rest = Object.entries(timings)
      .filter(([k]) => !EVENTS.includes(k))
      .reduce((s, [, v]) => s + v, 0);
    console.log(
      `run ${run + 1}: other steps ${(rest / 1000).toFixed(2)} s, events ${(events / 1000).toFixed(2)} s (+${((events / rest) * 100).toFixed(1)} %) load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  }
  const fastest: Record<string, number> = {};
  for (const t of runs)
    for (const [k, v] of Object.entries(t)) fastest[k] = Math.min(fastest[k] ?? Infinity, v);
  const events = EVENTS.reduce((s, k) => s + (fastest[k] ?? 0), 0);
  const rest = Object.entries(fastest)
    .filter(([k]) => !EVENTS.includes(k))
    .reduce((s, [, v]) => s + v, 0);
  console.log(
    `fastest of each step: other steps ${(rest / 1000).toFixed(2)} s, events ${(events / 1000).toFixed(2)} s (+${((events / rest) * 100).toFixed(1)} %)`,
  );
  console.log(
    Object.entries(fastest)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(3)}`)
      .join(', '),
  );
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
