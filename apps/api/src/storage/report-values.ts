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

/**
 * The hourly report values (`report_values`): one row per ship, report field and span start (an hour), the value or
 * null. Written by the engine's store step (the period's hours replaced in its transaction), deleted by a range with
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

/**
 * Replaces the period's hours of the recomputed report fields: deletes them and inserts the new ones, one statement
 * per field (span starts as epoch ms and values as float8 arrays: cheaper to send and parse than one row of
 * parameters per value), in the caller's transaction (the engine's replacing one). The daily roll-up is the
 * caller's next step ({@link refreshDailyRollup}). Returns the rows written.
 */
export async function replaceReportValues(
  trx: Transaction<Database>,
  replacement: ReportReplacement,
): Promise<number> {
  const { facilityId, from, to, fieldIds } = replacement;
  await assertMonthsOnline(trx, new Date(from), new Date(to - 1));
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
  for (const [fieldId, r] of replacement.series) {
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
