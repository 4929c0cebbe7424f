import { sql, type Kysely } from 'kysely';
import { uptimeMode, type UptimeMode } from '@portal/contracts/rules';
import type {
  AggregateType,
  FacilityListItem,
  ReportData,
  ReportFieldValue,
} from '@portal/contracts/reports';
import type { Database } from '../../db/schema';
import type { ReportFieldsTable } from '../../db/tables/calculations';
import type { Selectable } from 'kysely';

const DAY_MS = 86_400_000;

type FieldRow = Selectable<ReportFieldsTable>;

/**
 * Where a report's period and lifetime partials come from: all the ships' partials of every value source at once
 * (`PartialsLoader`, shared by the reports of a dashboard), or one query per report (the default).
 */
export interface PartialsLoader {
  period(facilityIds: string[], fieldIds: string[], from: Date, to: Date): Promise<Map<string, Partial>>;
  lifetime(facilityIds: string[], fieldIds: string[]): Promise<Map<string, Partial>>;
}

export const directPartials = (db: Kysely<Database>): PartialsLoader => ({
  period: (facilityIds, fieldIds, from, to) => periodPartials(db, facilityIds, fieldIds, from, to),
  lifetime: (facilityIds, fieldIds) => periodPartials(db, facilityIds, fieldIds, null, null),
});

/**
 * Partials of every value source for a set of ships, per period and for the lifetime, cached under the reports
 * version: the seven reports of the fleet dashboard (and every user looking at the same fleet) read the same
 * sums, so one aggregation over the roll-up answers them all. A report asks for its fields only; the loader
 * aggregates `allFieldIds` anyway, and the answer is the same.
 */
export function sharedPartials(
  db: Kysely<Database>,
  version: string,
  allFieldIds: string[],
  cache: {
    get(key: string): Promise<Map<string, Partial>> | undefined;
    set(key: string, value: Promise<Map<string, Partial>>): void;
  },
): PartialsLoader {
  const load = (kind: string, facilityIds: string[], from: Date | null, to: Date | null) => {
    const ships = [...facilityIds].sort();
    const key = `${version}|${kind}|${from?.getTime() ?? ''}|${to?.getTime() ?? ''}|${ships.join(',')}`;
    let value = cache.get(key);
    if (!value) {
      value = periodPartials(db, ships, allFieldIds, from, to);
      value.catch(() => undefined);
      cache.set(key, value);
    }
    return value;
  };
  return {
    period: (facilityIds, _fieldIds, from, to) => load('period', facilityIds, from, to),
    lifetime: (facilityIds) => load('lifetime', facilityIds, null, null),
  };
}

export interface DataRequest {
  report: { id: string; target: 'Facility' | 'FacilityGroup'; information: string | null };
  fields: FieldRow[];
  /** field id -> the field whose stored values it reads */
  sourceOf: Map<string, string>;
  /** The ship of a ship report (already checked visible). */
  facilityId: string | null;
  /** The fleet: visible ships, in display order. */
  fleet: string[];
  from: Date;
  to: Date;
  duration?: UptimeMode;
  partials?: PartialsLoader;
}

/** Sum, count, min, max and the latest hour (or day) with a value of one ship's field over a time range. */
export interface Partial {
  sum: number;
  count: number;
  min: number | null;
  max: number | null;
  latest: number | null;
}

const key = (facilityId: string, fieldId: string) => `${facilityId}|${fieldId}`;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The value of a time aggregate from its partial sums; null when no hour had a value. */
export function timeAggregate(type: AggregateType, p: Partial | undefined): number | null {
  if (!p || p.count === 0) return type === 'Count' ? 0 : null;
  switch (type) {
    case 'Sum':
      return p.sum;
    case 'Count':
      return p.count;
    case 'Min':
      return p.min;
    case 'Max':
      return p.max;
    default:
      return p.sum / p.count;
  }
}

/** Over the fleet: of the ships that have a value. Average is the average of the ships (not of their hours). */
export function facilityAggregate(
  type: AggregateType,
  values: readonly { value: number | null; latest?: number | null }[],
): number | null {
  const present = values.filter(
    (v): v is { value: number; latest?: number | null } => v.value !== null && Number.isFinite(v.value),
  );
  if (type === 'Count') return present.length;
  if (present.length === 0) return null;
  const numbers = present.map((v) => v.value);
  switch (type) {
    case 'Sum':
      return numbers.reduce((a, b) => a + b, 0);
    case 'Min':
      return Math.min(...numbers);
    case 'Max':
      return Math.max(...numbers);
    case 'Last':
      return [...present].sort((a, b) => (b.latest ?? 0) - (a.latest ?? 0))[0]!.value;
    default:
      return numbers.reduce((a, b) => a + b, 0) / numbers.length;
  }
}

/**
 * The whole UTC days inside [from, to] come from the daily roll-up, the hours at the edges from report_values.
 * A period counts the hours that start inside it. Sums are taken in time order (hours and days alike), so the same
 * hours give the same total whatever order a scan meets the rows in.
 */
function splitPeriod(from: Date, to: Date) {
  const firstWholeDay = Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  const afterLastWholeDay = Math.floor((to.getTime() + 1) / DAY_MS) * DAY_MS;
  if (afterLastWholeDay <= firstWholeDay) return { days: null, from, to };
  return { days: { first: firstWholeDay, afterLast: afterLastWholeDay }, from, to };
}

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function periodPartials(
  db: Kysely<Database>,
  facilityIds: string[],
  fieldIds: string[],
  from: Date | null,
  to: Date | null,
): Promise<Map<string, Partial>> {
  const result = new Map<string, Partial>();
  if (facilityIds.length === 0 || fieldIds.length === 0) return result;
  let query;
  if (from === null || to === null) {
    // Lifetime: all the ship's data, from the roll-up.
    query = sql<{
      facility_id: string;
      report_field_id: string;
      s: number;
      c: number;
      mn: number | null;
      mx: number | null;
      latest: number | null;
    }>`
      select facility_id, report_field_id, sum(value_sum order by day) as s, sum(value_count)::int as c, min(value_min) as mn, max(value_max) as mx,
             max(case when value_count > 0 then extract(epoch from day::timestamp) * 1000 end) as latest
      from report_values_daily
      where facility_id = any(${facilityIds}::uuid[]) and report_field_id = any(${fieldIds}::uuid[])
      group by facility_id, report_field_id`;
  } else {
    const split = splitPeriod(from, to);
    const hourly = split.days
      ? sql`((span_start >= ${from} and span_start < ${new Date(split.days.first)}) or (span_start >= ${new Date(split.days.afterLast)} and span_start <= ${to}))`
      : sql`(span_start >= ${from} and span_start <= ${to})`;
    const daily = split.days
      ? sql`
        union all
        select facility_id, report_field_id, value_sum, value_count, value_min, value_max,
               case when value_count > 0 then extract(epoch from day::timestamp) * 1000 end,
               extract(epoch from day::timestamp) * 1000
        from report_values_daily
        where facility_id = any(${facilityIds}::uuid[]) and report_field_id = any(${fieldIds}::uuid[])
          and day >= ${dayText(split.days.first)}::date and day < ${dayText(split.days.afterLast)}::date`
      : sql``;
    query = sql<{
      facility_id: string;
      report_field_id: string;
      s: number;
      c: number;
      mn: number | null;
      mx: number | null;
      latest: number | null;
    }>`
      select facility_id, report_field_id, coalesce(sum(s order by t), 0) as s, sum(c)::int as c, min(mn) as mn, max(mx) as mx, max(latest) as latest
      from (
        select facility_id, report_field_id, value as s, (value is not null)::int as c, value as mn, value as mx,
               case when value is not null then extract(epoch from span_start) * 1000 end as latest,
               extract(epoch from span_start) * 1000 as t
        from report_values
        where facility_id = any(${facilityIds}::uuid[]) and report_field_id = any(${fieldIds}::uuid[]) and ${hourly}
        ${daily}
      ) x
      group by facility_id, report_field_id`;
  }
  const { rows } = await query.execute(db);
  for (const r of rows) {
    result.set(key(r.facility_id, r.report_field_id), {
      sum: Number(r.s),
      count: Number(r.c),
      min: r.mn,
      max: r.mx,
      latest: r.latest === null ? null : Number(r.latest),
    });
  }
  return result;
}

/** The last hourly value of each ship (time aggregate Last). */
async function lastValues(
  db: Kysely<Database>,
  facilityIds: string[],
  fieldIds: string[],
  from: Date | null,
  to: Date | null,
): Promise<Map<string, Partial>> {
  const result = new Map<string, Partial>();
  if (facilityIds.length === 0 || fieldIds.length === 0) return result;
  const range = from && to ? sql`and span_start >= ${from} and span_start <= ${to}` : sql``;
  const { rows } = await sql<{ facility_id: string; report_field_id: string; value: number; latest: number }>`
    select distinct on (facility_id, report_field_id) facility_id, report_field_id, value, extract(epoch from span_start) * 1000 as latest
    from report_values
    where facility_id = any(${facilityIds}::uuid[]) and report_field_id = any(${fieldIds}::uuid[]) and value is not null ${range}
    order by facility_id, report_field_id, span_start desc`.execute(db);
  for (const r of rows)
    result.set(key(r.facility_id, r.report_field_id), {
      sum: r.value,
      count: 1,
      min: r.value,
      max: r.value,
      latest: Number(r.latest),
    });
  return result;
}

const dailyValue = (type: AggregateType) =>
  type === 'Min' ? sql`value_min` : type === 'Max' ? sql`value_max` : sql`value_sum / value_count`;

/**
 * Points of a series: hourly values, or in mode daily one value a day. Per ship. A day's value is the average of
 * its hours, except for a field whose time aggregate is Min or Max (a washwater criterion's worst): its lowest or
 * highest hour, so that an hour over a limit stays over it on a long period's chart instead of being averaged away.
 */
async function seriesPoints(
  db: Kysely<Database>,
  facilityIds: string[],
  fieldId: string,
  from: Date,
  to: Date,
  mode: UptimeMode,
  type: AggregateType,
) {
  if (facilityIds.length === 0) return [];
  if (mode === 'hourly') {
    const { rows } = await sql<{ facility_id: string; t: number; value: number | null }>`
      select facility_id, extract(epoch from span_start) * 1000 as t, value
      from report_values
      where facility_id = any(${facilityIds}::uuid[]) and report_field_id = ${fieldId} and span_start >= ${from} and span_start <= ${to}
      order by span_start`.execute(db);
    return rows.map((r) => ({ facilityId: r.facility_id, t: Number(r.t), value: r.value }));
  }
  // Daily: the days that touch the period (the matrix shows whole days).
  const first = Math.floor(from.getTime() / DAY_MS) * DAY_MS;
  const { rows } = await sql<{ facility_id: string; t: number; value: number | null }>`
    select facility_id, extract(epoch from day::timestamp) * 1000 as t,
           case when value_count > 0 then ${dailyValue(type)} end as value
    from report_values_daily
    where facility_id = any(${facilityIds}::uuid[]) and report_field_id = ${fieldId}
      and day >= ${dayText(first)}::date and day <= ${dayText(to.getTime())}::date
    order by day`.execute(db);
  return rows.map((r) => ({ facilityId: r.facility_id, t: Number(r.t), value: r.value }));
}

/**
 * The report's values for a period, field by field (DOMAIN.md): each ship's hours are aggregated over the
 * period by the field's time aggregate type, then the ships by its facility aggregate type.
 */
export async function reportData(db: Kysely<Database>, request: DataRequest): Promise<ReportData> {
  const { report, fields, sourceOf, from, to } = request;
  const ship = report.target === 'Facility' ? request.facilityId : null;
  // The ships a field's number is over: the ship of a ship report, else the fleet.
  const numberShips = ship ? [ship] : request.fleet;
  const fleet = request.fleet;
  const mode = request.duration ?? uptimeMode({ from, to });
  const src = (f: FieldRow) => sourceOf.get(f.id) ?? f.id;

  const needs = (pred: (f: FieldRow) => boolean) => [...new Set(fields.filter(pred).map(src))];
  const isList = (f: FieldRow) => f.by_facility || f.interface_type === 'FacilityList';
  const isFleetNumber = (f: FieldRow) => f.interface_type === 'FleetNumber';
  const isSeries = (f: FieldRow) => f.as_series;
  const allShips = [
    ...new Set([...numberShips, ...(fields.some((f) => isList(f) || isFleetNumber(f)) ? fleet : [])]),
  ];

  const periodFields = needs((f) => !isSeries(f) && !f.as_lifetime && f.time_aggregate_type !== 'Last');
  const lifetimeFields = needs((f) => !isSeries(f) && f.as_lifetime && f.time_aggregate_type !== 'Last');
  const lastPeriodFields = needs((f) => !isSeries(f) && !f.as_lifetime && f.time_aggregate_type === 'Last');
  const lastLifetimeFields = needs((f) => !isSeries(f) && f.as_lifetime && f.time_aggregate_type === 'Last');
  const loader = request.partials ?? directPartials(db);
  const none = Promise.resolve(new Map<string, Partial>());
  const [period, lifetime, lastPeriod, lastLifetime] = await Promise.all([
    periodFields.length ? loader.period(allShips, periodFields, from, to) : none,
    lifetimeFields.length ? loader.lifetime(allShips, lifetimeFields) : none,
    lastValues(db, allShips, lastPeriodFields, from, to),
    lastValues(db, allShips, lastLifetimeFields, null, null),
  ]);

  const out: Record<string, ReportFieldValue> = {};
  for (const field of fields) {
    const sourceId = src(field);
    const type = field.time_aggregate_type;
    const partials =
      type === 'Last'
        ? field.as_lifetime
          ? lastLifetime
          : lastPeriod
        : field.as_lifetime
          ? lifetime
          : period;
    const perShip = (ids: string[]) =>
      ids.map((facilityId) => {
        const p = partials.get(key(facilityId, sourceId));
        return { facilityId, value: timeAggregate(type, p), latest: p?.latest ?? null };
      });

    if (isSeries(field)) {
      const seriesMode: UptimeMode =
        field.interface_type === 'UptimePoints' ||
        field.interface_type === 'ComplianceValues' ||
        field.interface_type === 'Series'
          ? mode
          : 'hourly';
      const points = await seriesPoints(db, numberShips, sourceId, from, to, seriesMode, type);
      // A fleet series aggregates the ships per point in time.
      const byTime = new Map<number, { value: number | null }[]>();
      for (const p of points) {
        const list = byTime.get(p.t) ?? [];
        list.push({ value: p.value });
        byTime.set(p.t, list);
      }
      const merged = [...byTime.entries()].map(([t, values]) => ({
        t,
        value:
          values.length === 1 ? values[0]!.value : facilityAggregate(field.facility_aggregate_type, values),
      }));
      const value =
        field.interface_type === 'ComplianceValues'
          ? merged.map((p) => ({ complianceDate: iso(p.t)!, value: p.value }))
          : merged.map((p) => ({ timestamp: iso(p.t)!, value: p.value }));
      out[field.name] = { value, format: field.format };
    } else if (isList(field)) {
      const value: FacilityListItem[] = perShip(fleet).map((s) => ({
        facilityId: s.facilityId,
        value: s.value,
        timestamp: iso(s.latest),
      }));
      out[field.name] = { value, format: field.format };
    } else {
      const ships = isFleetNumber(field) ? fleet : numberShips;
      out[field.name] = {
        value: facilityAggregate(field.facility_aggregate_type, perShip(ships)),
        format: field.format,
      };
    }
  }
  return { information: report.information, fields: out };
}
