import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { StoredFuelLine } from '../db/tables/carbon';
import { readFuelLines, replaceFuelLines, sameFuel } from './fuel-lines';
import { canonicalHours } from './ledger-segments';

/**
 * A ship's voyages (`voyages` with `voyage_fuel`, migration 0026_carbon_ledger): from one port call's departure to
 * the next call's arrival, their sums over the ledger's pieces. Written by the engine's step "port calls and voyages"
 * only (features/executions/store-ledger.ts). A voyage keeps its id while it leaves from the same call (or, before
 * the first call, at the same time): a rerun over unchanged data writes nothing.
 */

export interface VoyageFacts {
  fromCallId: string | null;
  toCallId: string | null;
  departure: number;
  arrival: number;
  distanceNm: number;
  hoursUnderWay: number;
  hoursNotUnderWay: number;
  hoursWithoutPosition: number;
  hoursWithoutFuelData: Record<string, number>;
  co2g: number;
  fuel: StoredFuelLine[];
}

export interface StoredVoyage extends VoyageFacts {
  id: string;
  facilityId: string;
}

type Db = Kysely<Database> | Transaction<Database>;
const ms = (d: Date) => new Date(d).getTime();
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

function voyagesQuery(db: Db) {
  return db
    .selectFrom('voyages')
    .select([
      'id',
      'facility_id',
      'from_call_id',
      'to_call_id',
      'departure',
      'arrival',
      'distance_nm',
      'hours_under_way',
      'hours_not_under_way',
      'hours_without_position',
      'hours_without_fuel_data',
      'co2_g',
    ]);
}
type VoyageRow = Awaited<ReturnType<ReturnType<typeof voyagesQuery>['execute']>>[number];

async function withFuel(db: Db, rows: VoyageRow[]): Promise<StoredVoyage[]> {
  const byVoyage = await readFuelLines(
    db,
    'voyage',
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    facilityId: r.facility_id,
    fromCallId: r.from_call_id,
    toCallId: r.to_call_id,
    departure: ms(r.departure),
    arrival: ms(r.arrival),
    distanceNm: r.distance_nm,
    hoursUnderWay: r.hours_under_way,
    hoursNotUnderWay: r.hours_not_under_way,
    hoursWithoutPosition: r.hours_without_position,
    hoursWithoutFuelData: canonicalHours(json(r.hours_without_fuel_data)),
    co2g: r.co2_g,
    fuel: byVoyage.get(r.id) ?? [],
  }));
}

/** A ship's voyages that overlap [from, to) (all without bounds), in time order, with their fuel. */
export async function readVoyages(
  db: Db,
  facilityId: string,
  range: { from?: number; to?: number } = {},
): Promise<StoredVoyage[]> {
  let query = voyagesQuery(db).where('facility_id', '=', facilityId);
  if (range.from !== undefined) query = query.where('arrival', '>', new Date(range.from));
  if (range.to !== undefined) query = query.where('departure', '<', new Date(range.to));
  return withFuel(db, await query.orderBy('departure').execute());
}

/** One voyage by id; undefined when there is none. */
export async function findVoyage(db: Db, id: string): Promise<StoredVoyage | undefined> {
  return (await withFuel(db, await voyagesQuery(db).where('id', '=', id).execute()))[0];
}

const sameFacts = (a: VoyageFacts, b: VoyageFacts) =>
  a.fromCallId === b.fromCallId &&
  a.toCallId === b.toCallId &&
  a.departure === b.departure &&
  a.arrival === b.arrival &&
  a.distanceNm === b.distanceNm &&
  a.hoursUnderWay === b.hoursUnderWay &&
  a.hoursNotUnderWay === b.hoursNotUnderWay &&
  a.hoursWithoutPosition === b.hoursWithoutPosition &&
  a.co2g === b.co2g &&
  JSON.stringify(canonicalHours(a.hoursWithoutFuelData)) ===
    JSON.stringify(canonicalHours(b.hoursWithoutFuelData));

const columns = (v: VoyageFacts) => ({
  from_call_id: v.fromCallId,
  to_call_id: v.toCallId,
  departure: new Date(v.departure),
  arrival: new Date(v.arrival),
  distance_nm: v.distanceNm,
  hours_under_way: v.hoursUnderWay,
  hours_not_under_way: v.hoursNotUnderWay,
  hours_without_position: v.hoursWithoutPosition,
  hours_without_fuel_data: JSON.stringify(canonicalHours(v.hoursWithoutFuelData)),
  co2_g: v.co2g,
});

/**
 * Replaces the ship's voyages departing inside [from, to) with `voyages` (all departing inside it): a stored one
 * leaving from the same call, else at the same time, keeps its id and is written only when a figure changed.
 * Returns the rows written.
 */
export async function replaceVoyages(
  trx: Transaction<Database>,
  facilityId: string,
  from: number,
  to: number,
  voyages: readonly VoyageFacts[],
): Promise<number> {
  const stored = await withFuel(
    trx,
    await voyagesQuery(trx)
      .where('facility_id', '=', facilityId)
      .where('departure', '>=', new Date(from))
      .where('departure', '<', new Date(to))
      .execute(),
  );
  const free = new Set(stored);
  const matched: [StoredVoyage, VoyageFacts][] = [];
  const added: VoyageFacts[] = [];
  for (const v of voyages) {
    const same =
      [...free].find((s) => v.fromCallId !== null && s.fromCallId === v.fromCallId) ??
      [...free].find((s) => s.departure === v.departure);
    if (same) {
      free.delete(same);
      matched.push([same, v]);
    } else added.push(v);
  }
  let writes = 0;
  // Withdrawn first: a voyage derived again may take the departure a withdrawn one had (unique per ship).
  if (free.size) {
    await trx
      .deleteFrom('voyages')
      .where(
        'id',
        'in',
        [...free].map((s) => s.id),
      )
      .execute();
    writes += free.size;
  }
  const fuel: { id: string; fuel: readonly StoredFuelLine[]; hadLines: boolean }[] = [];
  for (const [s, v] of matched) {
    if (!sameFacts(s, v)) {
      await trx
        .updateTable('voyages')
        .set({ ...columns(v), derived_on: new Date() })
        .where('id', '=', s.id)
        .execute();
      writes++;
    }
    if (!sameFuel(s.fuel, v.fuel)) fuel.push({ id: s.id, fuel: v.fuel, hadLines: true });
  }
  // New voyages in one statement, their ids made here; the fuel rows of the new and the changed in another.
  const inserts = added.map((v) => ({ id: randomUUID(), facility_id: facilityId, ...columns(v), v }));
  for (let at = 0; at < inserts.length; at += 500)
    await trx
      .insertInto('voyages')
      .values(inserts.slice(at, at + 500).map(({ v: _v, ...row }) => row))
      .execute();
  for (const { id, v } of inserts) fuel.push({ id, fuel: v.fuel, hadLines: false });
  writes += inserts.length + (await replaceFuelLines(trx, 'voyage', fuel));
  return writes;
}
