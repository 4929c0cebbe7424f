import { sql } from 'kysely';
import type { JobContext, JobOutcome, RecalculationJob } from '../../../jobs/contract';
import type { Services } from '../../../services';
import type { EnginePorts } from '../ports';
import { runExecution } from './execution';
import type { RunOptions } from './options';
import { planRecalculation } from './recalculation-plan';

/**
 * A queued recalculation: for every calculation still queued, the field (and the measurement and report fields that
 * read it) is recomputed over the calculation's validity on every ship it concerns (a measurement field
 * calculation: its ship; a report field calculation: every ship with values), one execution row per ship; then
 * both recalculation dates are cleared. The rows were made (queued) with the request; the plan is made again here
 * (a calculation may have been cancelled, a ship may have new data), each row takes its ship's period, a ship no
 * longer concerned loses its row, and a ship newly concerned gets one. A retry reuses the rows (one per ship).
 */
export async function runRecalculation(
  services: Services,
  ports: EnginePorts,
  job: RecalculationJob,
  context: JobContext,
  options: RunOptions = {},
): Promise<JobOutcome> {
  const { db } = services.database;
  const rows = db.selectFrom('executions').select(['id', 'facility_id', 'state']);
  const made = job.executionIds
    ? job.executionIds.length
      ? await rows.where('id', 'in', job.executionIds).execute()
      : []
    : await rows
        .where('kind', '=', 'recalculation')
        .where(sql<boolean>`detail->>'jobId' = ${context.jobId}`)
        .execute();
  // Cancelling removes the rows of a recalculation no calculation of which is still queued (cancelRecalculations).
  if (job.executionIds?.length && made.length === 0)
    return { status: 'skipped', reason: 'The recalculation was cancelled' };
  const plans = await planRecalculation(db, job);
  const planned = new Set(plans.facilities.map((p) => p.facilityId));
  const unneeded = made.filter((m) => m.state === 'queued' && !planned.has(m.facility_id)).map((m) => m.id);
  if (unneeded.length) await db.deleteFrom('executions').where('id', 'in', unneeded).execute();
  if (plans.calculationIds.length === 0)
    return { status: 'skipped', reason: 'Nothing is queued any more (cancelled)' };
  for (const plan of plans.facilities) {
    const detail = JSON.stringify({
      jobId: context.jobId,
      calculationIds: plans.calculationIds,
      measurementFieldIds: plan.measurementFieldIds,
      reportFieldIds: plan.reportFieldIds,
    });
    let execution = made.find((m) => m.facility_id === plan.facilityId);
    if (!execution) {
      execution = await db
        .insertInto('executions')
        .values({
          facility_id: plan.facilityId,
          kind: 'recalculation',
          period_from: new Date(plan.from),
          period_to: new Date(plan.to),
          state: 'queued',
          detail,
        })
        .returning(['id', 'facility_id', 'state'])
        .executeTakeFirstOrThrow();
    } else if (execution.state !== 'done') {
      await db
        .updateTable('executions')
        .set({ period_from: new Date(plan.from), period_to: new Date(plan.to), detail })
        .where('id', '=', execution.id)
        .where('state', '!=', 'done')
        .execute();
    }
    if (execution.state === 'done') continue;
    const outcome = await runExecution(services, ports, { executionId: execution.id }, context, options);
    if (outcome.status === 'failed') return outcome;
  }
  const table =
    job.kind === 'measurement-field' ? 'measurement_field_calculations' : 'report_field_calculations';
  await db
    .updateTable(table)
    .set({ recalculation_requested_on: null, recalculation_queued_on: null })
    .where('id', 'in', plans.calculationIds)
    .where('recalculation_queued_on', 'is not', null)
    .execute();
  return { status: 'done' };
}
