import { z } from 'zod';
import { EVENT_CLASSIFICATIONS, EVENT_TYPES } from './events';

/**
 * Webhooks of an organization (issue 19, docs/decisions/0092-webhooks.md, docs/webhooks.md): a URL, the event types
 * it wants and a secret the portal signs each delivery with. Schemas of the routes under
 * /api/organizations/{id}/webhooks, the body a receiver gets, and the display rules of the screen.
 */

/** What an alert delivered to a webhook is about; 'test' is the delivery of the "Send test" button. */
export const WEBHOOK_ALERT_KINDS = [
  'opened',
  'classified-up',
  'reminder',
  'resolved',
  'zone-warning',
] as const;
export type WebhookAlertKind = (typeof WEBHOOK_ALERT_KINDS)[number];
export const WEBHOOK_DELIVERY_KINDS = [...WEBHOOK_ALERT_KINDS, 'test'] as const;
export type WebhookDeliveryKind = (typeof WEBHOOK_DELIVERY_KINDS)[number];

export const WEBHOOK_DELIVERY_KIND_NAMES: Record<WebhookDeliveryKind, string> = {
  opened: 'Event opened',
  'classified-up': 'Classified up',
  reminder: 'Reminder',
  resolved: 'Event ended',
  'zone-warning': 'Zone warning',
  test: 'Test',
};

/** pending: waiting for its first or next attempt; delivered: a 2xx answered; failed: the retry budget is spent. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
export const WEBHOOK_DELIVERY_STATUS_NAMES: Record<WebhookDeliveryStatus, string> = {
  pending: 'Pending',
  delivered: 'Delivered',
  failed: 'Failed',
};

/**
 * How one attempt ended: delivered (2xx), http-error (any other status, redirects included: they are not followed),
 * timeout, network-error (DNS failure, connection refused or reset, TLS) and refused (the address is not allowed: no
 * connection was made).
 */
export const WEBHOOK_ATTEMPT_OUTCOMES = [
  'delivered',
  'http-error',
  'timeout',
  'network-error',
  'refused',
] as const;
export type WebhookAttemptOutcome = (typeof WEBHOOK_ATTEMPT_OUTCOMES)[number];
export const WEBHOOK_ATTEMPT_OUTCOME_NAMES: Record<WebhookAttemptOutcome, string> = {
  delivered: 'Delivered',
  'http-error': 'Error answer',
  timeout: 'Timed out',
  'network-error': 'Not reachable',
  refused: 'Address not allowed',
};

/** The headers of every delivery (docs/webhooks.md). */
export const WEBHOOK_HEADERS = {
  timestamp: 'X-Portal-Timestamp',
  signature: 'X-Portal-Signature',
  delivery: 'X-Portal-Delivery',
  kind: 'X-Portal-Kind',
} as const;

export const WEBHOOK_MESSAGES = {
  urlRequired: 'Provide the URL',
  urlInvalid: 'Must be a URL such as https://example.com/portal-events',
  urlScheme: 'Must start with http:// or https://',
  urlCredentials: 'Cannot contain a user name or password: the signature tells the receiver who sent it',
  urlTooLong: 'Cannot be longer than 2000 characters',
  eventTypesRequired: 'Choose at least one event type',
} as const;
const M = WEBHOOK_MESSAGES;

/** What is wrong with a webhook URL as written (the address it resolves to is checked by the server), or null. */
export function webhookUrlProblem(value: string): string | null {
  const text = value.trim();
  if (!text) return M.urlRequired;
  if (text.length > 2000) return M.urlTooLong;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return M.urlInvalid;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return M.urlScheme;
  if (!url.hostname) return M.urlInvalid;
  if (url.username || url.password) return M.urlCredentials;
  return null;
}

export const webhookUrlSchema = z
  .string({ error: M.urlRequired })
  .trim()
  .superRefine((value, ctx) => {
    const problem = webhookUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * What a webhook may want: the event types, and zone warnings before arrival ('zone-warning', docs/decisions/
 * 0123-zone-warnings.md), which are no event.
 */
export const WEBHOOK_TOPICS = [...EVENT_TYPES, 'zone-warning'] as const;
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

const eventTypesSchema = z
  .array(z.enum(WEBHOOK_TOPICS, { message: `Must be one of ${WEBHOOK_TOPICS.join(', ')}` }), {
    error: M.eventTypesRequired,
  })
  .min(1, M.eventTypesRequired)
  .transform((types) => WEBHOOK_TOPICS.filter((t) => types.includes(t)));

/** POST /api/organizations/{id}/webhooks and PUT …/{webhookId}. */
export const webhookBodySchema = z.object({
  url: webhookUrlSchema,
  eventTypes: eventTypesSchema,
  enabled: z.boolean().default(true),
});
export type WebhookBody = z.input<typeof webhookBodySchema>;

const isoString = z.string();

export const webhookSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  url: z.string(),
  eventTypes: z.array(z.enum(WEBHOOK_TOPICS)),
  enabled: z.boolean(),
  /** The last 4 characters of the secret, to tell which one a receiver holds (the secret is shown only once). */
  secretHint: z.string(),
  createdOn: isoString,
  updatedOn: isoString,
  secretRotatedOn: isoString,
  /** The newest delivery, for the list. */
  lastDelivery: z
    .object({
      status: z.enum(WEBHOOK_DELIVERY_STATUSES),
      createdOn: isoString,
      responseStatus: z.number().nullable(),
    })
    .nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer of a creation and of a secret rotation: the only times the secret is shown. */
export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string() });
export type WebhookWithSecret = z.infer<typeof webhookWithSecretSchema>;

export const webhookAttemptSchema = z.object({
  attempt: z.number(),
  startedOn: isoString,
  durationMs: z.number(),
  outcome: z.enum(WEBHOOK_ATTEMPT_OUTCOMES),
  responseStatus: z.number().nullable(),
  error: z.string().nullable(),
  /** When the next attempt is due; null after the last one. */
  nextAttemptOn: isoString.nullable(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliverySchema = z.object({
  id: z.string(),
  kind: z.enum(WEBHOOK_DELIVERY_KINDS),
  eventId: z.string().nullable(),
  eventType: z.string().nullable(),
  shipName: z.string().nullable(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  createdOn: isoString,
  attempts: z.number(),
  nextAttemptOn: isoString.nullable(),
  finishedOn: isoString.nullable(),
  lastResponseStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  attemptLog: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** The event as a delivery carries it. */
export const webhookEventPayloadSchema = z.object({
  id: z.string(),
  type: z.enum(EVENT_TYPES),
  typeName: z.string(),
  classification: z.enum(EVENT_CLASSIFICATIONS).nullable(),
  reportRequired: z.boolean(),
  start: isoString,
  /** null while the event lasts. */
  end: isoString.nullable(),
  ongoing: z.boolean(),
  durationMinutes: z.number(),
  worstValue: z.number().nullable(),
  limit: z.number().nullable(),
  /** The unit of worstValue and limit; null without a value. */
  unit: z.string().nullable(),
  channel: z.string().nullable(),
  /** The event in the portal (opens after sign-in). */
  link: z.string(),
});

/** The JSON body of a delivery (docs/webhooks.md). */
export const webhookPayloadSchema = z.object({
  /** The delivery's id: the same on every attempt of it (X-Portal-Delivery), so a receiver can drop repeats. */
  id: z.string(),
  kind: z.enum(WEBHOOK_DELIVERY_KINDS),
  createdOn: isoString,
  /** null for a test and a zone warning. */
  event: webhookEventPayloadSchema.nullable(),
  /** A zone warning's (kind 'zone-warning'): the zone ahead, what it bans, when and where the ship enters it. */
  zoneWarning: z
    .object({
      id: z.string(),
      zoneKind: z.enum(['no-discharge', 'eca']),
      zoneName: z.string(),
      mode: z.enum(['open-loop', 'high-sulfur']),
      text: z.string(),
      entryAt: isoString,
      entry: z.tuple([z.number(), z.number()]),
      minutes: z.number(),
      courseDeg: z.number(),
      speedKn: z.number(),
    })
    .optional(),
  ship: z.object({ id: z.string(), name: z.string(), imo: z.string().nullable() }).nullable(),
  organization: z.object({ id: z.string(), name: z.string() }),
  /** The event in the portal, or the portal itself for a test. */
  link: z.string(),
});
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

/** The log's "Next try" cell: the time of the next attempt, or why there is none. */
export function nextTryText(
  delivery: Pick<WebhookDelivery, 'status' | 'nextAttemptOn'>,
  format: (iso: string) => string,
): string {
  if (delivery.status === 'delivered') return '–';
  if (delivery.status === 'failed') return 'No more tries';
  return delivery.nextAttemptOn ? format(delivery.nextAttemptOn) : 'Now';
}

/** The log's "Response" cell: the HTTP status, else what went wrong. */
export function responseText(attempt: {
  responseStatus: number | null;
  outcome?: WebhookAttemptOutcome;
  error: string | null;
}): string {
  if (attempt.responseStatus !== null) return String(attempt.responseStatus);
  if (attempt.outcome) return WEBHOOK_ATTEMPT_OUTCOME_NAMES[attempt.outcome];
  return attempt.error ?? '–';
}
