import { sql } from 'kysely';
import type { JobContext, JobOutcome, WindowExecutionJob } from '../../jobs/contract';
import { JOB_NAMES } from '../../jobs/contract';
import { jobQueueOf, type Services } from '../../services';
import { computePeriod, ExecutionError, storeComputed } from './engine';
import { loadPlan } from './plan';
import type { EnginePorts } from './ports';
import type { RunOptions } from './run';
import { ceilDayExclusive, floorDay } from './series';
import { boundedWindows, executionWindow, mergeWindows, windowReach, type TimeWindow } from './live/windows';
import { ensureMonthPartitions } from '../../storage';

export { executionWindow, mergeWindows, windowReach, type TimeWindow } from './live/windows';

/** What a stream stored: a ship's data source's samples between two times (both included). */
export interface WindowExecutionRequest {
  facilityId: string;
  dataSourceId: string;
  /** The first and last sample's source time stored (epoch ms or Date). */
  from: number | Date;
  to: number | Date;
}

const ms = (t: number | Date) => (typeof t === 'number' ? t : t.getTime());

/**
 * Asks for the execution of the minutes a stream stored samples in (docs/decisions/0122-live-windows.md): the one
 * way in for streamed samples, called after they are stored (storage/samples.ts). In one transaction, the window is
 * merged into the ship's data source's waiting row (execution_windows) and a window-execution job is sent for the
 * ship under its singleton key, starting LIVE_WINDOW_DEBOUNCE_SECONDS later: while one waits, no other is made (the
 * waiting one executes the merged windows), so a busy ship has one job waiting and one running at most. Late data
 * (a window hours or days back) is a window of its own, executed with the others but not joined to them. Returns the
 * job sent, or null when the ship's waiting job takes the window.
 */
export async function requestWindowExecution(
  services: Services,
  request: WindowExecutionRequest,
): Promise<{ jobId: string | null }> {
  const from = ms(request.from);
  const to = ms(request.to) + 1;
  if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from)
    throw new RangeError(`A window's end must not be before its start (${request.from} - ${request.to})`);
  const { db } = services.database;
  const debounceSeconds = services.config.LIVE_WINDOW_DEBOUNCE_SECONDS ?? 2;
  return db.transaction().execute(async (trx) => {
    await sql`
      INSERT INTO execution_windows (facility_id, data_source_id)
      VALUES (${request.facilityId}, ${request.dataSourceId})
      ON CONFLICT (facility_id, data_source_id) DO NOTHING`.execute(trx);
    const row = await trx
      .selectFrom('execution_windows')
      .select(['id', 'windows'])
      .where('facility_id', '=', request.facilityId)
      .where('data_source_id', '=', request.dataSourceId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const windows = boundedWindows([...row.windows.map(([f, t]) => ({ from: f, to: t })), { from, to }]);
    await trx
      .updateTable('execution_windows')
      .set((eb) => ({
        windows: JSON.stringify(windows.map((w) => [w.from, w.to])),
        requests: eb('requests', '+', 1),
      }))
      .where('id', '=', row.id)
      .execute();
    const jobId = await jobQueueOf(services).sendSingletonInTransaction(
      trx,
      JOB_NAMES.windowExecution,
      { facilityId: request.facilityId },
      {
        singletonKey: request.facilityId,
        ...(debounceSeconds > 0 ? { startAfter: new Date(Date.now() + debounceSeconds * 1000) } : {}),
      },
    );
    return { jobId };
  });
}

/**
 * The window-execution job: the ship's waiting windows (every data source's, merged), each widened to the period the
 * engine executes (live/windows.ts: the calculations' grids and reach), computed and stored as an execution of
 * whole days is (computePeriod, storeComputed: values, report values, roll-up, events with the record book and
 * their alerts, the ledger around it), one transaction per window. Then each row whose requests did not move while
 * it ran is deleted; a moved row stays for the job its request sent. `timings` and the windows executed go to
 * `options` for the benchmark.
 */
export async function runWindowExecution(
  services: Services,
  ports: EnginePorts,
  job: WindowExecutionJob,
  _context: JobContext,
  options: RunOptions & { executed?: TimeWindow[] } = {},
): Promise<JobOutcome> {
  const { db } = services.database;
  const rows = await db
    .selectFrom('execution_windows')
    .select(['id', 'windows', 'requests'])
    .where('facility_id', '=', job.facilityId)
    .execute();
  const touched = mergeWindows(rows.flatMap((r) => r.windows.map(([from, to]) => ({ from, to }))));
  if (touched.length === 0) return { status: 'skipped', reason: 'No window waits for the ship' };
  try {
    const plan = await loadPlan(
      db,
      {
        facilityId: job.facilityId,
        from: floorDay(touched[0]!.from),
        to: ceilDayExclusive(touched[touched.length - 1]!.to - 1),
        measurementFieldIds: 'all',
        reportFieldIds: 'all',
      },
      ports.dataHealth,
    );
    const reach = windowReach(plan);
    const periods = mergeWindows(touched.map((w) => executionWindow(w, reach)));
    for (const period of periods) {
      const computed = await computePeriod(
        db,
        {
          facilityId: job.facilityId,
          from: period.from,
          to: period.to,
          measurementFieldIds: 'all',
          reportFieldIds: 'all',
          budgetMs: options.budgetMs ?? services.config.EXECUTION_BUDGET_MS,
          timings: options.timings,
        },
        ports,
      );
      // The period's month partitions (made once a month, in a short transaction of their own) before it stores.
      await ensureMonthPartitions(db, new Date(period.from), new Date(period.to - 1));
      await db.transaction().execute((trx) => storeComputed(trx, computed, ports));
      options.executed?.push(period);
    }
    for (const row of rows)
      await db
        .deleteFrom('execution_windows')
        .where('id', '=', row.id)
        .where('requests', '=', row.requests)
        .execute();
    return { status: 'done' };
  } catch (error) {
    if (error instanceof ExecutionError) return { status: 'failed', error: error.message, permanent: true };
    return { status: 'failed', error: (error as Error).message, permanent: false };
  }
}
