import { sql, type Kysely } from 'kysely';

/**
 * Month partitions of the large tables (docs/decisions/0125-partitions-and-retention.md): the names and the DDL that
 * both the migration (0037) and the storage modules (storage/partitions.ts) use, so a partition made by either has
 * the same name and bounds. Plain declarative partitioning (PARTITION BY RANGE), which PGlite and PostgreSQL both
 * have; pg_partman is not used (not installed on these machines, and PGlite has no extensions of that kind).
 *
 * A table `T` partitioned by the time column `c` has `T_default` (the DEFAULT partition: rows of a month that has
 * no partition yet land there, so nothing is ever refused or lost) and `T_yYYYYmMM`, the rows with
 * `c >= YYYY-MM-01 00:00 UTC` and `c <` the first of the next month.
 */

/** A partitioned table and its time column; `date` columns are UTC days, `timestamptz` instants. */
export interface PartitionedTable {
  table: string;
  column: string;
  kind: 'date' | 'timestamptz';
}

/** The schema where archived months' partitions are kept, detached, until they are restored (or deleted). */
export const ARCHIVE_SCHEMA = 'portal_archive';

/** A month as `YYYY-MM` (UTC). */
export type Month = string;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isMonth(text: string): text is Month {
  return MONTH.test(text);
}

/** The month (UTC) of an instant. */
export function monthOf(at: Date | number): Month {
  const d = new Date(at);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The month `n` months after `month` (n may be negative). */
export function addMonths(month: Month, n: number): Month {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Every month from `from` to `to`, both included (none when `to` is before `from`). */
export function monthsBetween(from: Month, to: Month): Month[] {
  const months: Month[] = [];
  for (let m = from; m <= to; m = addMonths(m, 1)) months.push(m);
  return months;
}

/** The first instant of the month, UTC. */
export function monthStart(month: Month): Date {
  return new Date(`${month}-01T00:00:00Z`);
}

export function partitionName(table: string, month: Month): string {
  return `${table}_y${month.slice(0, 4)}m${month.slice(5, 7)}`;
}

export function defaultPartitionName(table: string): string {
  return `${table}_default`;
}

/** The bound literal of a month's start for the table's column kind (UTC, whatever the session's time zone). */
export function boundOf(kind: PartitionedTable['kind'], month: Month): string {
  return kind === 'date' ? `${month}-01` : `${month}-01 00:00:00+00`;
}

/** The range clause of a month's partition. */
export function monthBounds(spec: PartitionedTable, month: Month) {
  return sql`FOR VALUES FROM (${sql.lit(boundOf(spec.kind, month))}) TO (${sql.lit(boundOf(spec.kind, addMonths(month, 1)))})`;
}

/** Creates the month's partition; the caller made sure the default partition holds no row of that month. */
export async function createMonthPartition(db: Kysely<any>, spec: PartitionedTable, month: Month) {
  await sql`CREATE TABLE IF NOT EXISTS ${sql.id(partitionName(spec.table, month))} PARTITION OF ${sql.id(spec.table)} ${monthBounds(spec, month)}`.execute(
    db,
  );
}

/** The months that have rows in a table (or in one of its partitions), oldest first. */
export async function monthsWithRows(
  db: Kysely<any>,
  table: string,
  spec: PartitionedTable,
): Promise<Month[]> {
  const month =
    spec.kind === 'date'
      ? sql`to_char(${sql.id(spec.column)}, 'YYYY-MM')`
      : sql`to_char(${sql.id(spec.column)} AT TIME ZONE 'UTC', 'YYYY-MM')`;
  const { rows } = await sql<{
    month: string;
  }>`SELECT DISTINCT ${month} AS month FROM ${sql.id(table)} ORDER BY 1`.execute(db);
  return rows.map((r) => r.month);
}

/** The columns a row is copied by: every column but the generated ones (which the copy computes again). */
export async function storedColumns(db: Kysely<any>, table: string, schema = 'public'): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT a.attname AS name FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = ${schema} AND c.relname = ${table} AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
    ORDER BY a.attnum`.execute(db);
  return rows.map((r) => r.name);
}
