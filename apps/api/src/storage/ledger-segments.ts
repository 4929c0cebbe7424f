import { sql, type Expression, type Kysely, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { CII_TREND_DAYS, CONSUMERS, FUEL_TYPES } from '@portal/contracts/rules/carbon';
import type { StoredFuelLine } from '../db/tables/carbon';
import type { ShipType } from '@portal/contracts/ship-particulars';

/**
 * The carbon ledger's pieces of time (`ledger_segments`, with their roll-up per ship and year `ledger_years`,
 * migration 0026_carbon_ledger): per ship, a stay at berth or
 * a voyage's part of one UTC day, keyed by its start. Written by the engine's step "port calls and voyages" only
 * (features/executions/store-ledger.ts); read by the ledger's sums (voyages, stays, periods, years).
 */

export interface StoredSegment {
  start: number;
  end: number;
  day: number;
  kind: 'stay' | 'voyage';
  distanceNm: number;
  hoursUnderWay: number;
  hoursNotUnderWay: number;
  hoursWithoutPosition: number;
  fuel: StoredFuelLine[];
  hoursWithoutFuelData: Record<string, number>;
  co2g: number;
  unknownFuelKg: number;
  scrubberKg: number;
  scrubberCo2g: number;
}

type Db = Kysely<Database> | Transaction<Database>;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (d: Date | string) =>
  typeof d === 'string' ? Date.parse(`${d.slice(0, 10)}T00:00:00Z`) : new Date(d).getTime();
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

const FUEL_SLOTS: readonly string[] = [...FUEL_TYPES, 'UNKNOWN'];
const lineOrder = (f: StoredFuelLine) =>
  (CONSUMERS as readonly string[]).indexOf(f.consumer) * FUEL_SLOTS.length + FUEL_SLOTS.indexOf(f.fuelType);

/**
 * Fuel lines in one order (consumer, then fuel type, as CONSUMERS and FUEL_TYPES list them) with their keys in one
 * order (jsonb keeps its own order of keys, and rows come in no order).
 */
export const canonicalFuel = (lines: readonly StoredFuelLine[]): StoredFuelLine[] =>
  lines
    .map((f) => ({ consumer: f.consumer, fuelType: f.fuelType, kg: f.kg, kgNotUnderWay: f.kgNotUnderWay }))
    .sort((a, b) => lineOrder(a) - lineOrder(b));
/** Hours per channel id, the ids in order. */
export const canonicalHours = (hours: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(hours).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The pieces of a ship that start inside [from, to), in time order. */
export async function readLedgerSegments(
  db: Db,
  facilityId: string,
  from: number,
  to: number,
): Promise<StoredSegment[]> {
  const rows = await db
    .selectFrom('ledger_segments')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .where('start_on', '>=', new Date(from))
    .where('start_on', '<', new Date(to))
    .orderBy('start_on')
    .execute();
  return rows.map((r) => ({
    start: new Date(r.start_on).getTime(),
    end: new Date(r.end_on).getTime(),
    day: dayMs(r.day),
    kind: r.kind,
    distanceNm: r.distance_nm,
    hoursUnderWay: r.hours_under_way,
    hoursNotUnderWay: r.hours_not_under_way,
    hoursWithoutPosition: r.hours_without_position,
    fuel: canonicalFuel(json(r.fuel)),
    hoursWithoutFuelData: canonicalHours(json(r.hours_without_fuel_data)),
    co2g: r.co2_g,
    unknownFuelKg: r.unknown_fuel_kg,
    scrubberKg: r.scrubber_kg,
    scrubberCo2g: r.scrubber_co2_g,
  }));
}

const columns = (facilityId: string, s: StoredSegment) => ({
  facility_id: facilityId,
  start_on: new Date(s.start),
  end_on: new Date(s.end),
  day: dayText(s.day),
  kind: s.kind,
  distance_nm: s.distanceNm,
  hours_under_way: s.hoursUnderWay,
  hours_not_under_way: s.hoursNotUnderWay,
  hours_without_position: s.hoursWithoutPosition,
  fuel: JSON.stringify(canonicalFuel(s.fuel)),
  hours_without_fuel_data: JSON.stringify(canonicalHours(s.hoursWithoutFuelData)),
  co2_g: s.co2g,
  unknown_fuel_kg: s.unknownFuelKg,
  scrubber_kg: s.scrubberKg,
  scrubber_co2_g: s.scrubberCo2g,
});

/** The same piece: every figure equal (JSON of the fuel lines compared as text, in their stored order). */
export function sameSegment(a: StoredSegment, b: StoredSegment): boolean {
  return (
    a.start === b.start &&
    a.end === b.end &&
    a.day === b.day &&
    a.kind === b.kind &&
    a.distanceNm === b.distanceNm &&
    a.hoursUnderWay === b.hoursUnderWay &&
    a.hoursNotUnderWay === b.hoursNotUnderWay &&
    a.hoursWithoutPosition === b.hoursWithoutPosition &&
    a.co2g === b.co2g &&
    a.unknownFuelKg === b.unknownFuelKg &&
    a.scrubberKg === b.scrubberKg &&
    a.scrubberCo2g === b.scrubberCo2g &&
    JSON.stringify(canonicalFuel(a.fuel)) === JSON.stringify(canonicalFuel(b.fuel)) &&
    JSON.stringify(canonicalHours(a.hoursWithoutFuelData)) ===
      JSON.stringify(canonicalHours(b.hoursWithoutFuelData))
  );
}

/**
 * Replaces the ship's pieces starting inside [from, to) with `segments` (all inside it), writing only what differs:
 * a rerun over unchanged data writes nothing. Returns the rows written (inserted, updated and deleted).
 */
export async function replaceLedgerSegments(
  trx: Transaction<Database>,
  facilityId: string,
  from: number,
  to: number,
  segments: readonly StoredSegment[],
): Promise<number> {
  const stored = new Map((await readLedgerSegments(trx, facilityId, from, to)).map((s) => [s.start, s]));
  const inserts: StoredSegment[] = [];
  let writes = 0;
  for (const s of segments) {
    const before = stored.get(s.start);
    stored.delete(s.start);
    if (!before) inserts.push(s);
    else if (!sameSegment(before, s)) {
      const { facility_id: _f, start_on: _s, ...set } = columns(facilityId, s);
      await trx
        .updateTable('ledger_segments')
        .set(set)
        .where('facility_id', '=', facilityId)
        .where('start_on', '=', new Date(s.start))
        .execute();
      writes++;
    }
  }
  if (stored.size) {
    await trx
      .deleteFrom('ledger_segments')
      .where('facility_id', '=', facilityId)
      .where(
        'start_on',
        'in',
        [...stored.keys()].map((t) => new Date(t)),
      )
      .execute();
    writes += stored.size;
  }
  for (let at = 0; at < inserts.length; at += 500)
    await trx
      .insertInto('ledger_segments')
      .values(inserts.slice(at, at + 500).map((s) => columns(facilityId, s)))
      .execute();
  if (writes + inserts.length > 0) await refreshLedgerYears(trx, facilityId, from, to);
  return writes + inserts.length;
}

/** The first and last moment a ship's pieces cover (null without any). */
export async function readLedgerExtent(
  db: Db,
  facilityId: string,
): Promise<{ from: number; to: number } | null> {
  const row = await db
    .selectFrom('ledger_segments')
    .select((eb) => [eb.fn.min('start_on').as('from'), eb.fn.max('end_on').as('to')])
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  return row?.from && row.to ? { from: new Date(row.from).getTime(), to: new Date(row.to).getTime() } : null;
}

/** Per ship, a year's sums as the CII reads them (readCiiSums). */
export interface CiiSums {
  facilityId: string;
  /** First and last UTC day with a piece in the year. */
  firstDay: number;
  lastDay: number;
  co2g: number;
  distanceNm: number;
  scrubberCo2g: number;
  unknownFuelKg: number;
  /** The sums over the trend window: the last `trendDays` days up to the last day with a piece. */
  recentCo2g: number;
  recentDistanceNm: number;
}

/**
 * The trend window of the CII's projection (rules/carbon/cii.ts, CII_TREND_DAYS): the roll-up keeps the sums of the
 * last this many days up to each year's last day with a piece.
 */
const TREND_DAYS = CII_TREND_DAYS;

/**
 * Refreshes the roll-up (`ledger_years`) of a ship's calendar years that [from, to) touches, from its pieces, in the
 * writing transaction: the year's sums and those of its trend window; a year without pieces loses its row.
 */
async function refreshLedgerYears(
  trx: Transaction<Database>,
  facilityId: string,
  from: number,
  to: number,
): Promise<void> {
  const first = new Date(from).getUTCFullYear();
  const last = new Date(to - 1).getUTCFullYear();
  for (let year = first; year <= last; year++) {
    const yearFrom = Date.UTC(year, 0, 1);
    const yearTo = Date.UTC(year + 1, 0, 1);
    const { rows } = await sql<{
      first_day: string;
      last_day: string;
      co2: number | string;
      nm: number | string;
      scrubber: number | string;
      unknown: number | string;
      recent_co2: number | string;
      recent_nm: number | string;
    }>`
      with y as (
        select day, co2_g, distance_nm, scrubber_co2_g, unknown_fuel_kg from ledger_segments
        where facility_id = ${facilityId} and day >= ${dayText(yearFrom)}::date and day < ${dayText(yearTo)}::date
      ), l as (select max(day) as last_day from y)
      select min(y.day)::text as first_day, max(y.day)::text as last_day,
             sum(co2_g) as co2, sum(distance_nm) as nm, sum(scrubber_co2_g) as scrubber,
             sum(unknown_fuel_kg) as unknown,
             coalesce(sum(co2_g) filter (where y.day > l.last_day - ${TREND_DAYS}::int), 0) as recent_co2,
             coalesce(sum(distance_nm) filter (where y.day > l.last_day - ${TREND_DAYS}::int), 0) as recent_nm
      from y, l
      having count(*) > 0`.execute(trx);
    const r = rows[0];
    if (!r) {
      await trx
        .deleteFrom('ledger_years')
        .where('facility_id', '=', facilityId)
        .where('year', '=', year)
        .execute();
      continue;
    }
    const values = {
      first_day: r.first_day.slice(0, 10),
      last_day: r.last_day.slice(0, 10),
      co2_g: Number(r.co2),
      distance_nm: Number(r.nm),
      scrubber_co2_g: Number(r.scrubber),
      unknown_fuel_kg: Number(r.unknown),
      recent_co2_g: Number(r.recent_co2),
      recent_distance_nm: Number(r.recent_nm),
    };
    await trx
      .insertInto('ledger_years')
      .values({ facility_id: facilityId, year, ...values })
      .onConflict((oc) => oc.columns(['facility_id', 'year']).doUpdateSet(values))
      .execute();
  }
}

/** Per ship, a year's sums as the CII reads them (readCiiSums). */
export interface CiiSums {
  facilityId: string;
  /** First and last UTC day with a piece in the year. */
  firstDay: number;
  lastDay: number;
  co2g: number;
  distanceNm: number;
  scrubberCo2g: number;
  unknownFuelKg: number;
  /** The sums over the trend window: the last CII_TREND_DAYS days up to the last day with a piece. */
  recentCo2g: number;
  recentDistanceNm: number;
}

type LedgerYearRow = Pick<
  Selectable<Database['ledger_years']>,
  | 'first_day'
  | 'last_day'
  | 'co2_g'
  | 'distance_nm'
  | 'scrubber_co2_g'
  | 'unknown_fuel_kg'
  | 'recent_co2_g'
  | 'recent_distance_nm'
>;
const ciiSums = (facilityId: string, r: LedgerYearRow): CiiSums => ({
  facilityId,
  firstDay: dayMs(r.first_day),
  lastDay: dayMs(r.last_day),
  co2g: r.co2_g,
  distanceNm: r.distance_nm,
  scrubberCo2g: r.scrubber_co2_g,
  unknownFuelKg: r.unknown_fuel_kg,
  recentCo2g: r.recent_co2_g,
  recentDistanceNm: r.recent_distance_nm,
});

/** Ships' sums of a calendar year for the CII, from the roll-up: one row per ship (the ship card reads one). */
export async function readCiiSums(db: Db, facilityIds: readonly string[], year: number): Promise<CiiSums[]> {
  if (facilityIds.length === 0) return [];
  const rows = await db
    .selectFrom('ledger_years')
    .selectAll()
    .where('facility_id', 'in', [...facilityIds])
    .where('year', '=', year)
    .execute();
  return rows.map((r) => ciiSums(r.facility_id, r));
}

/** A ship's particulars as the CII reads them (features/carbon/reports.ts). */
export interface CiiParticulars {
  id: string;
  name: string;
  imo: string | null;
  shipType: ShipType | null;
  deadweight: number | null;
  grossTonnage: number | null;
}

/** A ship as the CII reads it: its particulars and its sums of the year (none without a row for it). */
export interface ShipCiiInputs extends CiiParticulars {
  sums: CiiSums | undefined;
}

/**
 * The ships a condition keeps (the caller's, features/access/policy.ts facilityVisibleTo) with their particulars
 * and their sums of a calendar year, in one query: the ships joined to their row of the roll-up (the fleet CII card
 * of 5,000 ships asked the sums with the ships' 5,000 ids as parameters).
 */
export async function readShipsCiiInputs(
  db: Db,
  year: number,
  keep: (facilityId: Expression<string>) => Expression<SqlBool>,
): Promise<ShipCiiInputs[]> {
  const rows = await db
    .selectFrom('facilities as f')
    .leftJoin('ledger_years as y', (join) => join.onRef('y.facility_id', '=', 'f.id').on('y.year', '=', year))
    .select([
      'f.id',
      'f.name',
      'f.imo',
      'f.ship_type',
      'f.deadweight_tonnes',
      'f.gross_tonnage',
      'y.first_day',
      'y.last_day',
      'y.co2_g',
      'y.distance_nm',
      'y.scrubber_co2_g',
      'y.unknown_fuel_kg',
      'y.recent_co2_g',
      'y.recent_distance_nm',
    ])
    .where(keep(sql.ref('f.id')))
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    imo: r.imo,
    shipType: r.ship_type,
    deadweight: r.deadweight_tonnes,
    grossTonnage: r.gross_tonnage,
    sums:
      r.first_day === null || r.last_day === null
        ? undefined
        : ciiSums(r.id, {
            first_day: r.first_day,
            last_day: r.last_day,
            co2_g: r.co2_g ?? 0,
            distance_nm: r.distance_nm ?? 0,
            scrubber_co2_g: r.scrubber_co2_g ?? 0,
            unknown_fuel_kg: r.unknown_fuel_kg ?? 0,
            recent_co2_g: r.recent_co2_g ?? 0,
            recent_distance_nm: r.recent_distance_nm ?? 0,
          }),
  }));
}
