import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { JOB_NAMES, type RecalculationJob } from '../../jobs/contract';
import { jobQueueOf, type Services } from '../../services';
import { deleteDerivedSeries } from '../../storage';
import { withdrawEvents } from './store-events';
import { planRecalculation } from './run';
import { DAY_MS, floorDay } from './series';

/**
 * The values derived from a ship's samples in [from, to]: every derived series' values of the range (measurement
 * field values in the range, the report values of the hours it touches and their daily roll-up) and the events
 * starting in it, in one transaction. Used when a file is deleted with its data.
 */
export async function deleteDerivedValues(
  db: Kysely<Database>,
  facilityId: string,
  from: Date,
  to: Date,
): Promise<{ measurementChunks: number; reportValues: number }> {
  return db.transaction().execute(async (trx) => {
    // Every series derived from the samples (storage/derived-series.ts), then the events derived from them (the
    // record book notes each).
    const { measurementChunks, reportValues } = await deleteDerivedSeries(trx, facilityId, from, to);
    await withdrawEvents(trx, facilityId, from.getTime(), to.getTime() + 1);
    return { measurementChunks, reportValues };
  });
}

export interface EnqueueExecution {
  facilityId: string;
  from: Date;
  to: Date;
  dataFileIds?: string[];
  requestedBy?: string | null;
}

/**
 * Inserts an execution row (queued) and its job in one transaction (or in `db`'s, when it is one: an audited
 * change's); returns the row id.
 */
export async function enqueueExecution(
  services: Services,
  input: EnqueueExecution,
  db: Kysely<Database> = services.database.db,
): Promise<string> {
  const queue = jobQueueOf(services);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('executions')
      .values({
        facility_id: input.facilityId,
        kind: 'execute',
        period_from: input.from,
        period_to: input.to,
        data_file_ids: JSON.stringify(input.dataFileIds ?? []),
        state: 'queued',
        requested_by: input.requestedBy ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const jobId = await queue.sendInTransaction(trx, JOB_NAMES.execution, { executionId: row.id });
    await trx.updateTable('executions').set({ job_id: jobId }).where('id', '=', row.id).execute();
    return row.id;
  });
}

/**
 * Queues a recalculation (the queue screen's Execute) inside the request's transaction `trx`, where the
 * calculations were just marked queued: one execution row per ship it concerns, state queued, so the processing
 * status lists them at once, and one job that runs those rows (runRecalculation, run.ts). Returns the row ids.
 */
export async function enqueueRecalculation(
  services: Services,
  trx: Kysely<Database>,
  job: { kind: RecalculationJob['kind']; calculationIds: string[] },
): Promise<string[]> {
  const queue = jobQueueOf(services);
  const plan = await planRecalculation(trx, job);
  const executionIds: string[] = [];
  for (const facility of plan.facilities) {
    const row = await trx
      .insertInto('executions')
      .values({
        facility_id: facility.facilityId,
        kind: 'recalculation',
        period_from: new Date(facility.from),
        period_to: new Date(facility.to),
        state: 'queued',
        detail: JSON.stringify({
          calculationIds: plan.calculationIds,
          measurementFieldIds: facility.measurementFieldIds,
          reportFieldIds: facility.reportFieldIds,
        }),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    executionIds.push(row.id);
  }
  const jobId = await queue.sendInTransaction(trx, JOB_NAMES.recalculation, { ...job, executionIds });
  if (executionIds.length)
    await trx.updateTable('executions').set({ job_id: jobId }).where('id', 'in', executionIds).execute();
  return executionIds;
}

/**
 * Cancelling (queued -> requested) in `trx`: the queued recalculation rows none of whose calculations is still
 * queued go (they never ran; their job then finds no row and does nothing). Returns how many went.
 */
export async function removeCancelledRecalculations(
  trx: Kysely<Database>,
  kind: RecalculationJob['kind'],
  calculationIds: string[],
): Promise<number> {
  if (calculationIds.length === 0) return 0;
  const table = kind === 'measurement-field' ? 'measurement_field_calculations' : 'report_field_calculations';
  const result = await trx
    .deleteFrom('executions as e')
    .where('e.kind', '=', 'recalculation')
    .where('e.state', '=', 'queued')
    .where(sql<boolean>`e.detail->'calculationIds' ?| ${sql.val(calculationIds)}::text[]`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom(table)
            .select(sql`1`.as('one'))
            .where(sql<boolean>`id::text in (select jsonb_array_elements_text(e.detail->'calculationIds'))`)
            .where('recalculation_queued_on', 'is not', null),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

/**
 * Recalculates a ship's range from the samples that remain (after a file and its data were deleted): an execution of
 * the whole UTC days touching [from, to]. Returns the execution id.
 */
export async function requestRecalculation(
  services: Services,
  facilityId: string,
  from: Date,
  to: Date,
  db: Kysely<Database> = services.database.db,
): Promise<string> {
  return enqueueExecution(
    services,
    {
      facilityId,
      from: new Date(floorDay(from.getTime())),
      to: new Date(floorDay(to.getTime()) + DAY_MS - 1),
    },
    db,
  );
}

/** Executions of these rows that are not finished yet. */
export async function pendingExecutions(db: Kysely<Database>, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const row = await db
    .selectFrom('executions')
    .select(sql<number>`count(*)`.as('n'))
    .where('id', 'in', ids)
    .where('state', 'in', ['queued', 'running'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
