import { z } from 'zod';
import { messageFormSchema } from './forms/message';

/** A message as the bell and the admin screen receive it. Times are UTC ISO strings. */
export const messageSchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  text: z.string(),
  showFrom: z.string(),
  showTo: z.string(),
  notify: z.boolean(),
  /** e.g. 'FacilityDocuments'; null for an ordinary broadcast. */
  type: z.string().nullable(),
  isPersonal: z.boolean(),
  facilityId: z.string().nullable(),
  /** Whether the caller has marked it as read. */
  isRead: z.boolean(),
});
export type Message = z.infer<typeof messageSchema>;

/** GET /api/messages?isActive=true: the caller's active messages; without isActive: all (SystemAdmin). */
export const messageListQuerySchema = z.object({ isActive: z.stringbool().optional() });

/** POST /api/messages: the compose form's rules (title, text, showFrom, showTo, notify). */
export const createMessageBodySchema = messageFormSchema;

/**
 * PUT /api/messages/{id}: the same form, edited. Read records are kept unless the title or text changed in more
 * than white space (messageChangedMaterially, docs/decisions/0065-message-edit.md).
 */
export const updateMessageBodySchema = messageFormSchema;

export const messageIdParamsSchema = z.object({ id: z.string() });
