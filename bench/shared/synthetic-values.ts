import { sql, type Kysely } from 'kysely';
import { DEFAULT_REPORT_KPIS } from '@portal/formula';
import type { Database } from '../../apps/api/src/db/schema';
import { refreshDailyRollup } from '../../apps/api/src/storage';
import { reportFieldValueSources } from '../../apps/api/src/features/reports/sources';

/**
 * Believable hourly values of every default report KPI, generated in SQL for the dashboard and load
 * benchmarks (100 ships x a year is too much to run through the real pipeline for each run). The
 * expressions read `ts` (the hour) and `f.n` (the ship's number, a bigint) from the query they are used in.
 */
/**
 * A pseudo-random number in [0, 1) per hour and field, the same every run. In bigint throughout: the ship's number
 * times 15485863 passes 2^31 from the 139th ship on (an integer overflow ended the fill of a bigger fleet).
 */
export const syntheticRandom = (salt: number) =>
  sql`(((extract(epoch from ts)::bigint / 3600) * 7919 + ${salt}::bigint * 104729 + f.n * 15485863) % 1000) / 1000.0`;

/** An hour of the day, 0..23. */
const hourOfDay = sql`((extract(epoch from ts)::bigint / 3600) % 24)`;

export const SYNTHETIC_REPORT_VALUES: Record<string, (salt: number) => ReturnType<typeof sql>> = {
  MarpolCompliance: (s) =>
    sql`case when ${syntheticRandom(s)} > 0.1 then 100 else 60 + ${syntheticRandom(s)} * 300 end`,
  OperationalAvailability: (s) =>
    sql`case when ${syntheticRandom(s)} > 0.15 then 100 when ${syntheticRandom(s)} > 0.08 then 110 else 80 + ${syntheticRandom(s)} * 100 end`,
  SO2CO2Ratio: (s) => sql`1 + ${syntheticRandom(s)} * 5`,
  SO2CO2Limit: () => sql`case when (extract(epoch from ts)::bigint / 3600) % 48 < 12 then 4.3 else 21.7 end`,
  RatioMargin: (s) => sql`20 + ${syntheticRandom(s)} * 60`,
  SfocImpact: (s) => sql`1.5 + ${syntheticRandom(s)} * 1.5`,
  TotalCO2Emission: (s) => sql`2 + ${syntheticRandom(s)} * 3`,
  ExtraRemovalOfSulfur: (s) => sql`0.01 + ${syntheticRandom(s)} * 0.02`,
  CO2Reduction: (s) => sql`0.05 + ${syntheticRandom(s)} * 0.05`,
  // Washwater: no value in a fifth of the hours (not discharging); a breach now and then.
  WashwaterCompliance: (s) =>
    sql`case when ${syntheticRandom(s)} < 0.2 then null when ${syntheticRandom(s)} < 0.25 then 0 else 100 end`,
  WashwaterPh: (s) => sql`6.3 + ${syntheticRandom(s)} * 1.2`,
  WashwaterPhLimit: () => sql`case when ${hourOfDay} < 2 then 5.9 else 6.5 end`,
  WashwaterPahAboveInlet: (s) => sql`5 + ${syntheticRandom(s)} * 30`,
  WashwaterPahLimit: (s) => sql`40 + ${syntheticRandom(s)} * 30`,
  WashwaterTurbidityAboveInlet: (s) => sql`2 + ${syntheticRandom(s)} * 15`,
  WashwaterTurbidityLimit: () => sql`25`,
  OpenLoopInNoDischargeZoneHours: (s) =>
    sql`case when ${syntheticRandom(s)} < 0.05 then ${syntheticRandom(s)} * 20 else 0 end`,
};

/** The synthetic values of a default KPI; an error naming it when this file has none (a KPI added since). */
function syntheticValue(key: string, salt: number): ReturnType<typeof sql> {
  const value = SYNTHETIC_REPORT_VALUES[key];
  if (!value)
    throw new Error(
      `No synthetic values for the default KPI ${key}: add them to bench/shared/synthetic-values.ts`,
    );
  return value(salt);
}

/**
 * Fills a period of hourly report values for every computed default report field of every ship (about 3 % of the
 * hours without a value), then the daily roll-up, and analyzes the tables; logs progress every 10 ships.
 */
export async function fillSyntheticReportValues(
  db: Kysely<Database>,
  ships: readonly { id: string }[],
  period: { from: string; to: string },
): Promise<void> {
  const { computed } = await reportFieldValueSources(db);
  const calcs = await db
    .selectFrom('report_field_calculations')
    .select(['report_field_id', 'transform_algorithm'])
    .where('report_field_id', 'in', computed)
    .execute();
  const kpiOf = (fieldId: string) => {
    const algorithm = calcs.find((c) => c.report_field_id === fieldId)?.transform_algorithm;
    const kpi = DEFAULT_REPORT_KPIS.find((k) => k.transformAlgorithm === algorithm);
    if (!kpi) throw new Error(`The report field ${fieldId} is computed by no default KPI's calculation`);
    return kpi.key;
  };
  const values = computed.map((fieldId, salt) => ({
    fieldId,
    salt,
    value: syntheticValue(kpiOf(fieldId), salt),
  }));
  const started = Date.now();
  for (const [i, ship] of ships.entries()) {
    for (const { fieldId, salt, value } of values) {
      await sql`
        insert into report_values (facility_id, report_field_id, span_start, value)
        select ${ship.id}::uuid, ${fieldId}::uuid, ts, case when ${syntheticRandom(salt + 50)} < 0.03 then null else ${value} end
        from (select ${i}::bigint as n) f, generate_series(${period.from}::timestamptz, ${period.to}::timestamptz, interval '1 hour') ts`.execute(
        db,
      );
    }
    await refreshDailyRollup(db, ship.id, 'all', new Date(period.from), new Date(period.to));
    if (i % 10 === 9)
      console.log(`filled ${i + 1}/${ships.length} ships (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  await sql`analyze report_values; analyze report_values_daily`.execute(db);
  console.log(`report values: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
