import type { Transaction } from 'kysely';
import type { MessageFormValues } from '@portal/contracts/forms/message';
import { messageChangedMaterially } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import { notFound } from '../../errors';

/** A message as stored: the form's values, an empty title as none. */
export type MessageFields = Omit<MessageFormValues, 'title'> & { title: string | null };

/** Creates a message; its author has read it (the bell does not open for one's own message). */
export async function createMessage(trx: Transaction<Database>, authorId: string, message: MessageFields) {
  const { title, text, showFrom, showTo, notify } = message;
  const created = await trx
    .insertInto('messages')
    .values({
      title,
      text,
      show_from: showFrom,
      show_to: showTo,
      notify,
      created_by: authorId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx.insertInto('message_reads').values({ message_id: created.id, user_id: authorId }).execute();
  return created;
}

/**
 * Changes a message, or "Message not found" (404). A material change makes it a new message for everyone but the
 * one who wrote it: their read marks go (`readsKept` false).
 */
export async function updateMessage(
  trx: Transaction<Database>,
  authorId: string,
  id: string,
  message: MessageFields,
): Promise<{ readsKept: boolean }> {
  const { title, text, showFrom, showTo, notify } = message;
  const before = await trx
    .selectFrom('messages')
    .select(['title', 'text'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw notFound('Message not found');
  await trx
    .updateTable('messages')
    .set({ title, text, show_from: showFrom, show_to: showTo, notify })
    .where('id', '=', id)
    .execute();
  const readsKept = !messageChangedMaterially(before, { title, text });
  if (!readsKept) {
    await trx
      .deleteFrom('message_reads')
      .where('message_id', '=', id)
      .where('user_id', '!=', authorId)
      .execute();
    await trx
      .insertInto('message_reads')
      .values({ message_id: id, user_id: authorId })
      .onConflict((oc) => oc.columns(['message_id', 'user_id']).doNothing())
      .execute();
  }
  return { readsKept };
}
