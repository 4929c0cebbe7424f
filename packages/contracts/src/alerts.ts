import { z } from 'zod';
import { EVENT_CLASSIFICATIONS, EVENT_TYPES, type EventClassification, type EventType } from './events';

/**
 * Alerts (issue 19, docs/decisions/0091-alerts.md): what the portal tells people when a compliance event opens, is
 * classified up, is not acknowledged in time, or ends; who gets it (subscriptions, an organization's defaults) and on
 * which channels.
 */

/** Why an alert was written: an event opened, rose a level, waited too long for an acknowledgement, or ended. */
export const ALERT_KINDS = ['opened', 'classified-up', 'reminder', 'resolved'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const ALERT_CHANNELS = ['email', 'in-app'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];
export const ALERT_CHANNEL_NAMES: Record<AlertChannel, string> = {
  email: 'E-mail',
  'in-app': 'In the portal',
};

/** E-mails as they happen, or one e-mail a day listing the day's alerts (in-app alerts always come as they happen). */
export const ALERT_DELIVERIES = ['immediate', 'digest'] as const;
export type AlertDelivery = (typeof ALERT_DELIVERIES)[number];
export const ALERT_DELIVERY_NAMES: Record<AlertDelivery, string> = {
  immediate: 'As they happen',
  digest: 'Daily digest',
};

/**
 * The classifications a subscription chooses among: the events' own three and "report required" (a malfunction
 * lasting more than an hour, or a repeated transient: the flag State and the port State must be told).
 */
export const ALERT_CLASSIFICATIONS = [...EVENT_CLASSIFICATIONS, 'report-required'] as const;
export type AlertClassification = (typeof ALERT_CLASSIFICATIONS)[number];
export const ALERT_CLASSIFICATION_NAMES: Record<AlertClassification, string> = {
  transient: 'Transient',
  malfunction: 'Malfunction',
  repeated: 'Repeated',
  'report-required': 'Report required',
};

/** The event types that have a classification (the others alert by their type alone). */
export const CLASSIFIED_EVENT_TYPES: readonly EventType[] = ['emission-exceedance', 'scrubber-off'];

export const ALERT_MESSAGES = {
  shipsRequired: 'Choose at least one ship',
  organizationsRequired: 'Choose at least one organization',
  eventTypesRequired: 'Choose at least one event type',
  classificationsRequired: 'Choose at least one classification for emission exceedances and scrubber stops',
  emailInvalid: 'E-mail must be valid',
  emailRequired: 'Provide the e-mail address alerts go to, or untick E-mail',
  reminderHours: 'Must be a whole number of hours from 1 to 168',
  organizationsOnlySystemAdmin: 'Only a system administrator chooses ships by organization',
  defaultsShips: "An organization's defaults choose all of its ships or some of them",
  unknownShip: 'One of the chosen ships is not one you see',
  quietFrom: 'Provide the time quiet hours start, as HH:MM',
  quietTo: 'Provide the time quiet hours end, as HH:MM',
  quietSame: 'Quiet hours must end at another time than they start',
  timeZone: 'Choose a time zone',
} as const;
const M = ALERT_MESSAGES;

export const alertShipsSchema = z.discriminatedUnion(
  'mode',
  [
    z.object({ mode: z.literal('all') }),
    z.object({
      mode: z.literal('selected'),
      facilityIds: z.array(z.string()).min(1, M.shipsRequired).max(5000),
    }),
    z.object({
      mode: z.literal('organizations'),
      organizationIds: z.array(z.string()).min(1, M.organizationsRequired).max(1000),
    }),
  ],
  { error: 'Choose all ships, a selection of ships or organizations' },
);
export type AlertShips = z.infer<typeof alertShipsSchema>;

/** Whether the runtime knows an IANA time zone (Europe/Oslo, Asia/Singapore, UTC). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

const clockTime = (message: string) =>
  z.string({ error: message }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, message);

/**
 * Quiet hours: alert e-mails that come as they happen wait, from `from` to `to` (HH:MM, the clock of `timeZone`;
 * across midnight when `to` is earlier), and go when they end. Alerts in the portal are not held, nor digests.
 */
export const quietHoursSchema = z
  .object({
    from: clockTime(M.quietFrom),
    to: clockTime(M.quietTo),
    timeZone: z.string().max(100).refine(isTimeZone, M.timeZone),
  })
  .refine((q) => q.from !== q.to, { message: M.quietSame, path: ['to'] });
export type QuietHours = z.infer<typeof quietHoursSchema>;

/** What alerts a user (or, as defaults, an organization's users): ships, event types, classifications, channels, when. */
export const alertSettingsSchema = z
  .object({
    ships: alertShipsSchema,
    eventTypes: z.array(z.enum(EVENT_TYPES, { error: 'Unknown event type' })).min(1, M.eventTypesRequired),
    classifications: z.array(z.enum(ALERT_CLASSIFICATIONS, { error: 'Unknown classification' })),
    /** None: no alerts at all. */
    channels: z.array(z.enum(ALERT_CHANNELS, { error: 'Unknown channel' })),
    delivery: z.enum(ALERT_DELIVERIES, { error: 'Choose As they happen or Daily digest' }),
    /** None (or absent, as settings stored before quiet hours are): e-mails go at once. */
    quietHours: quietHoursSchema.nullable().optional(),
    /**
     * Zone warnings before arrival (docs/decisions/0123-zone-warnings.md), on the same ships and channels; absent
     * (settings stored before them) is on: a warning is what lets a ship avoid the event.
     */
    zoneWarnings: z.boolean({ error: 'Zone warnings must be on or off' }).optional(),
  })
  .refine(
    (s) => s.classifications.length > 0 || !s.eventTypes.some((t) => CLASSIFIED_EVENT_TYPES.includes(t)),
    { message: M.classificationsRequired, path: ['classifications'] },
  );
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

const unique = <T>(values: readonly T[]) => [...new Set(values)];

/** The settings as stored: each choice once. */
export function normalizeAlertSettings(settings: AlertSettings): AlertSettings {
  const ships: AlertShips =
    settings.ships.mode === 'selected'
      ? { mode: 'selected', facilityIds: unique(settings.ships.facilityIds) }
      : settings.ships.mode === 'organizations'
        ? { mode: 'organizations', organizationIds: unique(settings.ships.organizationIds) }
        : { mode: 'all' };
  return {
    ships,
    eventTypes: unique(settings.eventTypes),
    classifications: unique(settings.classifications),
    channels: unique(settings.channels),
    delivery: settings.delivery,
    quietHours: settings.quietHours ?? null,
    ...(settings.zoneWarnings === undefined ? {} : { zoneWarnings: settings.zoneWarnings }),
  };
}

/** A new user's alerts, until they or their organization choose others: malfunctions and reports due, of their ships. */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  ships: { mode: 'all' },
  eventTypes: ['emission-exceedance', 'scrubber-off'],
  classifications: ['malfunction', 'repeated', 'report-required'],
  channels: ['email', 'in-app'],
  delivery: 'immediate',
};

/** Hours a report-required event may wait for an acknowledgement before the reminder (an organization's setting). */
export const DEFAULT_REMINDER_HOURS = 4;

const email = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() || null : (v ?? null)),
  z.email(M.emailInvalid).max(254, M.emailInvalid).nullable(),
);

/** Where a user's settings come from: their own, their organization's defaults, or the portal's. */
export const ALERT_SETTINGS_SOURCES = ['own', 'organization', 'default'] as const;
export type AlertSettingsSource = (typeof ALERT_SETTINGS_SOURCES)[number];

/** An e-mail that could not be delivered, for the user's profile. */
export const alertDeliveryFailureSchema = z.object({
  address: z.string(),
  error: z.string(),
  failedOn: z.string(),
  subject: z.string().nullable(),
});
export type AlertDeliveryFailure = z.infer<typeof alertDeliveryFailureSchema>;

/** GET /api/profile/alert-subscription: the caller's alerts as in force, and e-mails that could not be delivered. */
export const alertSubscriptionSchema = z.object({
  email: z.string().nullable(),
  settings: alertSettingsSchema,
  source: z.enum(ALERT_SETTINGS_SOURCES),
  /** Failed e-mails of the last 30 days, newest first (at most 20). */
  failures: z.array(alertDeliveryFailureSchema),
});
export type AlertSubscription = z.infer<typeof alertSubscriptionSchema>;

/**
 * PUT /api/profile/alert-subscription: the address and own settings, or back to the organization's defaults
 * (useDefaults: true, which wins over settings sent with it).
 */
export const alertSubscriptionBodySchema = z
  .object({
    email,
    settings: alertSettingsSchema.optional(),
    useDefaults: z.literal(true).optional(),
  })
  .refine((b) => Boolean(b.useDefaults || b.settings), {
    message: "Send settings, or useDefaults to use the organization's defaults",
    path: ['settings'],
  });
export type AlertSubscriptionBody = z.input<typeof alertSubscriptionBodySchema>;

const reminderHours = z
  .number({ error: M.reminderHours })
  .int(M.reminderHours)
  .min(1, M.reminderHours)
  .max(168, M.reminderHours);

/** GET /api/organizations/{id}/alert-defaults: what the organization's users without their own get. */
export const organizationAlertDefaultsSchema = z.object({
  settings: alertSettingsSchema,
  /** True while the organization uses the portal's defaults (DEFAULT_ALERT_SETTINGS). */
  isDefault: z.boolean(),
  reminderHours: z.number(),
});
export type OrganizationAlertDefaults = z.infer<typeof organizationAlertDefaultsSchema>;

export const organizationAlertDefaultsBodySchema = z
  .object({
    settings: alertSettingsSchema.optional(),
    useDefaults: z.literal(true).optional(),
    reminderHours,
  })
  .refine((b) => Boolean(b.useDefaults || b.settings), {
    message: "Send settings, or useDefaults to use the portal's defaults",
    path: ['settings'],
  });
export type OrganizationAlertDefaultsBody = z.input<typeof organizationAlertDefaultsBodySchema>;

export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;

/** An e-mail the portal composed: to whom, what, its state (GET /api/admin/outbox, SystemAdmin). */
export const outboxMailSchema = z.object({
  id: z.string(),
  /** The delivery's idempotency key: one alert, one recipient, one channel (a digest: one user and day). */
  idempotencyKey: z.string(),
  /** inspection-pack: the link of a monthly inspection pack (features/inspection-packs). */
  /** verifier-invitation: features/verification's invitation of a verifier (docs/decisions/0115-verifier.md). */
  kind: z.enum(['alert', 'digest', 'inspection-pack', 'verifier-invitation']),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  createdOn: z.string(),
  sentOn: z.string().nullable(),
  /** A pending e-mail held by its recipient's quiet hours: when it goes; null otherwise. */
  sendAfter: z.string().nullable(),
  status: z.enum(OUTBOX_STATUSES),
  /** 'smtp' when sent to the SMTP server, 'outbox' when kept here (no SMTP_URL); null until sent. */
  transport: z.string().nullable(),
  attempts: z.number(),
  error: z.string().nullable(),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;

export const outboxQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  status: z.enum(OUTBOX_STATUSES).optional(),
});
export const outboxListSchema = z.object({
  items: z.array(outboxMailSchema),
  total: z.number(),
  /** Where mail goes: 'smtp' (SMTP_URL is set) or 'outbox' (kept here). */
  transport: z.enum(['smtp', 'outbox']),
  /** The failed e-mails of the whole outbox (whatever the page and filter): what "Send all failed again" sends. */
  failed: z.number(),
});
export type OutboxList = z.infer<typeof outboxListSchema>;

/** POST /api/admin/outbox/resend: failed e-mails to send again, by id, or every failed one. */
export const outboxResendBodySchema = z.union([
  z.object({ ids: z.array(z.string().max(100)).min(1).max(500) }),
  z.object({ allFailed: z.literal(true) }),
]);
export type OutboxResendBody = z.infer<typeof outboxResendBodySchema>;
export const outboxResendResultSchema = z.object({
  /** The e-mails queued again (those still failed when asked; one sent or queued meanwhile is left alone). */
  resent: z.number(),
  message: z.string(),
});
export type OutboxResendResult = z.infer<typeof outboxResendResultSchema>;

/** GET/POST /api/alerts/unsubscribe?token=: the link of an alert e-mail, without signing in. */
export const unsubscribeQuerySchema = z.object({ token: z.string().min(1).max(200) });
export const unsubscribeStatusSchema = z.object({
  /** The address alert e-mails go to (null: none). */
  email: z.string().nullable(),
  /** Whether alert e-mails are on now. */
  emailsOn: z.boolean(),
});
export type UnsubscribeStatus = z.infer<typeof unsubscribeStatusSchema>;
export const unsubscribeResultSchema = z.object({ message: z.string() });

/** The texts of the unsubscribe page and call (ours, in the spec's tone). */
export const UNSUBSCRIBE_MESSAGES = {
  invalid: 'This link to stop alert e-mails is not valid. Change your alerts on your profile (Alerts).',
  stopped:
    'Alert e-mails are stopped. The alerts in the portal stay; turn e-mails on again on your profile (Alerts).',
  alreadyStopped: 'Alert e-mails were stopped already.',
} as const;

/** The answer's text: "2 e-mails queued to be sent again." */
export const outboxResendMessage = (resent: number): string =>
  resent === 0
    ? 'No failed e-mail to send again.'
    : `${resent} ${resent === 1 ? 'e-mail' : 'e-mails'} queued to be sent again.`;

/** What an alert says, kept with it when it is written (the event may change or go afterwards). */
export interface AlertSnapshot {
  facilityId: string;
  facilityName: string;
  eventId: string;
  type: EventType;
  typeName: string;
  classification: EventClassification | null;
  reportRequired: boolean;
  start: string;
  /** null while the event lasts. */
  end: string | null;
  /** To its end, or to the latest data while it lasts. */
  durationMinutes: number;
  worstValue: number | null;
  limit: number | null;
  channel: string | null;
  fault: string | null;
  /** The reminder's: hours it has waited for an acknowledgement. */
  waitedHours?: number;
}
