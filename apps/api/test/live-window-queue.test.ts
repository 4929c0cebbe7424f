import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoShips } from '@portal/demo-fleet';
import { startTestServer, type TestServer } from './harness';
import { FAST_QUEUE } from './execution-fixtures';
import { samplesBetween, sliceSamples, storeStreamedSamples } from './stream-helpers';
import { waitFor } from './wait';
import { JOB_NAMES, type Queue } from '../src/jobs';
import { featureJobHandlers, startJobs } from '../src/features/jobs';
import { enginePortsOf } from '../src/features/engine-ports';
import { configureDemoDataSource } from '../src/features/files/demo';
import { seedDefaultMeasurementCalculations } from '../src/features/calculations/seed';
import { requestWindowExecution, runWindowExecution } from '../src/features/executions/live';

/**
 * The ship's window job on the real queue when samples arrive while one of its runs is going on
 * (docs/decisions/0122-live-windows.md, "One way in for a stream"). bench/live/alerts.ts once saw a window job wait
 * 56 s in pg-boss's `created` with no run of its ship going on: on a stately queue, pg-boss's fetch leaves out the
 * keys it holds for active in its queue cache, a list written by its monitor (every QUEUE_SUPERVISE_SECONDS) and
 * read into each process every 60 s, so a key seen active once is left out for up to a minute after its run ended.
 * Here the run is held open by the test (the job claimed as a worker claims it), the monitor passes and the cache
 * is read while it runs, a new batch arrives, then the run ends.
 */

const MIN = 60_000;
const day = Date.UTC(2025, 2, 9);

let server: TestServer;
let queue: Queue;
const db = () => server.services.database.db;

beforeAll(async () => {
  server = await startTestServer({ jobs: 'none' });
  server.services.config.LIVE_WINDOW_DEBOUNCE_SECONDS = 0;
  queue = await startJobs(server.services, { work: false, tuning: FAST_QUEUE });
}, 120_000);

afterAll(async () => {
  await queue?.stop();
  await server?.close();
});

const windowJobs = async (facilityId: string) => {
  const { rows } = await sql<{ state: string; status: string | null }>`
    select state::text as state, output->>'status' as status from pgboss.job
    where name = ${JOB_NAMES.windowExecution} and singleton_key = ${facilityId}`.execute(db());
  return rows;
};

/** The minutes of the ship whose measurement values are stored (the measurement chunks' rows, per day). */
const storedRows = async (facilityId: string) => {
  const rows = await db()
    .selectFrom('measurement_values')
    .select('row_count')
    .where('facility_id', '=', facilityId)
    .execute();
  return Math.max(0, ...rows.map((r) => r.row_count));
};

describe('the window job of a ship whose run is going on', () => {
  it('a batch arriving while its ship runs a window is executed by the next run, right after it, not held back', async () => {
    const ship = demoShips(6)[3]!;
    const facilityId = server.seed.facilityIds[ship.key]!;
    const dataSourceId = await configureDemoDataSource(db(), ship, facilityId, `Gateway of ${ship.name}`);
    await seedDefaultMeasurementCalculations(db(), facilityId, new Date(day));
    const target = { facilityId, dataSourceId };
    const samples = samplesBetween(ship, day, day + 20 * MIN);
    const stream = async (from: number, to: number) => {
      const stored = await storeStreamedSamples(db(), ship, target, sliceSamples(samples, from, to));
      await requestWindowExecution(server.services, { ...target, ...stored! });
    };

    // The first ten minutes; their job is taken as a worker takes it: the ship's run is going on.
    await stream(day, day + 10 * MIN);
    const [running] = await queue.boss.fetch<{ facilityId: string }>(JOB_NAMES.windowExecution, {
      includeMetadata: true,
    });
    expect(running?.data.facilityId).toBe(facilityId);
    // The run executes what waits (the first ten minutes).
    const outcome = await runWindowExecution(server.services, enginePortsOf(server.services), running!.data, {
      jobId: running!.id,
      retryCount: 0,
      retryLimit: 0,
    });
    expect(outcome.status).toBe('done');
    expect(await storedRows(facilityId)).toBeLessThan(20);
    // While it runs: pg-boss's monitor passes (QUEUE_SUPERVISE_SECONDS, 2 s here) and the process reads its queues
    // again (every 60 s; here at once, as pg-boss does after a change of a queue's settings).
    const claimed = new Date();
    await waitFor(
      async () =>
        (
          await sql<{
            monitored: Date;
          }>`select monitor_on as monitored from pgboss.queue where name = ${JOB_NAMES.windowExecution}`.execute(
            db(),
          )
        ).rows[0]?.monitored,
      { what: "pg-boss's monitor to pass while the ship's run goes on", until: (on) => !!on && on > claimed },
    );
    await queue.boss.updateQueue(JOB_NAMES.windowExecution, {
      retryDelay: FAST_QUEUE.QUEUE_RETRY_DELAY_SECONDS,
    });
    // (read at once: on PGlite a read of it inside the next request's transaction would wait for that transaction)
    await queue.boss.getQueues([JOB_NAMES.windowExecution]);
    await queue.boss.getJobById(JOB_NAMES.windowExecution, running!.id);
    // The next ten minutes arrive before the run ends; the workers start.
    await stream(day + 10 * MIN, day + 20 * MIN);
    await queue.work(featureJobHandlers(server.services));
    // The worker takes the waiting job while the ship's run goes on: it puts it off (sent again), runs nothing.
    await waitFor(async () => (await windowJobs(facilityId)).some((j) => j.status === 'skipped'), {
      what: "the worker to put off the ship's job while its run goes on",
    });
    expect((await windowJobs(facilityId)).filter((j) => j.status === 'done')).toEqual([]);
    // The ship's run ends (as the worker ends it once its handler answered).
    await queue.boss.complete(JOB_NAMES.windowExecution, running!.id);

    // One more run executes the second ten minutes, within the queue's polling of a few seconds (a worker's fetch,
    // a put-off job's second), not after the minute of pg-boss's queue cache.
    await queue.drained([JOB_NAMES.windowExecution], { timeoutMs: 15_000 });
    expect(await storedRows(facilityId)).toBeGreaterThanOrEqual(19);
    expect(
      await db().selectFrom('execution_windows').where('facility_id', '=', facilityId).selectAll().execute(),
    ).toEqual([]);
    const runs = (await windowJobs(facilityId)).filter((j) => j.status === 'done');
    expect(runs).toHaveLength(1);
  }, 120_000);
});
