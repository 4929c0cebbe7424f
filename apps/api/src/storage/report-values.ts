import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import {
  partialKey,
  refreshDailyRollup,
  type ReportPartial,
  type ReportPoint,
  type TimedPartial,
} from './report-values-daily';
import { lockShipValues } from './ship-lock';
import type { PartitionedTable } from '../db/partitions';
import { assertMonthsOnline } from './archived-months';
import { reportFieldValueSources, seriesCarriedOver, type ValueSources } from './report-value-sources';

/**
 * The hourly report values (`report_values`): one row per ship, value source and span start (an hour), the value or
 * null. The `report_field_id` of a row is its value source, the first field of the fields that share a calculation
 * (report-value-sources.ts): a ship-year is one series per distinct calculation, not one per field
 * (docs/decisions/0132-report-series-once.md). Written by the engine's store step (the period's hours replaced in its transaction), deleted by a range with
 * their roll-up refreshed (report-values-daily.ts), read by the dashboards and the exports. The one module that
 * touches the table besides the roll-up, which aggregates it. Every statement on it moves the reports version (a
 * trigger, migration 0012): cached answers of every process are stale.
 */

/** Its month partitions: an hour's start decides its month (docs/decisions/0125-partitions-and-retention.md). */
export const REPORT_VALUES_MONTHS: PartitionedTable = {
  table: 'report_values',
  column: 'span_start',
  kind: 'timestamptz',
};

/** A report field's values per span: span starts (UTC epoch ms, ascending) and one value each (NaN = null). */
export interface SpanSeries {
  spanStarts: Float64Array;
  values: Float64Array;
}

const ROWS_PER_INSERT = 20_000;

/** What an execution replaces: the hours of [from, to) of the recomputed report fields of a ship. */
export interface ReportReplacement {
  facilityId: string;
  /** UTC epoch ms. */
  from: number;
  to: number;
  /** The fields whose stored hours of the period go ('all': every field of the ship). */
  fieldIds: 'all' | readonly string[];
  /** The new series per field (fields sharing a calculation share one series object). */
  series: ReadonlyMap<string, SpanSeries>;
}

/** The fields' value sources, and the fields themselves (rows stored under a field before migration 0038). */
const withSources = (sources: ValueSources, fieldIds: readonly string[]) => [
  ...new Set(fieldIds.flatMap((id) => [id, sources.sourceOf.get(id) ?? id])),
];

/**
 * Replaces the period's hours of the recomputed report fields: deletes the period's hours of their value sources and
 * inserts the new ones, once per value source (the fields of a source compute the same values: the series of the
 * first recomputed field of each source is stored under the source), one statement per source (span starts as epoch ms and values as float8 arrays: cheaper to send and parse than one row of
 * parameters per value), in the caller's transaction (the engine's replacing one). The daily roll-up is the
 * caller's next step ({@link refreshDailyRollup}). Returns the rows written.
 */
export async function replaceReportValues(
  trx: Transaction<Database>,
  replacement: ReportReplacement,
): Promise<number> {
  const { facilityId, from, to } = replacement;
  await assertMonthsOnline(trx, new Date(from), new Date(to - 1));
  const sources = await reportFieldValueSources(trx);
  const fieldIds = replacement.fieldIds === 'all' ? 'all' : withSources(sources, replacement.fieldIds);
  if (fieldIds === 'all' || fieldIds.length > 0) {
    let del = trx
      .deleteFrom('report_values')
      .where('facility_id', '=', facilityId)
      .where('span_start', '>=', new Date(from))
      .where('span_start', '<', new Date(to));
    if (fieldIds !== 'all') del = del.where('report_field_id', 'in', [...fieldIds]);
    await del.execute();
  }
  let rowsWritten = 0;
  // Fields that share a calculation share its series: the arrays are made once.
  const arrays = new Map<SpanSeries, { starts: number[]; values: (number | null)[] }>();
  const written = new Set<string>();
  for (const [field, r] of replacement.series) {
    const fieldId = sources.sourceOf.get(field) ?? field;
    if (written.has(fieldId)) continue;
    written.add(fieldId);
    let rows = arrays.get(r);
    if (!rows) {
      rows = { starts: [], values: [] };
      for (let i = 0; i < r.spanStarts.length; i++) {
        const s = r.spanStarts[i]!;
        if (s < from || s >= to) continue;
        const v = r.values[i]!;
        rows.starts.push(s);
        rows.values.push(Number.isFinite(v) ? v : null);
      }
      arrays.set(r, rows);
    }
    const { starts, values } = rows;
    for (let at = 0; at < starts.length; at += ROWS_PER_INSERT) {
      await sql`
        insert into report_values (facility_id, report_field_id, span_start, value)
        select ${facilityId}::uuid, ${fieldId}::uuid, to_timestamp(s / 1000.0), v
        from unnest(${starts.slice(at, at + ROWS_PER_INSERT)}::float8[], ${values.slice(at, at + ROWS_PER_INSERT)}::float8[]) as u(s, v)
      `.execute(trx);
    }
    rowsWritten += starts.length;
  }
  return rowsWritten;
}

/**
 * Deletes a ship's report values of spans starting in [from, to] and rolls the days they touch up again, in the
 * caller's transaction, which it makes the ship's only writer of derived values until it ends (lockShipValues), like
 * an execution's store. Returns how many values went.
 */
export async function deleteReportValues(
  trx: Transaction<Database>,
  facilityId: string,
  from: Date,
  to: Date,
): Promise<number> {
  await lockShipValues(trx, facilityId);
  const result = await trx
    .deleteFrom('report_values')
    .where('facility_id', '=', facilityId)
    .where('span_start', '>=', from)
    .where('span_start', '<=', to)
    .executeTakeFirst();
  await refreshDailyRollup(trx, facilityId, 'all', from, to);
  return Number(result.numDeletedRows ?? 0);
}

/**
 * After a change of approved report calculations (`before`: the value sources read before it, in the same
 * transaction), gives every new value source the series its fields read before (report-value-sources.ts,
 * seriesCarriedOver): the hours and the daily, monthly and yearly roll-ups of every ship are copied from the old
 * source to the new one, replacing what the new one had. Only the months online are copied (an archived month keeps
 * its rows under the old source). Returns the sources given a series.
 */
export async function carryReportSeries(
  trx: Transaction<Database>,
  before: ValueSources,
): Promise<[from: string, to: string][]> {
  const pairs = seriesCarriedOver(before, await reportFieldValueSources(trx));
  if (pairs.length === 0) return pairs;
  const moves = sql.join(pairs.map(([from, to]) => sql`(${from}::uuid, ${to}::uuid)`));
  const targets = pairs.map(([, to]) => to);
  const tables = [
    ['report_values', 'span_start, value'],
    ['report_values_daily', 'day, value_sum, value_count, value_min, value_max, span_count'],
    ['report_values_monthly', 'month, value_sum, value_count, value_min, value_max, span_count, latest_day'],
    ['report_values_yearly', 'year, value_sum, value_count, value_min, value_max, span_count, latest_day'],
  ] as const;
  for (const [table, columns] of tables) {
    // Staged first: a new source may be the old source of another pair (two changes at once).
    await sql`
      create temporary table carried_series on commit drop as
      select t.facility_id, m.to_id as report_field_id, ${sql.raw(columns.replace(/(\w+)/g, 't.$1'))}
      from ${sql.table(table)} t join (values ${moves}) as m (from_id, to_id) on t.report_field_id = m.from_id
    `.execute(trx);
    await sql`delete from ${sql.table(table)} where report_field_id = any(${targets}::uuid[])`.execute(trx);
    await sql`
      insert into ${sql.table(table)} (facility_id, report_field_id, ${sql.raw(columns)})
      select facility_id, report_field_id, ${sql.raw(columns)} from carried_series
    `.execute(trx);
    await sql`drop table carried_series`.execute(trx);
  }
  return pairs;
}

/** Whether any report value is stored at all (a new default calculation then asks for its recalculation). */
export async function hasReportValues(db: Kysely<Database>): Promise<boolean> {
  return Boolean(await db.selectFrom('report_values').select('facility_id').limit(1).executeTakeFirst());
}

/**
 * The last hourly value of each ship and field (the time aggregate Last), within [from, to] or, with nulls, of all
 * the ship's data; as a partial of that one value, keyed by {@link partialKey}.
 */
export async function readLastReportValues(
  db: Kysely<Database>,
  facilityIds: readonly string[],
  fieldIds: readonly string[],
  from: Date | null,
  to: Date | null,
): Promise<Map<string, ReportPartial>> {
  const result = new Map<string, ReportPartial>();
  if (facilityIds.length === 0 || fieldIds.length === 0) return result;
  const range = from && to ? sql`and span_start >= ${from} and span_start <= ${to}` : sql``;
  const { rows } = await sql<{ facility_id: string; report_field_id: string; value: number; latest: number }>`
    select distinct on (facility_id, report_field_id) facility_id, report_field_id, value, extract(epoch from span_start) * 1000 as latest
    from report_values
    where facility_id = any(${[...facilityIds]}::uuid[]) and report_field_id = any(${[...fieldIds]}::uuid[]) and value is not null ${range}
    order by facility_id, report_field_id, span_start desc`.execute(db);
  for (const r of rows)
    result.set(partialKey(r.facility_id, r.report_field_id), {
      sum: r.value,
      count: 1,
      min: r.value,
      max: r.value,
      latest: Number(r.latest),
    });
  return result;
}

/** The hourly values of one field of the ships within [from, to], in time order. */
export async function readHourlyPoints(
  db: Kysely<Database>,
  facilityIds: readonly string[],
  fieldId: string,
  from: Date,
  to: Date,
): Promise<ReportPoint[]> {
  if (facilityIds.length === 0) return [];
  const { rows } = await sql<{ facility_id: string; t: number; value: number | null }>`
    select facility_id, extract(epoch from span_start) * 1000 as t, value
    from report_values
    where facility_id = any(${[...facilityIds]}::uuid[]) and report_field_id = ${fieldId} and span_start >= ${from} and span_start <= ${to}
    order by span_start`.execute(db);
  return rows.map((r) => ({ facilityId: r.facility_id, t: Number(r.t), value: r.value }));
}

/** One ship's hourly values of the fields within [from, to], in time order, each as the partial of its one hour. */
export async function readHourlyPartials(
  db: Kysely<Database>,
  facilityId: string,
  fieldIds: readonly string[],
  from: Date,
  to: Date,
): Promise<TimedPartial[]> {
  if (fieldIds.length === 0) return [];
  const { rows } = await sql<{
    t: number;
    field: string;
    s: number | null;
    c: number;
    mn: number | null;
    mx: number | null;
  }>`
    select extract(epoch from span_start) * 1000 as t, report_field_id as field, value as s, (value is not null)::int as c, value as mn, value as mx
    from report_values
    where facility_id = ${facilityId} and report_field_id = any(${[...fieldIds]}::uuid[]) and span_start >= ${from} and span_start <= ${to}
    order by span_start`.execute(db);
  return rows.map((r) => ({
    t: Number(r.t),
    fieldId: r.field,
    sum: r.s,
    count: Number(r.c),
    min: r.mn,
    max: r.mx,
  }));
}
