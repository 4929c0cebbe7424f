import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { RecalculationJob } from '../../../jobs/contract';
import { clipToData, dependentFields, FacilityPlans, type FacilityPlan } from './recalculation-scope';

export type { FacilityPlan } from './recalculation-scope';

/**
 * Sub-step "plan a recalculation": what it recomputes, per ship: for a measurement field calculation still queued,
 * the field and every field and report field that reads it on its ship over its validity within the ship's data;
 * for a report field calculation, that field on every ship with data, over the same.
 */
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
  const plans = new FacilityPlans();
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
      const period = range && clipToData(range, calc.valid_from, calc.valid_to);
      if (!period) continue;
      const approved = await db
        .selectFrom('measurement_field_calculations')
        .select(['measurement_field_id', 'input_ids'])
        .where('facility_id', '=', calc.facility_id)
        .where('approved_on', 'is not', null)
        .execute();
      const { fields, reportFields } = dependentFields(calc.measurement_field_id, approved, reportInputs);
      plans.add(calc.facility_id, period.from, period.to, fields, reportFields);
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
        const period = clipToData(range, calc.valid_from, calc.valid_to);
        if (period) plans.add(range.id, period.from, period.to, [], [calc.report_field_id]);
      }
    }
  }
  return { calculationIds, facilities: plans.all() };
}
