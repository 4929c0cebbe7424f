import { sql, type Kysely } from 'kysely';

/**
 * Issue 34 (a ship-year in seconds): a report value series is stored once per value source, not once per report field
 * (docs/decisions/0132-report-series-once.md). The fields whose approved calculations are the same over their whole
 * history (algorithm text trimmed, inputs, span, validity of every approved version) compute the same values on every
 * ship; they were written once each and read through the group's first field (by report and field position), their
 * value source (0030). From now on `report_values` and its daily, monthly and yearly roll-ups hold the rows of value
 * sources only, and `report_field_id` names the source. This removes the copies: the rows of every field that is not
 * its own source, in the online months (an archived month keeps its copies, which nothing reads; a restore brings them
 * back unread until the month is computed again). What each field reads is unchanged: it read its source's rows
 * before. The partitions stay as they are (plain deletes). The grouping below is storage/report-value-sources.ts's as
 * of this migration, kept here so that the migration does not change when that module does.
 */
const TABLES = [
  'report_values',
  'report_values_daily',
  'report_values_monthly',
  'report_values_yearly',
] as const;

async function sourcesOf(db: Kysely<any>): Promise<Map<string, string>> {
  const { rows } = await sql<{
    id: string;
    transform_algorithm: string | null;
    input_ids: unknown;
    algorithm_seconds_span: number | null;
    valid_from: Date | null;
    valid_to: Date | null;
  }>`
    SELECT f.id, c.transform_algorithm, c.input_ids, c.algorithm_seconds_span, c.valid_from, c.valid_to
    FROM report_fields f
    JOIN reports r ON r.id = f.report_id
    LEFT JOIN report_field_calculations c ON c.report_field_id = f.id AND c.approved_on IS NOT NULL
    ORDER BY r.position, r.id, f.position, f.id, c.valid_from`.execute(db);
  const calculationsOf = new Map<string, unknown[]>();
  for (const row of rows) {
    if (!calculationsOf.has(row.id)) calculationsOf.set(row.id, []);
    if (row.transform_algorithm === null) continue;
    calculationsOf
      .get(row.id)!
      .push([
        row.transform_algorithm.trim(),
        row.input_ids,
        row.algorithm_seconds_span,
        row.valid_from ? new Date(row.valid_from).getTime() : null,
        row.valid_to ? new Date(row.valid_to).getTime() : null,
      ]);
  }
  const sourceOf = new Map<string, string>();
  const firstBySignature = new Map<string, string>();
  for (const [id, calculations] of calculationsOf) {
    if (calculations.length === 0) continue;
    const key = JSON.stringify(calculations);
    const first = firstBySignature.get(key);
    if (first) sourceOf.set(id, first);
    else firstBySignature.set(key, id);
  }
  return sourceOf;
}

export async function up(db: Kysely<any>): Promise<void> {
  const copies = [...(await sourcesOf(db)).keys()];
  if (copies.length > 0)
    for (const table of TABLES)
      await sql`DELETE FROM ${sql.table(table)} WHERE report_field_id = ANY(${copies}::uuid[])`.execute(db);
  for (const table of TABLES)
    await sql`
      COMMENT ON COLUMN ${sql.table(table)}.report_field_id IS ${sql.lit(
        'The value source: the first report field of those whose approved calculations are the same (docs/decisions/0132)',
      )}
    `.execute(db);
}

/** Writes the copies again: every field that is not its own source gets its source's rows. */
export async function down(db: Kysely<any>): Promise<void> {
  const pairs = [...(await sourcesOf(db))];
  const columns = {
    report_values: 'span_start, value',
    report_values_daily: 'day, value_sum, value_count, value_min, value_max, span_count',
    report_values_monthly: 'month, value_sum, value_count, value_min, value_max, span_count, latest_day',
    report_values_yearly: 'year, value_sum, value_count, value_min, value_max, span_count, latest_day',
  };
  for (const table of TABLES) {
    await sql`COMMENT ON COLUMN ${sql.table(table)}.report_field_id IS NULL`.execute(db);
    if (pairs.length === 0) continue;
    const copies = sql.join(pairs.map(([field, source]) => sql`(${source}::uuid, ${field}::uuid)`));
    await sql`
      INSERT INTO ${sql.table(table)} (facility_id, report_field_id, ${sql.raw(columns[table])})
      SELECT t.facility_id, m.field_id, ${sql.raw(columns[table].replace(/(\w+)/g, 't.$1'))}
      FROM ${sql.table(table)} t JOIN (VALUES ${copies}) AS m (source_id, field_id) ON t.report_field_id = m.source_id
      ON CONFLICT DO NOTHING`.execute(db);
  }
}
