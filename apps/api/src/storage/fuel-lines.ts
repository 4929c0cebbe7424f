import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { StoredFuelLine } from '../db/tables/carbon';
import { canonicalFuel } from './ledger-segments';

/**
 * The fuel lines (kg per consumer and fuel type, and of it not under way) of a port call (`port_call_fuel`, at berth)
 * and of a voyage (`voyage_fuel`): the same columns but their owner's id, read and replaced here for both
 * (storage/port-calls.ts and storage/voyages.ts own the rows they belong to). Lines are kept in canonical order.
 */
export type FuelLinesOf = 'port-call' | 'voyage';

type Db = Kysely<Database> | Transaction<Database>;
type LineColumns = {
  consumer: StoredFuelLine['consumer'];
  fuel_type: StoredFuelLine['fuelType'];
  kg: number;
  kg_not_under_way: number;
};

const line = (r: LineColumns): StoredFuelLine => ({
  consumer: r.consumer,
  fuelType: r.fuel_type,
  kg: r.kg,
  kgNotUnderWay: r.kg_not_under_way,
});
const columns = (fuel: readonly StoredFuelLine[]): LineColumns[] =>
  canonicalFuel(fuel).map((f) => ({
    consumer: f.consumer,
    fuel_type: f.fuelType,
    kg: f.kg,
    kg_not_under_way: f.kgNotUnderWay,
  }));

/** Whether two owners' lines are the same (in any order). */
export const sameFuel = (a: readonly StoredFuelLine[], b: readonly StoredFuelLine[]) =>
  JSON.stringify(canonicalFuel(a)) === JSON.stringify(canonicalFuel(b));

/** The lines of each of `ids` (an owner without any has none in the map), each list in canonical order. */
export async function readFuelLines(
  db: Db,
  of: FuelLinesOf,
  ids: readonly string[],
): Promise<Map<string, StoredFuelLine[]>> {
  const byOwner = new Map<string, StoredFuelLine[]>();
  if (!ids.length) return byOwner;
  const rows: [string, LineColumns][] =
    of === 'voyage'
      ? (await db.selectFrom('voyage_fuel').selectAll().where('voyage_id', 'in', ids).execute()).map((r) => [
          r.voyage_id,
          r,
        ])
      : (await db.selectFrom('port_call_fuel').selectAll().where('port_call_id', 'in', ids).execute()).map(
          (r) => [r.port_call_id, r],
        );
  for (const [owner, r] of rows) byOwner.set(owner, [...(byOwner.get(owner) ?? []), line(r)]);
  for (const [owner, lines] of byOwner) byOwner.set(owner, canonicalFuel(lines));
  return byOwner;
}

/**
 * Replaces the lines of each owner in `changes` with its new ones: one delete for the owners that had lines
 * (`hadLines`), inserts in batches of 1,000. Returns the rows written (the owners cleared and the lines inserted).
 */
export async function replaceFuelLines(
  trx: Transaction<Database>,
  of: FuelLinesOf,
  changes: readonly { id: string; fuel: readonly StoredFuelLine[]; hadLines: boolean }[],
): Promise<number> {
  const cleared = changes.filter((c) => c.hadLines).map((c) => c.id);
  const lines = changes.flatMap((c) => columns(c.fuel).map((l) => ({ id: c.id, l })));
  if (of === 'voyage') {
    if (cleared.length) await trx.deleteFrom('voyage_fuel').where('voyage_id', 'in', cleared).execute();
    for (let at = 0; at < lines.length; at += 1000)
      await trx
        .insertInto('voyage_fuel')
        .values(lines.slice(at, at + 1000).map(({ id, l }) => ({ voyage_id: id, ...l })))
        .execute();
  } else {
    if (cleared.length) await trx.deleteFrom('port_call_fuel').where('port_call_id', 'in', cleared).execute();
    for (let at = 0; at < lines.length; at += 1000)
      await trx
        .insertInto('port_call_fuel')
        .values(lines.slice(at, at + 1000).map(({ id, l }) => ({ port_call_id: id, ...l })))
        .execute();
  }
  return cleared.length + lines.length;
}
