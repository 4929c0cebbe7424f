import type { FastifyInstance } from 'fastify';
import { idParam } from '../access/params';
import { authenticatedRoutes } from '../access/authenticated';
import { VERIFIER_READS } from '../access/verifier';
import { z } from 'zod';
import { sql, type SqlBool } from 'kysely';
import { ALERT_MESSAGE_TYPE } from '../alerts/fan-out';
import {
  createMessageBodySchema,
  messageListQuerySchema,
  messageSchema,
  updateMessageBodySchema,
} from '@portal/contracts/messages';
import { notFound } from '../../errors';
import { requireSystemAdmin } from '../access/policy';
import { auditedChange } from '../audit/audit';
import {
  activeNow,
  deleteMessage,
  markMessageRead,
  messageReceivedBy,
  messagesFor,
  messageVisibleTo,
  toMessage,
} from './queries';
import { createMessage, updateMessage } from './service';

/** Broadcast and personal messages: the bell (active ones, read marks) and the administration screen. */
/** A message id; anything else is a message that does not exist. */
const messageIdParams = z.object({ id: idParam() });

export async function messageRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  routes.get(
    '/api/messages',
    {
      // A verifier's shell shows the active messages of its organization's ships too (the rest is the SystemAdmin's).
      config: VERIFIER_READS,
      schema: {
        tags: ['messages'],
        querystring: messageListQuerySchema,
        response: { 200: z.array(messageSchema) },
      },
    },
    async (request) => {
      const { caller } = request;
      if (request.query.isActive === true) {
        const rows = await messagesFor(db, caller)
          .where(messageVisibleTo(db, caller))
          .where(activeNow(new Date()))
          .orderBy('m.show_from', 'desc')
          .orderBy('m.id')
          .execute();
        return rows.map(toMessage);
      }
      // Every message, past and upcoming included, is the administration screen's; but not the alerts sent to
      // people's bells (personal, read by the SystemAdmin in /admin/outbox: docs/decisions/0091-alerts.md).
      requireSystemAdmin(caller);
      const rows = await messagesFor(db, caller)
        .where(sql<SqlBool>`m.type is distinct from ${ALERT_MESSAGE_TYPE}`)
        .orderBy('m.show_from', 'desc')
        .orderBy('m.id')
        .execute();
      return rows.map(toMessage);
    },
  );

  routes.post(
    '/api/messages',
    { schema: { tags: ['messages'], body: createMessageBodySchema, response: { 201: messageSchema } } },
    async (request, reply) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const { title, text, showFrom, showTo, notify } = request.body;
      // Stored exactly as written (the text rule, docs/decisions/0062-text-input.md); shown as text, never as HTML.
      const { id } = await auditedChange(
        db,
        caller,
        // Its author has read it: the bell does not open for one's own message.
        (trx) => createMessage(trx, caller.userId, { title: title || null, text, showFrom, showTo, notify }),
        ({ id }) => ({ action: 'message.create', subject: id, detail: { title, showFrom, showTo, notify } }),
      );
      const row = await messagesFor(db, caller).where('m.id', '=', id).executeTakeFirstOrThrow();
      return reply.code(201).send(toMessage(row));
    },
  );

  routes.put(
    '/api/messages/:id',
    {
      schema: {
        tags: ['messages'],
        params: messageIdParams,
        body: updateMessageBodySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const { id } = request.params;
      // Stored exactly as written, as a new message is (docs/decisions/0062-text-input.md).
      const { text, showFrom, showTo, notify } = request.body;
      const title = request.body.title || null;
      await auditedChange(
        db,
        caller,
        // A material change makes it a new message for everyone but the one who wrote it.
        (trx) => updateMessage(trx, caller.userId, id, { title, text, showFrom, showTo, notify }),
        ({ readsKept }) => ({
          action: 'message.update',
          subject: id,
          detail: { title, showFrom, showTo, notify, readsKept },
        }),
      );
      const row = await messagesFor(db, caller).where('m.id', '=', id).executeTakeFirstOrThrow();
      return toMessage(row);
    },
  );

  routes.delete(
    '/api/messages/:id',
    { schema: { tags: ['messages'], params: messageIdParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const { id } = request.params;
      // Read records and recipients go with it (ON DELETE CASCADE).
      await auditedChange(db, caller, (trx) => deleteMessage(trx, id), {
        action: 'message.delete',
        subject: id,
      });
      return reply.code(204).send(null);
    },
  );

  routes.post(
    '/api/messages/:id/mark-as-read',
    { schema: { tags: ['messages'], params: messageIdParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const { caller } = request;
      const { id } = request.params;
      // A message the caller does not receive is not revealed.
      if (!(await messageReceivedBy(db, caller, id))) throw notFound('Message not found');
      await markMessageRead(db, id, caller.userId);
      return reply.code(204).send(null);
    },
  );
}
