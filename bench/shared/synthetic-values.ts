import { sql, type Kysely } from 'kysely';
import { DEFAULT_REPORT_KPIS } from '@portal/formula';
import type { Database } from '../../apps/api/src/db/schema';
import { refreshDailyRollup } from '../../apps/api/src/features/executions/rollup';
import { reportFieldValueSources } from '../../apps/api/src/features/reports/sources';

/**
 * Believable hourly values of every default report KPI, generated in SQL for the dashboard and load
 * benchmarks (100 ships x a year is too much to run through the real pipeline for each run). The
 * expressions read `ts` (the hour) and `f.n` (the ship's number) from the query they are used in.
 */
/** A pseudo-random number in [0, 1) per hour and field, the same every run. */
export const syntheticRandom = (salt: number) =>
  sql`(((extract(epoch from ts)::bigint / 3600) * 7919 + ${salt} * 104729 + f.n * 15485863) % 1000) / 1000.0`;

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
};

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
  const kpiOf = (fieldId: string) =>
    DEFAULT_REPORT_KPIS.find(
      (k) => k.transformAlgorithm === calcs.find((c) => c.report_field_id === fieldId)?.transform_algorithm,
    )!.key;
  const started = Date.now();
  for (const [i, ship] of ships.entries()) {
    for (const [salt, fieldId] of computed.entries()) {
      const value = SYNTHETIC_REPORT_VALUES[kpiOf(fieldId)]!(salt);
      await sql`
        insert into report_values (facility_id, report_field_id, span_start, value)
        select ${ship.id}::uuid, ${fieldId}::uuid, ts, case when ${syntheticRandom(salt + 50)} < 0.03 then null else ${value} end
        from (select ${i}::int as n) f, generate_series(${period.from}::timestamptz, ${period.to}::timestamptz, interval '1 hour') ts`.execute(
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
