import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { StoredFuelLine } from '../db/tables/carbon';
import { readFuelLines, replaceFuelLines, sameFuel } from './fuel-lines';
import { canonicalHours } from './ledger-segments';

/**
 * A ship's port calls (`port_calls` with `port_call_fuel`, migration 0026_carbon_ledger): derived from position and
 * speed by the engine's step "port calls and voyages", written by it only (features/executions/store-ledger.ts).
 * A call keeps its id while it is derived again at the same port with an arrival within the tolerance, as events
 * keep theirs (a rerun over unchanged data writes nothing).
 */

/** What the engine derives of a call. */
export interface PortCallFacts {
  /** The port: a reference port's UN/LOCODE, or an organization's port as `org:<id>`. */
  portKey: string;
  locode: string | null;
  portName: string;
  country: string;
  arrival: number;
  departure: number;
  gapMs: number;
  openStart: boolean;
  openEnd: boolean;
}

export interface StoredPortCall extends PortCallFacts {
  id: string;
  facilityId: string;
  /** At berth, per consumer and fuel type. */
  fuel: StoredFuelLine[];
  hoursWithoutFuelData: Record<string, number>;
}

type Db = Kysely<Database> | Transaction<Database>;
const ms = (d: Date) => new Date(d).getTime();
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

function callsQuery(db: Db) {
  return db
    .selectFrom('port_calls')
    .select([
      'id',
      'facility_id',
      'port_key',
      'locode',
      'port_name',
      'country',
      'arrival',
      'departure',
      'gap_ms',
      'open_start',
      'open_end',
      'hours_without_fuel_data',
    ]);
}
type CallRow = Awaited<ReturnType<ReturnType<typeof callsQuery>['execute']>>[number];

async function withFuel(db: Db, rows: CallRow[]): Promise<StoredPortCall[]> {
  const byCall = await readFuelLines(
    db,
    'port-call',
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    facilityId: r.facility_id,
    portKey: r.port_key,
    locode: r.locode,
    portName: r.port_name,
    country: r.country,
    arrival: ms(r.arrival),
    departure: ms(r.departure),
    gapMs: r.gap_ms,
    openStart: r.open_start,
    openEnd: r.open_end,
    fuel: byCall.get(r.id) ?? [],
    hoursWithoutFuelData: canonicalHours(json(r.hours_without_fuel_data)),
  }));
}

/** A ship's calls that overlap [from, to) (all without bounds), in time order, with their fuel at berth. */
export async function readPortCalls(
  db: Db,
  facilityId: string,
  range: { from?: number; to?: number } = {},
): Promise<StoredPortCall[]> {
  let query = callsQuery(db).where('facility_id', '=', facilityId);
  if (range.from !== undefined) query = query.where('departure', '>=', new Date(range.from));
  if (range.to !== undefined) query = query.where('arrival', '<', new Date(range.to));
  return withFuel(db, await query.orderBy('arrival').orderBy('id').execute());
}

/** One call by id, with its ship; undefined when there is none. */
export async function findPortCall(db: Db, id: string): Promise<StoredPortCall | undefined> {
  const rows = await callsQuery(db).where('id', '=', id).execute();
  return (await withFuel(db, rows))[0];
}

/** The ship's last call that departs before `at` and its first that arrives at or after `until` (null when none). */
export async function readNeighbourCalls(
  db: Db,
  facilityId: string,
  at: number,
  until: number,
): Promise<{ before: StoredPortCall | null; after: StoredPortCall | null }> {
  const before = await callsQuery(db)
    .where('facility_id', '=', facilityId)
    .where('departure', '<', new Date(at))
    .orderBy('departure', 'desc')
    .limit(1)
    .execute();
  const after = await callsQuery(db)
    .where('facility_id', '=', facilityId)
    .where('arrival', '>=', new Date(until))
    .orderBy('arrival')
    .limit(1)
    .execute();
  return {
    before: (await withFuel(db, before))[0] ?? null,
    after: (await withFuel(db, after))[0] ?? null,
  };
}

/** The earliest arrival of a stored call that reaches `at` (arrives before it, departs at or after it), or null. */
export async function readCallCrossing(db: Db, facilityId: string, at: number): Promise<number | null> {
  const row = await db
    .selectFrom('port_calls')
    .select((eb) => [eb.fn.min('arrival').as('arrival'), eb.fn.max('departure').as('departure')])
    .where('facility_id', '=', facilityId)
    .where('arrival', '<', new Date(at))
    .where('departure', '>=', new Date(at))
    .executeTakeFirst();
  return row?.arrival ? ms(row.arrival) : null;
}

/** The latest departure of a stored call that arrives before `at` and departs at or after it, or null. */
export async function readCallDepartingAfter(db: Db, facilityId: string, at: number): Promise<number | null> {
  const row = await db
    .selectFrom('port_calls')
    .select((eb) => eb.fn.max('departure').as('departure'))
    .where('facility_id', '=', facilityId)
    .where('arrival', '<', new Date(at))
    .where('departure', '>=', new Date(at))
    .executeTakeFirst();
  return row?.departure ? ms(row.departure) : null;
}

const sameFacts = (a: PortCallFacts, b: PortCallFacts) =>
  a.portKey === b.portKey &&
  a.locode === b.locode &&
  a.portName === b.portName &&
  a.country === b.country &&
  a.arrival === b.arrival &&
  a.departure === b.departure &&
  a.gapMs === b.gapMs &&
  a.openStart === b.openStart &&
  a.openEnd === b.openEnd;

const factColumns = (c: PortCallFacts) => ({
  port_key: c.portKey,
  locode: c.locode,
  port_name: c.portName,
  country: c.country,
  arrival: new Date(c.arrival),
  departure: new Date(c.departure),
  gap_ms: c.gapMs,
  open_start: c.openStart,
  open_end: c.openEnd,
});

/**
 * Replaces the ship's calls arriving inside [from, to) with `calls` (all arriving inside it). A stored call at the
 * same port whose arrival is within `toleranceMs` of a derived one is that call (the closest first): it keeps its id
 * and is updated only when a fact changed. Returns the ids of `calls` in their order, and the rows written.
 */
export async function replacePortCalls(
  trx: Transaction<Database>,
  facilityId: string,
  from: number,
  to: number,
  calls: readonly PortCallFacts[],
  toleranceMs: number,
): Promise<{ ids: string[]; writes: number }> {
  const stored = await withFuel(
    trx,
    await callsQuery(trx)
      .where('facility_id', '=', facilityId)
      .where('arrival', '>=', new Date(from))
      .where('arrival', '<', new Date(to))
      .orderBy('arrival')
      .execute(),
  );
  const free = new Set(stored);
  const ids: string[] = [];
  const inserts: (ReturnType<typeof factColumns> & {
    id: string;
    facility_id: string;
    hours_without_fuel_data: string;
  })[] = [];
  let writes = 0;
  for (const call of calls) {
    let best: StoredPortCall | undefined;
    for (const s of free)
      if (
        s.portKey === call.portKey &&
        Math.abs(s.arrival - call.arrival) <= toleranceMs &&
        (!best || Math.abs(s.arrival - call.arrival) < Math.abs(best.arrival - call.arrival))
      )
        best = s;
    if (best) {
      free.delete(best);
      ids.push(best.id);
      if (!sameFacts(best, call)) {
        await trx
          .updateTable('port_calls')
          .set({ ...factColumns(call), derived_on: new Date() })
          .where('id', '=', best.id)
          .execute();
        writes++;
      }
      continue;
    }
    const id = randomUUID();
    inserts.push({ id, facility_id: facilityId, ...factColumns(call), hours_without_fuel_data: '{}' });
    ids.push(id);
  }
  // New calls in one statement, their ids made here.
  for (let at = 0; at < inserts.length; at += 500)
    await trx
      .insertInto('port_calls')
      .values(inserts.slice(at, at + 500))
      .execute();
  writes += inserts.length;
  if (free.size) {
    await trx
      .deleteFrom('port_calls')
      .where(
        'id',
        'in',
        [...free].map((s) => s.id),
      )
      .execute();
    writes += free.size;
  }
  return { ids, writes };
}

/**
 * Sets calls' fuel at berth and hours without fuel data where they differ from what is stored: the changed calls'
 * fuel rows replaced in one delete and one insert. Returns the rows written.
 */
export async function setPortCallsFuel(
  trx: Transaction<Database>,
  items: readonly {
    call: Pick<StoredPortCall, 'id' | 'fuel' | 'hoursWithoutFuelData'>;
    fuel: readonly StoredFuelLine[];
    hoursWithoutFuelData: Record<string, number>;
  }[],
): Promise<number> {
  let writes = 0;
  const changes: { id: string; fuel: readonly StoredFuelLine[]; hadLines: boolean }[] = [];
  for (const { call, fuel, hoursWithoutFuelData } of items) {
    const hours = canonicalHours(hoursWithoutFuelData);
    if (JSON.stringify(hours) !== JSON.stringify(canonicalHours(call.hoursWithoutFuelData))) {
      await trx
        .updateTable('port_calls')
        .set({ hours_without_fuel_data: JSON.stringify(hours) })
        .where('id', '=', call.id)
        .execute();
      writes++;
    }
    if (!sameFuel(call.fuel, fuel)) changes.push({ id: call.id, fuel, hadLines: call.fuel.length > 0 });
  }
  return writes + (await replaceFuelLines(trx, 'port-call', changes));
}

/** Removes every call of a ship (its ports are gone): the engine derives them again. */
export async function deletePortCalls(trx: Transaction<Database>, facilityId: string): Promise<number> {
  const result = await trx.deleteFrom('port_calls').where('facility_id', '=', facilityId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
