import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { DAY_MS, dayText } from './days';
import type { PartitionedTable } from '../db/partitions';
import { reportFieldValueSources } from './report-value-sources';

/** The first millisecond of the UTC month (year) of a time, and of the next one. */
const monthStart = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};
const nextMonth = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};
const yearStart = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear(), 0, 1);
const nextYear = (ms: number) => Date.UTC(new Date(ms).getUTCFullYear() + 1, 0, 1);
/** The first month (year) starting at or after a time. */
const ceilMonth = (ms: number) => (monthStart(ms) === ms ? ms : nextMonth(ms));
const ceilYear = (ms: number) => (yearStart(ms) === ms ? ms : nextYear(ms));

/**
 * The roll-ups of the report values: per ship, report field and UTC day (`report_values_daily`), calendar month
 * (`report_values_monthly`) and calendar year (`report_values_yearly`) the sum, count, min and max of the non-null
 * hourly values and the number of spans (the month and year also the last day with a value), so that long periods
 * are read by the year, the month and the day: a fleet year is one row per ship and field. Refreshed from
 * `report_values` in the transaction that changed them (the engine's roll-up step, a delete of report values), only
 * the touched ship, fields, days, months and years; read with the hours at a period's edges, which only
 * report_values has. The one module that touches these tables (docs/decisions/0124-rollups-and-fleet-benches.md).
 */

/** Its month partitions: the roll-up's UTC day decides its month (docs/decisions/0125-partitions-and-retention.md). */
export const REPORT_VALUES_DAILY_MONTHS: PartitionedTable = {
  table: 'report_values_daily',
  column: 'day',
  kind: 'date',
};

/**
 * The monthly roll-up's month partitions: its month is its partition, so an archived month takes its rows along
 * (docs/decisions/0125-partitions-and-retention.md). The yearly roll-up is not partitioned: a year's rows are
 * recomputed from the monthly rows online when one of its months is archived or restored ({@link refreshYearlyRollups}).
 */
export const REPORT_VALUES_MONTHLY_MONTHS: PartitionedTable = {
  table: 'report_values_monthly',
  column: 'month',
  kind: 'date',
};

/**
 * Recomputes the yearly roll-up of the calendar years from `firstYear` to `lastYear` (both included) from the monthly
 * rows online, of every ship or of the ships given: what a month archived, restored or deleted leaves of its years
 * (storage/partitions.ts). The same statement as {@link refreshDailyRollup}'s, so a year whose months are the same
 * gets the same sums to the last bit (a restored month's dashboards answer as before). In the caller's transaction.
 */
export async function refreshYearlyRollups(
  trx: Kysely<Database>,
  firstYear: number,
  lastYear: number,
  facilityIds?: readonly string[],
): Promise<void> {
  if (facilityIds && facilityIds.length === 0) return;
  const from = dayText(Date.UTC(firstYear, 0, 1));
  const to = dayText(Date.UTC(lastYear + 1, 0, 1));
  const ships = facilityIds ? sql`facility_id = any(${[...facilityIds]}::uuid[])` : sql`true`;
  await sql`
    delete from report_values_yearly where ${ships} and year >= ${from}::date and year < ${to}::date
  `.execute(trx);
  await sql`
    insert into report_values_yearly (facility_id, report_field_id, year, value_sum, value_count, value_min, value_max, span_count, latest_day)
    select facility_id, report_field_id, date_trunc('year', month)::date, sum(value_sum order by month),
           sum(value_count), min(value_min), max(value_max), sum(span_count), max(latest_day)
    from report_values_monthly
    where ${ships} and month >= ${from}::date and month < ${to}::date
    group by facility_id, report_field_id, date_trunc('year', month)::date
  `.execute(trx);
}

/**
 * Sum, count, min, max and the latest hour (or day) with a value of one ship's field over a time range: what the
 * report answers aggregate further (the time aggregate of a field, then the ships). Keyed by {@link partialKey}.
 */
export interface ReportPartial {
  sum: number;
  count: number;
  min: number | null;
  max: number | null;
  latest: number | null;
}

/** The key of a ship's field in the maps of partials. */
export const partialKey = (facilityId: string, fieldId: string) => `${facilityId}|${fieldId}`;

/** A point of a report field's series: a ship's value at an hour (or a day), UTC epoch ms. */
export interface ReportPoint {
  facilityId: string;
  t: number;
  value: number | null;
}

/** The stored aggregate of one field at one hour (or day) of a ship, as an export row reads it. */
export interface TimedPartial {
  t: number;
  fieldId: string;
  sum: number | null;
  count: number;
  min: number | null;
  max: number | null;
}

/** A day's one value on a chart: the average of its hours, or its lowest or highest hour. */
export type DailyPick = 'average' | 'min' | 'max';

/**
 * Recomputes report_values_daily of a ship for the UTC days touching [from, to], from report_values, of the value
 * sources of the fields given (or all): per source and day the sum, count, min and max of the non-null hourly values and the number of spans; then the
 * monthly and yearly rows of the months and years those days fall in, from the daily rows. Days (months, years)
 * without any span lose their roll-up row. Returns the daily rows written. The sum is taken in time order: a sum of doubles depends on its
 * order, and the order a scan meets the rows in depends on how they lie on disk. Step "roll up" of the execution
 * engine (after it wrote report values, inside its transaction), and after report values are deleted. Given a
 * transaction, it runs in it; given the database, in a transaction of its own.
 */
export async function refreshDailyRollup(
  db: Kysely<Database>,
  facilityId: string,
  requestedFieldIds: readonly string[] | 'all',
  from: Date,
  to: Date,
): Promise<number> {
  if (requestedFieldIds !== 'all' && requestedFieldIds.length === 0) return 0;
  // The series are stored under the fields' value sources (report-value-sources.ts): those are rolled up, and the
  // fields themselves (a field's own rows, as stored before migration 0038 or by hand).
  let reportFieldIds = requestedFieldIds;
  if (reportFieldIds !== 'all') {
    const { sourceOf } = await reportFieldValueSources(db);
    reportFieldIds = [...new Set(reportFieldIds.flatMap((id) => [id, sourceOf.get(id) ?? id]))];
  }
  const firstDay = Math.floor(from.getTime() / DAY_MS) * DAY_MS;
  const afterLastDay = Math.floor(to.getTime() / DAY_MS) * DAY_MS + DAY_MS;
  const fieldFilter =
    reportFieldIds === 'all' ? sql`true` : sql`report_field_id = any(${[...reportFieldIds]}::uuid[])`;
  const rollUp = async (trx: Kysely<Database>) => {
    await sql`
      delete from report_values_daily
      where facility_id = ${facilityId} and ${fieldFilter}
        and day >= ${dayText(firstDay)}::date and day < ${dayText(afterLastDay)}::date
    `.execute(trx);
    const result = await sql`
      insert into report_values_daily (facility_id, report_field_id, day, value_sum, value_count, value_min, value_max, span_count)
      select facility_id, report_field_id, (span_start at time zone 'UTC')::date,
             coalesce(sum(value order by span_start), 0), count(value), min(value), max(value), count(*)
      from report_values
      where facility_id = ${facilityId} and ${fieldFilter}
        and span_start >= ${new Date(firstDay)} and span_start < ${new Date(afterLastDay)}
      group by facility_id, report_field_id, (span_start at time zone 'UTC')::date
    `.execute(trx);
    // The months and years the days fall in, from the daily rows just written: sums in day (month) order.
    const firstMonth = monthStart(firstDay);
    const afterLastMonth = nextMonth(afterLastDay - DAY_MS);
    await sql`
      delete from report_values_monthly
      where facility_id = ${facilityId} and ${fieldFilter}
        and month >= ${dayText(firstMonth)}::date and month < ${dayText(afterLastMonth)}::date
    `.execute(trx);
    await sql`
      insert into report_values_monthly (facility_id, report_field_id, month, value_sum, value_count, value_min, value_max, span_count, latest_day)
      select facility_id, report_field_id, date_trunc('month', day)::date, sum(value_sum order by day),
             sum(value_count), min(value_min), max(value_max), sum(span_count),
             max(case when value_count > 0 then day end)
      from report_values_daily
      where facility_id = ${facilityId} and ${fieldFilter}
        and day >= ${dayText(firstMonth)}::date and day < ${dayText(afterLastMonth)}::date
      group by facility_id, report_field_id, date_trunc('month', day)::date
    `.execute(trx);
    const firstYear = yearStart(firstDay);
    const afterLastYear = nextYear(afterLastDay - DAY_MS);
    await sql`
      delete from report_values_yearly
      where facility_id = ${facilityId} and ${fieldFilter}
        and year >= ${dayText(firstYear)}::date and year < ${dayText(afterLastYear)}::date
    `.execute(trx);
    await sql`
      insert into report_values_yearly (facility_id, report_field_id, year, value_sum, value_count, value_min, value_max, span_count, latest_day)
      select facility_id, report_field_id, date_trunc('year', month)::date, sum(value_sum order by month),
             sum(value_count), min(value_min), max(value_max), sum(span_count), max(latest_day)
      from report_values_monthly
      where facility_id = ${facilityId} and ${fieldFilter}
        and month >= ${dayText(firstYear)}::date and month < ${dayText(afterLastYear)}::date
      group by facility_id, report_field_id, date_trunc('year', month)::date
    `.execute(trx);
    return Number(result.numAffectedRows ?? 0);
  };
  // Its statements move the reports version (a trigger, migration 0012): cached answers of every process are stale.
  return db.isTransaction ? rollUp(db) : db.transaction().execute(rollUp);
}

/** A half-open range of UTC epoch ms, [start, end). */
export type MsRange = readonly [start: number, end: number];

/**
 * Where the hours starting in [from, to] (to inclusive) are read from, each range in the coarsest roll-up that holds
 * it whole: whole calendar years from the yearly rows, whole months around them from the monthly, whole days around
 * those from the daily, the hours at the edges from report_values. Empty ranges are left out, so a period of whole
 * days (every dashboard period) reads no hourly value. Pure; ranges in time order within each grain.
 */
export function periodPieces(
  from: number,
  to: number,
): { hours: MsRange[]; days: MsRange[]; months: MsRange[]; years: MsRange[] } {
  const end = to + 1;
  const pieces = {
    hours: [] as MsRange[],
    days: [] as MsRange[],
    months: [] as MsRange[],
    years: [] as MsRange[],
  };
  if (end <= from) return pieces;
  const push = (list: MsRange[], a: number, b: number) => {
    if (b > a) list.push([a, b]);
  };
  const d0 = Math.ceil(from / DAY_MS) * DAY_MS;
  const d1 = Math.floor(end / DAY_MS) * DAY_MS;
  if (d1 <= d0) {
    push(pieces.hours, from, end);
    return pieces;
  }
  push(pieces.hours, from, d0);
  push(pieces.hours, d1, end);
  const m0 = ceilMonth(d0);
  const m1 = monthStart(d1);
  if (m1 <= m0) {
    push(pieces.days, d0, d1);
    return pieces;
  }
  push(pieces.days, d0, m0);
  push(pieces.days, m1, d1);
  const y0 = ceilYear(m0);
  const y1 = yearStart(m1);
  if (y1 <= y0) {
    push(pieces.months, m0, m1);
    return pieces;
  }
  push(pieces.months, m0, y0);
  push(pieces.months, y1, m1);
  push(pieces.years, y0, y1);
  return pieces;
}

type PartialRow = {
  facility_id: string;
  report_field_id: string;
  s: number;
  c: number;
  mn: number | null;
  mx: number | null;
  latest: number | null;
};

/** Rows of one grain's ranges as (ship, field, sum, count, min, max, latest ms, start ms) for readReportPartials. */
function grainRows(
  grain: 'hours' | 'days' | 'months' | 'years',
  ranges: readonly MsRange[],
  ships: readonly string[],
  fields: readonly string[],
) {
  const keys = sql`facility_id = any(${[...ships]}::uuid[]) and report_field_id = any(${[...fields]}::uuid[])`;
  const within = (column: string, date: boolean) =>
    sql.join(
      ranges.map(([a, b]) =>
        date
          ? sql`(${sql.ref(column)} >= ${dayText(a)}::date and ${sql.ref(column)} < ${dayText(b)}::date)`
          : sql`(${sql.ref(column)} >= ${new Date(a)} and ${sql.ref(column)} < ${new Date(b)})`,
      ),
      sql` or `,
    );
  if (grain === 'hours')
    return sql`
      select facility_id, report_field_id, value as s, (value is not null)::int as c, value as mn, value as mx,
             case when value is not null then extract(epoch from span_start) * 1000 end as latest,
             extract(epoch from span_start) * 1000 as t
      from report_values where ${keys} and (${within('span_start', false)})`;
  if (grain === 'days')
    return sql`
      select facility_id, report_field_id, value_sum, value_count, value_min, value_max,
             case when value_count > 0 then extract(epoch from day::timestamp) * 1000 end,
             extract(epoch from day::timestamp) * 1000
      from report_values_daily where ${keys} and (${within('day', true)})`;
  const [table, column] =
    grain === 'months'
      ? (['report_values_monthly', 'month'] as const)
      : (['report_values_yearly', 'year'] as const);
  return sql`
      select facility_id, report_field_id, value_sum, value_count, value_min, value_max,
             extract(epoch from latest_day::timestamp) * 1000,
             extract(epoch from ${sql.ref(column)}::timestamp) * 1000
      from ${sql.table(table)} where ${keys} and (${within(column, true)})`;
}

/**
 * Partials of the fields of the ships over the hours starting in [from, to] (whole years, months and days from the
 * roll-ups, the hours at the edges from the hourly values: {@link periodPieces}) or, with nulls, over all the ships'
 * data (from the yearly roll-up). Sums are taken in time order (years, months, days and hours alike), so the same
 * hours give the same total whatever order a scan meets the rows in. Keyed by {@link partialKey}.
 */
export async function readReportPartials(
  db: Kysely<Database>,
  facilityIds: readonly string[],
  fieldIds: readonly string[],
  from: Date | null,
  to: Date | null,
): Promise<Map<string, ReportPartial>> {
  const result = new Map<string, ReportPartial>();
  if (facilityIds.length === 0 || fieldIds.length === 0) return result;
  const ships = [...facilityIds];
  const fields = [...fieldIds];
  let query;
  if (from === null || to === null) {
    // Lifetime: all the ship's data, from the yearly roll-up.
    query = sql<PartialRow>`
      select facility_id, report_field_id, sum(value_sum order by year) as s, sum(value_count)::int as c, min(value_min) as mn, max(value_max) as mx,
             max(extract(epoch from latest_day::timestamp) * 1000) as latest
      from report_values_yearly
      where facility_id = any(${ships}::uuid[]) and report_field_id = any(${fields}::uuid[])
      group by facility_id, report_field_id`;
  } else {
    const pieces = periodPieces(from.getTime(), to.getTime());
    const parts = (['years', 'months', 'days', 'hours'] as const)
      .filter((grain) => pieces[grain].length > 0)
      .map((grain) => grainRows(grain, pieces[grain], ships, fields));
    if (parts.length === 0) return result;
    query = sql<PartialRow>`
      select facility_id, report_field_id, coalesce(sum(s order by t), 0) as s, sum(c)::int as c, min(mn) as mn, max(mx) as mx, max(latest) as latest
      from (${sql.join(parts, sql` union all `)}) x (facility_id, report_field_id, s, c, mn, mx, latest, t)
      group by facility_id, report_field_id`;
  }
  const { rows } = await query.execute(db);
  for (const r of rows) {
    result.set(partialKey(r.facility_id, r.report_field_id), {
      sum: Number(r.s),
      count: Number(r.c),
      min: r.mn,
      max: r.mx,
      latest: r.latest === null ? null : Number(r.latest),
    });
  }
  return result;
}

const dailyValue = (pick: DailyPick) =>
  pick === 'min' ? sql`value_min` : pick === 'max' ? sql`value_max` : sql`value_sum / value_count`;

/**
 * One value a day of one field of the ships, for the UTC days that touch [from, to] (a chart shows whole days), in
 * time order; null on a day without a value.
 */
export async function readDailyPoints(
  db: Kysely<Database>,
  facilityIds: readonly string[],
  fieldId: string,
  from: Date,
  to: Date,
  pick: DailyPick,
): Promise<ReportPoint[]> {
  if (facilityIds.length === 0) return [];
  const first = Math.floor(from.getTime() / DAY_MS) * DAY_MS;
  const { rows } = await sql<{ facility_id: string; t: number; value: number | null }>`
    select facility_id, extract(epoch from day::timestamp) * 1000 as t,
           case when value_count > 0 then ${dailyValue(pick)} end as value
    from report_values_daily
    where facility_id = any(${[...facilityIds]}::uuid[]) and report_field_id = ${fieldId}
      and day >= ${dayText(first)}::date and day <= ${dayText(to.getTime())}::date
    order by day`.execute(db);
  return rows.map((r) => ({ facilityId: r.facility_id, t: Number(r.t), value: r.value }));
}

/** One ship's daily roll-up of the fields for the UTC days that touch [from, to], in time order. */
export async function readDailyPartials(
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
    select extract(epoch from day::timestamp) * 1000 as t, report_field_id as field, value_sum as s, value_count as c, value_min as mn, value_max as mx
    from report_values_daily
    where facility_id = ${facilityId} and report_field_id = any(${[...fieldIds]}::uuid[])
      and day >= ${dayText(Math.floor(from.getTime() / DAY_MS) * DAY_MS)}::date and day <= ${dayText(to.getTime())}::date
    order by day`.execute(db);
  return rows.map((r) => ({
    t: Number(r.t),
    fieldId: r.field,
    sum: r.s,
    count: Number(r.c),
    min: r.mn,
    max: r.mx,
  }));
}

/**
 * The values version of each ship (migration 0041: moved by every statement that changes the ship's daily roll-up,
 * and for every ship by a month archived or restored); '0' for a ship that never had a value. A reader that cached
 * something of a ship under its version knows it is still current while the version is the same.
 */
export async function readShipValuesVersions(
  db: Kysely<Database>,
  facilityIds: readonly string[],
): Promise<Map<string, string>> {
  const versions = new Map<string, string>(facilityIds.map((id) => [id, '0']));
  if (facilityIds.length === 0) return versions;
  const rows = await db
    .selectFrom('ship_values_versions')
    .select(['facility_id', 'version'])
    .where('facility_id', '=', sql<string>`any(${[...facilityIds]}::uuid[])`)
    .execute();
  for (const r of rows) versions.set(r.facility_id, String(r.version));
  return versions;
}
