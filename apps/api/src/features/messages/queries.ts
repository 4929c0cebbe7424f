import { sql, type Kysely, type SqlBool, type Expression, type Transaction } from 'kysely';
import type { Message } from '@portal/contracts/messages';
import type { Database } from '../../db/schema';
import { notFound } from '../../errors';
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

/** Deletes a message, or "Message not found" (404); read records and recipients go with it (ON DELETE CASCADE). */
export async function deleteMessage(trx: Transaction<Database>, id: string): Promise<void> {
  const deleted = await trx.deleteFrom('messages').where('id', '=', id).returning('id').executeTakeFirst();
  if (!deleted) throw notFound('Message not found');
}

/** Whether the caller receives the message. */
export async function messageReceivedBy(db: Kysely<Database>, caller: Caller, id: string): Promise<boolean> {
  const visible = await db
    .selectFrom('messages as m')
    .select('m.id')
    .where('m.id', '=', id)
    .where(messageVisibleTo(db, caller))
    .executeTakeFirst();
  return Boolean(visible);
}

export async function markMessageRead(
  db: Kysely<Database>,
  messageId: string,
  userId: string,
): Promise<void> {
  await db
    .insertInto('message_reads')
    .values({ message_id: messageId, user_id: userId })
    .onConflict((oc) => oc.columns(['message_id', 'user_id']).doNothing())
    .execute();
}
