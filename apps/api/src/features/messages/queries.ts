import { sql, type Kysely, type SqlBool, type Expression } from 'kysely';
import type { Message } from '@portal/contracts/messages';
import type { Database } from '../../db/schema';
import type { Caller } from '../access/caller';
import { facilityVisibleTo } from '../access/policy';

/**
 * Who receives a message: a ship's message (FacilityDocuments) goes to those who see the ship; a personal one to
 * its recipients; any other is a broadcast to everyone.
 */
export function messageVisibleTo(db: Kysely<Database>, caller: Caller): Expression<SqlBool> {
  const recipient = db
    .selectFrom('message_recipients as mr')
    .select('mr.message_id')
    .where('mr.user_id', '=', caller.userId);
  return sql<SqlBool>`(
    (m.facility_id is null or ${facilityVisibleTo(db, caller, sql.ref('m.facility_id'))})
    and (m.is_personal = false or m.id in (${recipient}))
  )`;
}

/** Messages with the caller's read mark; narrow with `where`. */
export function messagesFor(db: Kysely<Database>, caller: Caller) {
  return db
    .selectFrom('messages as m')
    .selectAll('m')
    .select(
      sql<boolean>`exists (select 1 from message_reads r where r.message_id = m.id and r.user_id = ${caller.userId})`.as(
        'is_read',
      ),
    );
}

/** Active now: showFrom <= now <= showTo (UTC instants). */
export const activeNow = (now: Date) => sql<SqlBool>`m.show_from <= ${now} and m.show_to >= ${now}`;

type MessageRow = Awaited<ReturnType<ReturnType<typeof messagesFor>['executeTakeFirstOrThrow']>>;

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    title: row.title,
    text: row.text,
    showFrom: new Date(row.show_from).toISOString(),
    showTo: new Date(row.show_to).toISOString(),
    notify: row.notify,
    type: row.type,
    isPersonal: row.is_personal,
    facilityId: row.facility_id,
    isRead: Boolean(row.is_read),
  };
}
