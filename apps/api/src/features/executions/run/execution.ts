import type { ExecutionCounts } from '@portal/contracts/executions';
import type { ExecutionJob, JobContext, JobOutcome } from '../../../jobs/contract';
import type { Services } from '../../../services';
import { computePeriod, storeComputed, type ComputeRequest } from '../engine';
import type { EnginePorts } from '../ports';
import { ceilDayExclusive, floorDay } from '../series';
import { recordFailure } from './failure';
import { ensureMonthPartitions, placeWaitingRows } from '../../../storage';
import type { RunOptions } from './options';

/** Runs one execution row: marks it running, computes its period and replaces the values, marking it done in the same transaction. */
export async function runExecution(
  services: Services,
  ports: EnginePorts,
  job: ExecutionJob,
  context: JobContext,
  options: RunOptions = {},
): Promise<JobOutcome> {
  const { db } = services.database;
  const claimed = await db
    .updateTable('executions')
    .set((eb) => ({
      state: 'running',
      started_on: new Date(),
      finished_on: null,
      counts: null,
      attempts: eb('attempts', '+', 1),
      job_id: context.jobId,
    }))
    .where('id', '=', job.executionId)
    .where('state', 'in', ['queued', 'running', 'failed'])
    .returning(['id', 'facility_id', 'period_from', 'period_to', 'kind', 'detail', 'data_file_ids'])
    .executeTakeFirst();
  if (!claimed) return { status: 'skipped', reason: 'The execution is done already or no longer exists' };
  try {
    await options.hooks?.afterClaim?.();
    const detail = (claimed.detail ?? {}) as { measurementFieldIds?: string[]; reportFieldIds?: string[] };
    const request: ComputeRequest = {
      facilityId: claimed.facility_id,
      from: floorDay(new Date(claimed.period_from).getTime()),
      to: ceilDayExclusive(new Date(claimed.period_to).getTime() - 1),
      measurementFieldIds: detail.measurementFieldIds ? new Set(detail.measurementFieldIds) : 'all',
      reportFieldIds: detail.reportFieldIds ? new Set(detail.reportFieldIds) : 'all',
      budgetMs: options.budgetMs ?? services.config.EXECUTION_BUDGET_MS,
      timings: options.timings,
    };
    const computed = await computePeriod(db, request, ports);
    // The period's month partitions, made (in a short transaction of their own) before the replacing one.
    await ensureMonthPartitions(db, new Date(request.from), new Date(request.to - 1));
    const started = performance.now();
    await db.transaction().execute(async (trx) => {
      const { reportRows } = await storeComputed(trx, computed, ports);
      await options.hooks?.beforeCommit?.();
      const counts: ExecutionCounts = {
        files: (claimed.data_file_ids ?? []).length,
        ...computed.counts,
        reportValues: reportRows,
      };
      await trx
        .updateTable('executions')
        .set({ state: 'done', finished_on: new Date(), error: null, counts: JSON.stringify(counts) })
        .where('id', '=', claimed.id)
        .execute();
    });
    if (options.timings)
      options.timings['commit'] = (options.timings['commit'] ?? 0) + (performance.now() - started);
    options.hooks?.afterCommit?.();
    // Rows written past the month partitions made before (a long period's middle) go into their months now; the
    // execution is done whatever becomes of this (the storage-months job moves them on its beat otherwise).
    await placeWaitingRows(db).catch(() => undefined);
    return { status: 'done' };
  } catch (error) {
    return recordFailure(db, claimed.id, error, context);
  }
}
