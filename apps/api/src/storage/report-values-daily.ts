import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { DAY_MS, dayText } from './days';

/**
 * The daily roll-up of the report values (`report_values_daily`): per ship, report field and UTC day the sum, count,
 * min and max of the non-null hourly values and the number of spans, so that long periods are read by the day.
 * Refreshed from `report_values` in the transaction that changed them (the engine's roll-up step, a delete of report
 * values); read with the hours at a period's edges, which only report_values has. The one module that touches the
 * table.
 */

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
 * Recomputes report_values_daily of a ship for the UTC days touching [from, to], from report_values:
 * per field and day the sum, count, min and max of the non-null hourly values and the number of spans.
 * Days without any span lose their roll-up row. The sum is taken in time order: a sum of doubles depends on its
 * order, and the order a scan meets the rows in depends on how they lie on disk. Step "roll up" of the execution
 * engine (after it wrote report values, inside its transaction), and after report values are deleted. Given a
 * transaction, it runs in it; given the database, in a transaction of its own.
 */
export async function refreshDailyRollup(
  db: Kysely<Database>,
  facilityId: string,
  reportFieldIds: readonly string[] | 'all',
  from: Date,
  to: Date,
): Promise<number> {
  if (reportFieldIds !== 'all' && reportFieldIds.length === 0) return 0;
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
    return Number(result.numAffectedRows ?? 0);
  };
  // Its statements move the reports version (a trigger, migration 0012): cached answers of every process are stale.
  return db.isTransaction ? rollUp(db) : db.transaction().execute(rollUp);
}

/**
 * The whole UTC days inside [from, to] come from the daily roll-up, the hours at the edges from report_values.
 * A period counts the hours that start inside it.
 */
function splitPeriod(from: Date, to: Date) {
  const firstWholeDay = Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  const afterLastWholeDay = Math.floor((to.getTime() + 1) / DAY_MS) * DAY_MS;
  if (afterLastWholeDay <= firstWholeDay) return null;
  return { first: firstWholeDay, afterLast: afterLastWholeDay };
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

/**
 * Partials of the fields of the ships over the hours starting in [from, to] (whole days from the roll-up, the hours
 * at the edges from the hourly values) or, with nulls, over all the ships' data (from the roll-up). Sums are taken
 * in time order (hours and days alike), so the same hours give the same total whatever order a scan meets the rows
 * in. Keyed by {@link partialKey}.
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
    // Lifetime: all the ship's data, from the roll-up.
    query = sql<PartialRow>`
      select facility_id, report_field_id, sum(value_sum order by day) as s, sum(value_count)::int as c, min(value_min) as mn, max(value_max) as mx,
             max(case when value_count > 0 then extract(epoch from day::timestamp) * 1000 end) as latest
      from report_values_daily
      where facility_id = any(${ships}::uuid[]) and report_field_id = any(${fields}::uuid[])
      group by facility_id, report_field_id`;
  } else {
    const days = splitPeriod(from, to);
    const hourly = days
      ? sql`((span_start >= ${from} and span_start < ${new Date(days.first)}) or (span_start >= ${new Date(days.afterLast)} and span_start <= ${to}))`
      : sql`(span_start >= ${from} and span_start <= ${to})`;
    const daily = days
      ? sql`
        union all
        select facility_id, report_field_id, value_sum, value_count, value_min, value_max,
               case when value_count > 0 then extract(epoch from day::timestamp) * 1000 end,
               extract(epoch from day::timestamp) * 1000
        from report_values_daily
        where facility_id = any(${ships}::uuid[]) and report_field_id = any(${fields}::uuid[])
          and day >= ${dayText(days.first)}::date and day < ${dayText(days.afterLast)}::date`
      : sql``;
    query = sql<PartialRow>`
      select facility_id, report_field_id, coalesce(sum(s order by t), 0) as s, sum(c)::int as c, min(mn) as mn, max(mx) as mx, max(latest) as latest
      from (
        select facility_id, report_field_id, value as s, (value is not null)::int as c, value as mn, value as mx,
               case when value is not null then extract(epoch from span_start) * 1000 end as latest,
               extract(epoch from span_start) * 1000 as t
        from report_values
        where facility_id = any(${ships}::uuid[]) and report_field_id = any(${fields}::uuid[]) and ${hourly}
        ${daily}
      ) x
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
