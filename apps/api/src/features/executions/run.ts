import { sql, type Kysely } from 'kysely';
import type { ExecutionCounts } from '@portal/contracts/executions';
import type { Database } from '../../db/schema';
import type { ExecutionJob, JobContext, JobOutcome, RecalculationJob } from '../../jobs/contract';
import type { Services } from '../../services';
import { computePeriod, storeComputed, ExecutionError, type ComputeRequest } from './engine';
import type { EnginePorts } from './ports';
import { ceilDayExclusive, floorDay } from './series';

/**
 * Running executions, as the execution jobs do (jobs.ts hands them the queue's jobs). An execution row (executions)
 * is what users see: queued -> running -> done | failed. A run is idempotent: its values replace the period's values
 * in one transaction that also marks the row done, so a rerun after a crash finds the row done and changes nothing,
 * and a rerun after a crash mid-way computes the same values again (docs/decisions/0040-execution.md). What the
 * engine needs of alerts and data health comes through `ports` (ports.ts).
 */

/**
 * Points inside a run where tests step in (apps/api/test/worker-with-hooks.ts): production passes none. They run in
 * the order of a real run, so a test can hold the replacing transaction open or end the process after its commit.
 */
export interface RunHooks {
  /** After the row is marked running (committed), before anything is read: a test holds a run here. */
  afterClaim?: () => Promise<void>;
  /** Inside the replacing transaction, after the values are written and before the row is marked done. */
  beforeCommit?: () => Promise<void>;
  /** After the commit, before the queue hears of the outcome. */
  afterCommit?: () => void;
}

/** Engine options: the time budget (config's EXECUTION_BUDGET_MS), and for tests and benchmarks timings and hooks. */
export interface RunOptions {
  budgetMs?: number;
  timings?: Record<string, number>;
  hooks?: RunHooks;
}

/** Marks a failure: permanent errors and the last retry fail the row; earlier retries put it back in the queue. */
async function recordFailure(
  db: Kysely<Database>,
  executionId: string,
  error: unknown,
  context: JobContext,
): Promise<JobOutcome> {
  const permanent = error instanceof ExecutionError;
  const message = error instanceof Error ? error.message : String(error);
  const last = permanent || context.retryCount >= context.retryLimit;
  await db
    .updateTable('executions')
    .set(
      last
        ? { state: 'failed', finished_on: new Date(), error: message }
        : { state: 'queued', error: `Attempt ${context.retryCount + 1} failed, retrying: ${message}` },
    )
    .where('id', '=', executionId)
    .where('state', '!=', 'done')
    .execute();
  return { status: 'failed', error: message, permanent };
}

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
    return { status: 'done' };
  } catch (error) {
    return recordFailure(db, claimed.id, error, context);
  }
}

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

interface FacilityPlan {
  facilityId: string;
  from: number;
  to: number;
  measurementFieldIds: string[];
  reportFieldIds: string[];
}

/** What a recalculation recomputes, per ship. */
export async function planRecalculation(
  db: Kysely<Database>,
  job: RecalculationJob,
): Promise<{ calculationIds: string[]; facilities: FacilityPlan[] }> {
  if (job.calculationIds.length === 0) return { calculationIds: [], facilities: [] };
  const reportInputs = await db
    .selectFrom('report_field_calculations')
    .select(['report_field_id', 'input_ids'])
    .where('approved_on', 'is not', null)
    .execute();
  const plans = new Map<string, FacilityPlan>();
  const add = (
    facilityId: string,
    from: number,
    to: number,
    measurementFieldIds: string[],
    reportFieldIds: string[],
  ) => {
    const plan = plans.get(facilityId) ?? {
      facilityId,
      from,
      to,
      measurementFieldIds: [],
      reportFieldIds: [],
    };
    plan.from = Math.min(plan.from, from);
    plan.to = Math.max(plan.to, to);
    plan.measurementFieldIds = [...new Set([...plan.measurementFieldIds, ...measurementFieldIds])];
    plan.reportFieldIds = [...new Set([...plan.reportFieldIds, ...reportFieldIds])];
    plans.set(facilityId, plan);
  };
  const dataRange = async (facilityIds?: string[]) => {
    let query = db
      .selectFrom('facilities')
      .select(['id', 'data_timestamp_min', 'data_timestamp_max'])
      .where('data_timestamp_min', 'is not', null)
      .where('data_timestamp_max', 'is not', null);
    if (facilityIds)
      query = query.where(
        'id',
        'in',
        facilityIds.length ? facilityIds : ['00000000-0000-0000-0000-000000000000'],
      );
    return query.execute();
  };
  const clip = (
    range: { data_timestamp_min: Date | null; data_timestamp_max: Date | null },
    validFrom: Date | null,
    validTo: Date | null,
  ) => {
    const from = Math.max(
      new Date(range.data_timestamp_min!).getTime(),
      validFrom ? new Date(validFrom).getTime() : -Infinity,
    );
    const to = Math.min(
      new Date(range.data_timestamp_max!).getTime() + 1,
      validTo ? new Date(validTo).getTime() : Infinity,
    );
    return to > from ? { from, to } : null;
  };

  let calculationIds: string[];
  if (job.kind === 'measurement-field') {
    const calcs = await db
      .selectFrom('measurement_field_calculations')
      .select(['id', 'facility_id', 'measurement_field_id', 'valid_from', 'valid_to'])
      .where('id', 'in', job.calculationIds)
      .where('recalculation_queued_on', 'is not', null)
      .execute();
    calculationIds = calcs.map((c) => c.id);
    const ranges = new Map(
      (await dataRange([...new Set(calcs.map((c) => c.facility_id))])).map((r) => [r.id, r]),
    );
    for (const calc of calcs) {
      const range = ranges.get(calc.facility_id);
      const period = range && clip(range, calc.valid_from, calc.valid_to);
      if (!period) continue;
      // The field and every field that reads it, directly or through others, on that ship.
      const approved = await db
        .selectFrom('measurement_field_calculations')
        .select(['measurement_field_id', 'input_ids'])
        .where('facility_id', '=', calc.facility_id)
        .where('approved_on', 'is not', null)
        .execute();
      const fields = new Set([calc.measurement_field_id]);
      for (let grew = true; grew;) {
        grew = false;
        for (const a of approved) {
          if (!fields.has(a.measurement_field_id) && (a.input_ids ?? []).some((id) => fields.has(id))) {
            fields.add(a.measurement_field_id);
            grew = true;
          }
        }
      }
      const reportFields = reportInputs
        .filter((r) => (r.input_ids ?? []).some((id) => fields.has(id)))
        .map((r) => r.report_field_id);
      add(calc.facility_id, period.from, period.to, [...fields], reportFields);
    }
  } else {
    const calcs = await db
      .selectFrom('report_field_calculations')
      .select(['id', 'report_field_id', 'valid_from', 'valid_to'])
      .where('id', 'in', job.calculationIds)
      .where('recalculation_queued_on', 'is not', null)
      .execute();
    calculationIds = calcs.map((c) => c.id);
    const ranges = calcs.length ? await dataRange() : [];
    for (const calc of calcs) {
      for (const range of ranges) {
        const period = clip(range, calc.valid_from, calc.valid_to);
        if (period) add(range.id, period.from, period.to, [], [calc.report_field_id]);
      }
    }
  }
  return { calculationIds, facilities: [...plans.values()] };
}
