import { z } from 'zod';
import { userText } from './forms/text';

/** Verifier: an outside verifier invited per organization and year, read-only over the ledger (docs/decisions/0115). */
export const ROLE_NAMES = ['SystemAdmin', 'UserAdmin', 'User', 'Verifier'] as const;
export const roleSchema = z.enum(ROLE_NAMES);
export type Role = z.infer<typeof roleSchema>;

/** GET /api/auth/me: the profile the SPA holds (besides the token's expires_at). */
export const userProfileSchema = z.object({
  sub: z.string(),
  username: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  organizationPriority: z.boolean(),
  roles: z.array(roleSchema),
  /** A Verifier's invited years (docs/decisions/0115-verifier.md); absent for the other roles. */
  verifierYears: z.array(z.number().int()).optional(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** Claims of the API's access tokens. `role` is a string, or a list when there are several. */
export const accessTokenClaimsSchema = z.object({
  sub: z.string(),
  organizationId: z.string(),
  role: z.union([z.string(), z.array(z.string())]),
  exp: z.number(),
  iat: z.number(),
});

export const clientErrorReportSchema = z.object({
  message: userText().max(2000),
  stack: userText().max(10000).optional(),
  url: userText().max(2000).optional(),
});

/** The text the sign-in page shows for an unknown user or a wrong password (it does not say which). */
export const LOGIN_FAILED_TEXT = 'User not found or the password is wrong.';
