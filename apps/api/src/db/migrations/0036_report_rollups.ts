import { sql, type Kysely } from 'kysely';

/**
 * Issue 34 (5,000 ships on one deployment): the monthly and per-ship-year roll-ups of the report values, beside the
 * daily one (docs/decisions/0124-rollups-and-fleet-benches.md). Per ship, report field and UTC calendar month (year)
 * the sum of the daily sums in day order, the count, min and max of the non-null hourly values, the number of spans
 * and the last day with a value; kept by storage/report-values-daily.ts in the transaction that refreshes the daily
 * rows (only the touched ship, fields and months). A fleet year is then one row per ship and field, a fleet lifetime
 * the ship's years, instead of 365 daily rows each. Filled here from the daily roll-up already stored. No trigger
 * of their own on the reports version: the daily roll-up's statements in the same transaction move it
 * (migration 0012).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE report_values_monthly (
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      report_field_id uuid NOT NULL REFERENCES report_fields(id) ON DELETE CASCADE,
      month date NOT NULL CHECK (extract(day from month) = 1),
      value_sum double precision NOT NULL,
      value_count integer NOT NULL,
      value_min double precision,
      value_max double precision,
      span_count integer NOT NULL,
      latest_day date,
      PRIMARY KEY (facility_id, report_field_id, month)
    );
    CREATE TABLE report_values_yearly (
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      report_field_id uuid NOT NULL REFERENCES report_fields(id) ON DELETE CASCADE,
      year date NOT NULL CHECK (extract(day from year) = 1 AND extract(month from year) = 1),
      value_sum double precision NOT NULL,
      value_count integer NOT NULL,
      value_min double precision,
      value_max double precision,
      span_count integer NOT NULL,
      latest_day date,
      PRIMARY KEY (facility_id, report_field_id, year)
    );
    INSERT INTO report_values_monthly
      SELECT facility_id, report_field_id, date_trunc('month', day)::date, sum(value_sum ORDER BY day),
             sum(value_count), min(value_min), max(value_max), sum(span_count),
             max(CASE WHEN value_count > 0 THEN day END)
      FROM report_values_daily GROUP BY 1, 2, 3;
    INSERT INTO report_values_yearly
      SELECT facility_id, report_field_id, date_trunc('year', month)::date, sum(value_sum ORDER BY month),
             sum(value_count), min(value_min), max(value_max), sum(span_count), max(latest_day)
      FROM report_values_monthly GROUP BY 1, 2, 3;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE report_values_yearly, report_values_monthly`.execute(db);
}
