import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Caller } from '../access/caller';
import { facilityVisibleTo } from '../access/policy';

/**
 * Records the caller's visit of a section; opening the documents marks the active document messages of the
 * caller's ships as read. Returns when, and how many messages were marked.
 */
export async function recordVisit(db: Kysely<Database>, caller: Caller, section: string) {
  const visit = await db
    .insertInto('user_visits')
    .values({ user_id: caller.userId, section })
    .onConflict((oc) => oc.columns(['user_id', 'section']).doUpdateSet({ visited_on: sql`now()` }))
    .returning('visited_on')
    .executeTakeFirstOrThrow();
  const marked = await db
    .insertInto('message_reads')
    .columns(['message_id', 'user_id'])
    .expression(
      db
        .selectFrom('messages as m')
        .select(['m.id', sql<string>`${caller.userId}::uuid`.as('user_id')])
        .where('m.type', '=', section)
        .where(sql<boolean>`now() between m.show_from and m.show_to`)
        .where('m.facility_id', 'is not', null)
        .where(facilityVisibleTo(db, caller, sql.ref('m.facility_id'))),
    )
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return { visitedOn: visit.visited_on, messagesMarkedRead: Number(marked.numInsertedOrUpdatedRows ?? 0) };
}
