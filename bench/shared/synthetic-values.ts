import { sql } from 'kysely';

/**
 * Believable hourly values of every default report KPI, generated in SQL for the dashboard and load
 * benchmarks (100 ships x a year is too much to run through the real pipeline for each run). The
 * expressions read `ts` (the hour) and `f.n` (the ship's number) from the query they are used in.
 */
/** A pseudo-random number in [0, 1) per hour and field, the same every run. */
export const syntheticRandom = (salt: number) => sql`(((extract(epoch from ts)::bigint / 3600) * 7919 + ${salt} * 104729 + f.n * 15485863) % 1000) / 1000.0`;

export const SYNTHETIC_REPORT_VALUES: Record<string, (salt: number) => ReturnType<typeof sql>> = {
  MarpolCompliance: (s) => sql`case when ${syntheticRandom(s)} > 0.1 then 100 else 60 + ${syntheticRandom(s)} * 300 end`,
  OperationalAvailability: (s) => sql`case when ${syntheticRandom(s)} > 0.15 then 100 when ${syntheticRandom(s)} > 0.08 then 110 else 80 + ${syntheticRandom(s)} * 100 end`,
  SO2CO2Ratio: (s) => sql`1 + ${syntheticRandom(s)} * 5`,
  SO2CO2Limit: () => sql`case when (extract(epoch from ts)::bigint / 3600) % 48 < 12 then 4.3 else 21.7 end`,
  RatioMargin: (s) => sql`20 + ${syntheticRandom(s)} * 60`,
  SfocImpact: (s) => sql`1.5 + ${syntheticRandom(s)} * 1.5`,
  TotalCO2Emission: (s) => sql`2 + ${syntheticRandom(s)} * 3`,
  ExtraRemovalOfSulfur: (s) => sql`0.01 + ${syntheticRandom(s)} * 0.02`,
  CO2Reduction: (s) => sql`0.05 + ${syntheticRandom(s)} * 0.05`,
};
