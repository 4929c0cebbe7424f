import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { uptimeMode, type UptimeMode } from '@portal/contracts/rules';
import type {
  AggregateType,
  FacilityListItem,
  ReportData,
  ReportFieldValue,
} from '@portal/contracts/reports';
import type { Database } from '../../db/schema';
import type { ReportFieldsTable } from '../../db/tables/calculations';
import { downsampleWithLimit, MAX_CHART_POINTS, type TimePoint } from './downsample';
import {
  partialKey as key,
  readDailyPoints,
  readHourlyPoints,
  readLastReportValues,
  readReportPartials,
  readShipValuesVersions,
  type ReportPartial,
  type ReportPoint,
} from '../../storage';

type FieldRow = Selectable<ReportFieldsTable>;

/**
 * Where a report's period and lifetime partials come from: all the ships' partials of every value source at once
 * (`PartialsLoader`, shared by the reports of a dashboard), or one query per report (the default).
 */
export interface PartialsLoader {
  period(facilityIds: string[], fieldIds: string[], from: Date, to: Date): Promise<Partials>;
  lifetime(facilityIds: string[], fieldIds: string[]): Promise<Partials>;
}

/**
 * Partial sums of ships' value sources. `of` takes the ship's and the source's ids as they are (strings whose hash
 * the engine keeps): a fleet report at 5,000 ships looks up 40,000 sums an answer, and building a key string for each
 * (hashed afresh every time) was most of an answer's time with data arriving (bench/results/dashboard.md, session
 * 18). Iterated, the entries by `partialKey(ship, source)`.
 */
export interface Partials extends Iterable<[string, ReportPartial]> {
  of(ship: string, source: string): ReportPartial | undefined;
}

/** A map by `partialKey(ship, source)` (what storage answers) as {@link Partials}. */
export function partialsByKey(map: ReadonlyMap<string, ReportPartial>): Partials {
  return {
    of: (ship, source) => map.get(key(ship, source)),
    [Symbol.iterator]: () => map[Symbol.iterator](),
  };
}

export const directPartials = (db: Kysely<Database>): PartialsLoader => ({
  period: (facilityIds, fieldIds, from, to) =>
    readReportPartials(db, facilityIds, fieldIds, from, to).then(partialsByKey),
  lifetime: (facilityIds, fieldIds) =>
    readReportPartials(db, facilityIds, fieldIds, null, null).then(partialsByKey),
});

/** A ship's partial sums of one period (or its lifetime) and the ship's values version they were read under. */
export interface ShipPartials {
  version: string;
  /** By value source. */
  partials: Promise<ReadonlyMap<string, ReportPartial>>;
}

/** Where {@link sharedPartials} keeps each ship's partials (an LRU of the process, or one of a single call). */
export interface ShipPartialsCache {
  get(key: string): ShipPartials | undefined;
  set(key: string, value: ShipPartials): void;
  delete(key: string): void;
}

const NO_PARTIALS = new Map<string, ReportPartial>();
/** The ship of a `partialKey`. */
const shipOfKey = (k: string) => k.slice(0, k.indexOf('|'));

/**
 * The ships' partial sums (each ship's by value source) as one lookup, without copying them into one map: a
 * 5,000-ship fleet is 85,000 sums, and copying them for every report of a dashboard at every new version took most
 * of a process's time with data arriving (bench/results/dashboard.md, session 18).
 */
function partialsOfShips(byShip: Map<string, ReadonlyMap<string, ReportPartial>>): Partials {
  return {
    of: (ship, source) => byShip.get(ship)?.get(source),
    *[Symbol.iterator]() {
      for (const [ship, map] of byShip)
        for (const [source, partial] of map) yield [key(ship, source), partial] as [string, ReportPartial];
    },
  };
}

/**
 * The partials a load made, per partials cache and ships' versions (the map `versionsOf` answered, which names the
 * ships and their versions) and scope: the reports of one dashboard at one version ask the same fleet's sums, and
 * share one lookup instead of each building its own.
 */
const loadsMade = new WeakMap<object, WeakMap<object, Map<string, Promise<Partials>>>>();

/**
 * Partials of every value source for a set of ships, per period and for the lifetime, kept per ship under the ship's
 * values version (migration 0041, `readShipValuesVersions`): the reports of the fleet dashboard (and every user
 * looking at a fleet with that ship) read the same sums, and when data arrives for one ship only that ship's sums
 * are read again; the other 999 of a 1,000-ship fleet come from the cache
 * (docs/decisions/0136-fleet-partials-per-ship.md). A report asks for its fields only; the loader aggregates
 * `allFieldIds` anyway, and the answer is the same. The versions are read before the sums, so a sum cached under a
 * version is never older than it (a change in between only makes the next call read that ship again).
 */
export function sharedPartials(
  db: Kysely<Database>,
  allFieldIds: string[],
  cache: ShipPartialsCache,
  /** The ships' values versions (by default read here; the caller may share one read between loads). */
  versionsOf: (ships: string[]) => Promise<Map<string, string>> = (ships) =>
    readShipValuesVersions(db, ships),
): PartialsLoader {
  const sources = [...new Set(allFieldIds)].sort();
  const sourcesKey = createHash('sha1').update(sources.join(',')).digest('base64url');
  const sourceIds = new Map(allFieldIds.map((id) => [id, id]));
  const load = async (kind: string, facilityIds: string[], from: Date | null, to: Date | null) => {
    const ships = [...new Set(facilityIds)];
    const versions = await versionsOf(ships);
    const scope = `${kind}|${from?.getTime() ?? ''}|${to?.getTime() ?? ''}|${sourcesKey}`;
    let byVersions = loadsMade.get(cache);
    if (!byVersions) loadsMade.set(cache, (byVersions = new WeakMap()));
    let made = byVersions.get(versions);
    if (!made) byVersions.set(versions, (made = new Map()));
    let lookup = made.get(scope);
    if (!lookup) {
      lookup = loadShips(ships, versions, scope, from, to);
      made.set(scope, lookup);
      lookup.catch(() => made.delete(scope));
    }
    return lookup;
  };
  const loadShips = async (
    ships: string[],
    versions: Map<string, string>,
    scope: string,
    from: Date | null,
    to: Date | null,
  ): Promise<Partials> => {
    const parts: [string, Promise<ReadonlyMap<string, ReportPartial>>][] = [];
    const stale: string[] = [];
    for (const ship of ships) {
      const entry = cache.get(`${scope}|${ship}`);
      if (entry && entry.version === versions.get(ship)) parts.push([ship, entry.partials]);
      else stale.push(ship);
    }
    if (stale.length > 0) {
      // One query for all the ships to read again, split per ship for the cache.
      const read = readReportPartials(db, stale, sources, from, to).then((all) => {
        const byShip = new Map<string, Map<string, ReportPartial>>();
        for (const [k, partial] of all) {
          const ship = shipOfKey(k);
          let map = byShip.get(ship);
          if (!map) byShip.set(ship, (map = new Map()));
          // Keyed by the source's own string (a lookup by an equal string made apart from it is twice as slow).
          const source = k.slice(ship.length + 1);
          map.set(sourceIds.get(source) ?? source, partial);
        }
        return byShip;
      });
      for (const ship of stale) {
        const key = `${scope}|${ship}`;
        const partials = read.then((byShip) => byShip.get(ship) ?? NO_PARTIALS);
        partials.catch(() => cache.delete(key));
        cache.set(key, { version: versions.get(ship)!, partials });
        parts.push([ship, partials]);
      }
    }
    const maps = await Promise.all(parts.map(([, partials]) => partials));
    const byShip = new Map<string, ReadonlyMap<string, ReportPartial>>();
    parts.forEach(([ship], i) => {
      if (maps[i]!.size > 0) byShip.set(ship, maps[i]!);
    });
    return partialsOfShips(byShip);
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
  /** At most this many points a chart series (downsample.ts); MAX_CHART_POINTS by default. */
  maxSeriesPoints?: number;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The value of a time aggregate from its partial sums; null when no hour had a value. */
export function timeAggregate(type: AggregateType, p: ReportPartial | undefined): number | null {
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
 * Points of a series: hourly values, or in mode daily one value a day. Per ship. A day's value is the average of
 * its hours, except for a field whose time aggregate is Min or Max (a washwater criterion's worst): its lowest or
 * highest hour, so that an hour over a limit stays over it on a long period's chart instead of being averaged away.
 */
function seriesPoints(
  db: Kysely<Database>,
  facilityIds: string[],
  fieldId: string,
  from: Date,
  to: Date,
  mode: UptimeMode,
  type: AggregateType,
): Promise<ReportPoint[]> {
  if (mode === 'hourly') return readHourlyPoints(db, facilityIds, fieldId, from, to);
  const pick = type === 'Min' ? 'min' : type === 'Max' ? 'max' : 'average';
  return readDailyPoints(db, facilityIds, fieldId, from, to, pick);
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
  const none: Promise<Partials> = Promise.resolve(partialsByKey(new Map()));
  const [period, lifetime, lastPeriod, lastLifetime] = await Promise.all([
    periodFields.length ? loader.period(allShips, periodFields, from, to) : none,
    lifetimeFields.length ? loader.lifetime(allShips, lifetimeFields) : none,
    readLastReportValues(db, allShips, lastPeriodFields, from, to).then(partialsByKey),
    readLastReportValues(db, allShips, lastLifetimeFields, null, null).then(partialsByKey),
  ]);

  const out: Record<string, ReportFieldValue> = {};
  const series = new Map<string, { field: FieldRow; points: TimePoint[] }>();
  const maxSeriesPoints = request.maxSeriesPoints ?? MAX_CHART_POINTS;
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
        const p = partials.of(facilityId, sourceId);
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
      series.set(field.name, { field, points: merged });
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
  // Long chart series down-sampled for display (downsample.ts), a series with its limit together; not the uptime
  // matrix (a cell per hour or day) nor the compliance charts' values (the chart averages them into its slots).
  const chartSeries = (f: FieldRow) =>
    f.interface_type !== 'UptimePoints' && f.interface_type !== 'ComplianceValues';
  for (const [name, { field, points }] of series) {
    if (!chartSeries(field)) continue;
    const limitName = name.endsWith('Values') ? `${name.slice(0, -'Values'.length)}Limit` : undefined;
    const limit = limitName ? series.get(limitName) : undefined;
    if (limit && chartSeries(limit.field)) {
      const reduced = downsampleWithLimit(points, limit.points, maxSeriesPoints);
      series.set(name, { field, points: reduced.values });
      series.set(limitName!, { field: limit.field, points: reduced.limit! });
    } else if (!(name.endsWith('Limit') && series.has(`${name.slice(0, -'Limit'.length)}Values`))) {
      series.set(name, { field, points: downsampleWithLimit(points, undefined, maxSeriesPoints).values });
    }
  }
  for (const field of fields) {
    const s = series.get(field.name);
    if (!s) continue;
    const value =
      field.interface_type === 'ComplianceValues'
        ? s.points.map((p) => ({ complianceDate: iso(p.t)!, value: p.value }))
        : s.points.map((p) => ({ timestamp: iso(p.t)!, value: p.value }));
    out[field.name] = { value, format: field.format };
  }
  // The fields in the report's order, as before the series were set aside.
  const ordered: Record<string, ReportFieldValue> = {};
  for (const field of fields) if (out[field.name]) ordered[field.name] = out[field.name]!;
  return { information: report.information, fields: ordered };
}
