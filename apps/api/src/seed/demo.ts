import cliProgress from 'cli-progress';
import { DAY_MS } from '@portal/contracts/rules';
import type { Services } from '../services';
import { seedPlatform } from './platform';
import { seedDemoDataWithProgress } from '../features/files/demo';
import { seedDefaultMeasurementCalculations } from '../features/calculations/seed';
import { executeDemoFleet } from '../features/executions/demo';
import { annotateDemoEvents } from '../features/events/demo';
import { seedDemoAlertAddresses } from '../features/alerts/seed';

/** The settings row that says whether a start began loading the demo fleet ('loading') and finished it ('loaded'). */
const DEMO_STATE_KEY = 'demo_fleet';

async function markDemoFleet(db: Services['database']['db'], state: 'loading' | 'loaded'): Promise<void> {
  const value = JSON.stringify({ state });
  await db
    .insertInto('settings')
    .values({ key: DEMO_STATE_KEY, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_on: new Date() }))
    .execute();
}

/**
 * Whether a start began loading the demo fleet and was stopped before it finished: the next start goes on with it,
 * although the database is no longer empty.
 */
export async function demoFleetUnfinished(db: Services['database']['db']): Promise<boolean> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', DEMO_STATE_KEY)
    .executeTakeFirst();
  const value = (row ? (typeof row.value === 'string' ? JSON.parse(row.value) : row.value) : null) as {
    state?: string;
  } | null;
  return value?.state === 'loading';
}

/** How far the demo's load is, in ships: each ship's logger files imported, then each ship calculated. */
export interface DemoLoadProgress {
  step: 'demo-data' | 'demo-calculation';
  done: number;
  total: number;
}

export interface DemoLoadResult {
  created: boolean;
  executed: number;
  failed: { facilityId: string; error: string | null }[];
  seconds: number;
}

/**
 * The living demo, through the real path: organizations, users and ships; each ship's data source, channel
 * mappings and logger files imported by the upload service; the default measurement calculations approved
 * from the first day of data; then one execution per ship through the job queue, until the dashboards' report
 * values and the compliance events are stored, and a few events annotated as their crews would. Idempotent: what exists is kept, a ship that was executed before is not executed again.
 * Stops between two steps (a file, a poll of the executions) when `signal` aborts; a start stopped that way goes on
 * where it stopped: a ship not yet executed gets the files it lacks, then its execution.
 */
export async function loadDemoFleet(
  services: Services,
  options: {
    ships: number;
    days: number;
    log: (message: string) => void;
    onProgress?: (progress: DemoLoadProgress) => void;
    signal?: AbortSignal;
  },
): Promise<DemoLoadResult> {
  const started = Date.now();
  const { db } = services.database;
  await markDemoFleet(db, 'loading');
  const seeded = await seedPlatform(db, { ships: options.ships });
  if (seeded.created) options.log('Demo organizations, users and ships created');
  const ships = Object.values(seeded.facilityIds);
  // Before the executions: their recent events alert the demo users (the outbox shows what would be sent).
  await seedDemoAlertAddresses(db);
  // A ship is executed once all its files are in: one without an execution may have been stopped half-way.
  const executed = new Set(
    ships.length
      ? (
          await db
            .selectFrom('executions')
            .select('facility_id')
            .distinct()
            .where('facility_id', 'in', ships)
            .execute()
        ).map((r) => r.facility_id)
      : [],
  );
  options.onProgress?.({ step: 'demo-data', done: executed.size, total: ships.length });
  await seedDemoDataWithProgress(services.database, {
    facilityIds: seeded.facilityIds,
    days: options.days,
    log: options.log,
    resume: new Set(ships.filter((id) => !executed.has(id))),
    signal: options.signal,
    // In ships: those imported before, then one more every `days` files.
    onProgress: ({ done, total }) => {
      const importing = Math.round(total / options.days);
      options.onProgress?.({
        step: 'demo-data',
        done: ships.length - importing + Math.floor(done / options.days),
        total: ships.length,
      });
    },
  });

  const facilityIds = Object.values(seeded.facilityIds);
  const toExecute: string[] = [];
  let from = Infinity;
  let to = -Infinity;
  for (const facilityId of facilityIds) {
    const facility = await db
      .selectFrom('facilities')
      .select(['data_timestamp_min', 'data_timestamp_max'])
      .where('id', '=', facilityId)
      .executeTakeFirstOrThrow();
    if (!facility.data_timestamp_min || !facility.data_timestamp_max) continue;
    const dataFrom = new Date(facility.data_timestamp_min);
    await seedDefaultMeasurementCalculations(
      db,
      facilityId,
      new Date(Math.floor(dataFrom.getTime() / DAY_MS) * DAY_MS),
    );
    const executedBefore = await db
      .selectFrom('executions')
      .select('id')
      .where('facility_id', '=', facilityId)
      .limit(1)
      .executeTakeFirst();
    if (executedBefore) continue;
    toExecute.push(facilityId);
    from = Math.min(from, dataFrom.getTime());
    to = Math.max(to, new Date(facility.data_timestamp_max).getTime());
  }
  if (!toExecute.length) {
    await markDemoFleet(db, 'loaded');
    return { created: seeded.created, executed: 0, failed: [], seconds: (Date.now() - started) / 1000 };
  }
  const before = ships.length - toExecute.length;
  options.onProgress?.({ step: 'demo-calculation', done: before, total: ships.length });

  const tty = process.stdout.isTTY;
  const bar = tty
    ? new cliProgress.SingleBar(
        { format: 'Calculating the demo fleet    {bar} {value}/{total} ships', hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : null;
  bar?.start(toExecute.length, 0);
  options.log(`Calculating ${toExecute.length} demo ships (measurement fields, then hourly report values)`);
  const result = await executeDemoFleet(services, {
    facilityIds: toExecute,
    from: new Date(from),
    to: new Date(to),
    signal: options.signal,
    onProgress: ({ done }) => {
      bar?.update(done);
      options.onProgress?.({ step: 'demo-calculation', done: before + done, total: ships.length });
    },
  }).finally(() => bar?.stop());
  for (const failure of result.failed)
    options.log(`Demo execution failed for ship ${failure.facilityId}: ${failure.error}`);
  const annotated = await annotateDemoEvents(db);
  if (annotated) options.log(`Demo events annotated: ${annotated}`);
  await markDemoFleet(db, 'loaded');
  options.log(`Demo fleet ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    created: seeded.created,
    executed: result.done,
    failed: result.failed,
    seconds: (Date.now() - started) / 1000,
  };
}
