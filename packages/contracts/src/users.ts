import { z } from 'zod';
import { roleSchema } from './auth';
import { newPasswordSchema } from './forms/password';
import { identifierText } from './forms/text';
import { USER_MESSAGES, USERNAME_MAX_LENGTH } from './forms/user';
import { organizationUserSchema } from './organizations';

const username = identifierText(USER_MESSAGES.usernameRequired, USERNAME_MAX_LENGTH);
/** One role per user, sent as a list of one. */
const roles = z.array(roleSchema).length(1, USER_MESSAGES.roleInvalid);

/** POST organizations/{orgId}/users: the client generates a password when none was typed. */
export const createUserBodySchema = z.object({ username, password: newPasswordSchema, roles });
export type CreateUserBody = z.infer<typeof createUserBodySchema>;

/** PUT users/{id}: the password only when a new one was entered. */
export const updateUserBodySchema = z.object({ username, password: newPasswordSchema.optional(), roles });
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

export const createUserParamsSchema = z.object({ id: z.string() });
export const userIdParamsSchema = z.object({ id: z.string() });

export const VISIT_SECTIONS = ['FacilityDocuments'] as const;
export const visitBodySchema = z.object({ section: z.enum(VISIT_SECTIONS) });
export type VisitBody = z.infer<typeof visitBodySchema>;
export const visitResponseSchema = z.object({
  section: z.enum(VISIT_SECTIONS),
  visitedOn: z.string(),
  messagesMarkedRead: z.number(),
});

/** A user as the API answers it. */
export const userResponseSchema = organizationUserSchema;
