import { z } from 'zod';
import { API_KEY_SCOPES, type ApiKeyScope } from '../api-keys';
import { fieldErrors, type FieldErrors } from './errors';
import { nameText } from './text';

export const API_KEY_MESSAGES = {
  nameRequired: 'Name is required',
  nameTaken: 'An API key with this name exists already',
  scopesRequired: 'Choose at least one scope',
  scopeUnknown: 'Unknown scope',
  expiryInvalid: 'Must be a valid date',
  expiryPast: 'Must be a date after today',
} as const;
const M = API_KEY_MESSAGES;

/** Ours: the spec gives no limit. */
export const API_KEY_NAME_MAX_LENGTH = 100;

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * When a key with this expiry stops working, as an instant: a date (YYYY-MM-DD, as the dialog sends it) is the
 * start of that day in UTC (the key works through the day before); an instant (an API caller's) is taken as it is.
 * Null for an empty value (no expiry); undefined when the value is not a date.
 */
export function apiKeyExpiry(value: unknown): Date | null | undefined {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
    return null;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const date = new Date(DATE_ONLY.test(text) ? `${text}T00:00:00.000Z` : text);
  if (Number.isNaN(date.getTime())) return undefined;
  // A date that does not exist (2025-02-30) rolls over in Date: refused rather than moved.
  if (DATE_ONLY.test(text) && date.toISOString().slice(0, 10) !== text) return undefined;
  return date;
}

/**
 * New API key: a name (the name rule, at most API_KEY_NAME_MAX_LENGTH), at least one scope (each once), and an
 * optional expiry: a date after today (UTC), or an instant later than now. `now` is read when a value is checked.
 */
export function apiKeyFormSchema(now: () => number = Date.now) {
  return z.object({
    name: nameText(M.nameRequired, API_KEY_NAME_MAX_LENGTH),
    scopes: z
      .array(z.enum(API_KEY_SCOPES, { error: M.scopeUnknown }), { error: M.scopesRequired })
      .min(1, M.scopesRequired)
      .transform((scopes) => API_KEY_SCOPES.filter((s) => scopes.includes(s)) as ApiKeyScope[]),
    expiresOn: z
      .union([z.string(), z.null()], { error: M.expiryInvalid })
      .optional()
      .describe(
        'Optional: a date (YYYY-MM-DD: the key stops working at the start of that day, UTC) or an instant (ISO 8601). Empty or absent: the key does not expire.',
      )
      .transform((value, ctx) => {
        const expiry = apiKeyExpiry(value);
        if (expiry === undefined) {
          ctx.addIssue({ code: 'custom', message: M.expiryInvalid });
          return z.NEVER;
        }
        if (expiry === null) return null;
        const text = typeof value === 'string' ? value.trim() : '';
        // A date must be a later day than today; an instant, later than now.
        const earliest = DATE_ONLY.test(text) ? Math.floor(now() / DAY_MS) * DAY_MS + DAY_MS : now() + 1;
        if (expiry.getTime() < earliest) {
          ctx.addIssue({ code: 'custom', message: M.expiryPast });
          return z.NEVER;
        }
        return expiry.toISOString();
      }),
  });
}

/** POST /api/organizations/{id}/api-keys. */
export const createApiKeyBodySchema = apiKeyFormSchema();
export type ApiKeyFormValues = z.output<ReturnType<typeof apiKeyFormSchema>>;
export type CreateApiKeyBody = z.input<typeof createApiKeyBodySchema>;

/** The dialog's messages, first per field; `now` for tests. */
export const validateApiKey = (values: unknown, now = Date.now()): FieldErrors<keyof ApiKeyFormValues> =>
  fieldErrors(
    apiKeyFormSchema(() => now),
    values,
  );
