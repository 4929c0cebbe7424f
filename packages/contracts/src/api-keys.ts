import { z } from 'zod';

/**
 * API keys of an organization, for its integrations (a BI tool pulling KPIs, the onboard uploader pushing files):
 * GET/POST /api/organizations/{id}/api-keys, DELETE /api/organizations/{id}/api-keys/{keyId}
 * (docs/decisions/0090-api-keys-and-auto-execution.md). The form's rules are in forms/api-key.ts.
 */

/** What a key may do: `reports:read` reads report data and compliance events; `files:upload` uploads files. */
export const API_KEY_SCOPES = ['reports:read', 'files:upload'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES);

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'reports:read': 'Read reports and events',
  'files:upload': 'Upload files',
};

/** Every key starts with it, so a key is told from an access token (and found by secret scanners). */
export const API_KEY_PREFIX = 'spk_';
/** The header a key may come in instead of `Authorization: Bearer <key>`. */
export const API_KEY_HEADER = 'x-api-key';

/** A key as listed: never its secret, which is shown once, when it is created. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(apiKeyScopeSchema),
  createdOn: z.string(),
  /** The username of who created it; null when that user was deleted since. */
  createdBy: z.string().nullable(),
  /** When it stops working (UTC); null: it does not expire. */
  expiresOn: z.string().nullable(),
  /** Noted at most once a minute. */
  lastUsedOn: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** POST answer: the key with its secret, `spk_...`, shown this once. */
export const createdApiKeySchema = apiKeySchema.extend({
  key: z
    .string()
    .describe(
      'The key, shown only in this answer. Send it as `Authorization: Bearer <key>` or `X-API-Key: <key>`.',
    ),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyParamsSchema = z.object({ id: z.string(), keyId: z.string() });
