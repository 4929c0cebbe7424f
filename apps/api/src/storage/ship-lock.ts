import { sql, type Transaction } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Takes the ship's derived values (measurement values, report values and their roll-up, compliance events) for the
 * rest of the transaction: a second writer of the same ship (an execution of overlapping days on another worker, a
 * file's values deleted) waits here until the first commits, then reads what it wrote. Without it, both delete the
 * rows they saw and insert theirs (the second is refused by the primary key) and both match their events against
 * the events stored before either (the events are doubled). Taken before the record book's lock (record-book.ts),
 * always in that order; taking it again in the same transaction is free of effect. On the embedded database
 * transactions already run one at a time.
 */
export async function lockShipValues(trx: Transaction<Database>, facilityId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`ship-values:${facilityId}`}, 0))`.execute(trx);
}
