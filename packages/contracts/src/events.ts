import { z } from 'zod';
import { isInvisibleOnly, userText } from './forms/text';
import { channelFuelTypeSchema } from './fuel-channels';

/**
 * Compliance events (../shared/DOMAIN.md "Compliance events"; MEPC.1/Circ.883/Rev.1, EGCS Guidelines 2021
 * MEPC.340(77), electronic record books MEPC.312(74)). The engine derives them from the measurement values at each
 * target timestamp; docs/decisions/0080-compliance-events.md says how each rule is read.
 */
export const EVENT_TYPES = [
  'emission-exceedance',
  'scrubber-off',
  'data-gap',
  'sensor-fault',
  'eca-entry',
  'eca-exit',
  'washwater-exceedance',
  'open-loop-in-no-discharge-zone',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Does the event need someone's attention (a malfunction, a repeated transient, a data gap, a sensor fault)? The
 * others (transients, ECA entry and exit) are recorded for the record book; nobody has to act on them. The same rule
 * as the stored `attention` column's (migration 0016) that orders the list.
 */
export function needsAttention(event: { type: string; classification: string | null }): boolean {
  return (
    event.classification === 'malfunction' ||
    event.classification === 'repeated' ||
    event.type === 'data-gap' ||
    event.type === 'sensor-fault'
  );
}

/** Names shown to users. */
export const EVENT_TYPE_NAMES: Record<EventType, string> = {
  'emission-exceedance': 'Emission exceedance',
  'scrubber-off': 'Scrubber off while required',
  'data-gap': 'Data gap',
  'sensor-fault': 'Sensor fault',
  'eca-entry': 'ECA entry',
  'eca-exit': 'ECA exit',
  'washwater-exceedance': 'Washwater exceedance',
  'open-loop-in-no-discharge-zone': 'Open loop in a no-discharge zone',
};

/** The washwater criteria whose exceedances are events, by the channel the event names (docs/decisions/0100). */
export const WASHWATER_CRITERIA = ['WASHWATER_PH', 'WASHWATER_PAH', 'WASHWATER_TURBIDITY'] as const;
export type WashwaterCriterion = (typeof WASHWATER_CRITERIA)[number];

/**
 * transient: shorter than the transient limit (the scrubber's dynamic response, Circ.883 §7-8); malfunction: that
 * long or longer; repeated: the third or later transient of the ship within the window (treated as a malfunction).
 * Events of the other types are informational and have no classification.
 */
export const EVENT_CLASSIFICATIONS = ['transient', 'malfunction', 'repeated'] as const;
export type EventClassification = (typeof EVENT_CLASSIFICATIONS)[number];

export const EVENT_CLASSIFICATION_NAMES: Record<EventClassification, string> = {
  transient: 'Transient',
  malfunction: 'Malfunction',
  repeated: 'Repeated',
};

/** The numeric thresholds of the rules with their bounds (the API's and the organization form's). */
export const EVENT_RULE_BOUNDS = {
  /** Seconds between target timestamps (the default calculations' 60 s). */
  stepSeconds: { min: 1, max: 3600, integer: true },
  /** A break of at most this many samples does not split an episode. */
  joinSamples: { min: 0, max: 60, integer: true },
  /** Episodes shorter than this are transient. */
  transientMinutes: { min: 1, max: 24 * 60, integer: true },
  /** The n-th transient within the window (and later ones) is classified repeated. */
  repeatedCount: { min: 2, max: 100, integer: true },
  repeatedWindowHours: { min: 1, max: 24 * 7, integer: true },
  /** A malfunction lasting more than this must be reported to the flag State and the port State. */
  reportMinutes: { min: 1, max: 24 * 60, integer: true },
  /** No target timestamp for more than this between two that exist is a data gap. */
  dataGapMinutes: { min: 1, max: 7 * 24 * 60, integer: true },
  washwaterExcursionMinutes: { min: 1, max: 60, integer: true },
  washwaterExcursionWindowHours: { min: 1, max: 48, integer: true },
  pahExcursionPercent: { min: 0, max: 500, integer: false },
  turbidityExcursionPercent: { min: 0, max: 500, integer: false },
} as const satisfies Record<string, { min: number; max: number; integer: boolean }>;
export type EventRuleThreshold = keyof typeof EVENT_RULE_BOUNDS;

const threshold = (key: EventRuleThreshold) => {
  const { min, max, integer } = EVENT_RULE_BOUNDS[key];
  const number = integer ? z.number().int() : z.number();
  return number.min(min).max(max);
};

/** The thresholds of the rules; each configurable per organization, the values in force stored with the event. */
export const eventRulesSchema = z.object({
  stepSeconds: threshold('stepSeconds'),
  joinSamples: threshold('joinSamples'),
  transientMinutes: threshold('transientMinutes'),
  repeatedCount: threshold('repeatedCount'),
  repeatedWindowHours: threshold('repeatedWindowHours'),
  reportMinutes: threshold('reportMinutes'),
  dataGapMinutes: threshold('dataGapMinutes'),
  /**
   * The EGCS Guidelines' washwater excursion allowance (MEPC.259(68) 10.1.3.3 and 10.1.4.1): a PAH or turbidity
   * excursion of at most `washwaterExcursionMinutes`, at most the given percent above the limit, once in any
   * `washwaterExcursionWindowHours`, is no exceedance. Off unless an organization enables it.
   */
  washwaterExcursions: z.boolean().default(false),
  washwaterExcursionMinutes: threshold('washwaterExcursionMinutes').default(15),
  washwaterExcursionWindowHours: threshold('washwaterExcursionWindowHours').default(12),
  pahExcursionPercent: threshold('pahExcursionPercent').default(100),
  turbidityExcursionPercent: threshold('turbidityExcursionPercent').default(20),
});
export type EventRules = z.infer<typeof eventRulesSchema>;

export const DEFAULT_EVENT_RULES: EventRules = {
  stepSeconds: 60,
  joinSamples: 2,
  transientMinutes: 15,
  repeatedCount: 3,
  repeatedWindowHours: 24,
  reportMinutes: 60,
  dataGapMinutes: 60,
  washwaterExcursions: false,
  washwaterExcursionMinutes: 15,
  washwaterExcursionWindowHours: 12,
  pahExcursionPercent: 100,
  turbidityExcursionPercent: 20,
};

/** The compliance channels whose data health faults are events (DOMAIN.md; Circ.883 §9-11). */
export const SENSOR_FAULT_CHANNELS = [
  'SO2_PPM',
  'CO2_PCT',
  'SCRUBBER_RUNNING',
  'FUEL_SULFUR',
  'LATITUDE',
  'LONGITUDE',
] as const;

/** The kinds of sensor fault (data health's flags). */
export const SENSOR_FAULT_NAMES: Record<string, string> = {
  stale: 'stale',
  flatLined: 'flat-lined',
  outOfRange: 'out of range',
};

export interface EventPosition {
  latitude: number;
  longitude: number;
}

/** Causes a user records on an event (a fixed list). */
export const EVENT_CAUSES = [
  'sensor',
  'scrubber-equipment',
  'operation',
  'fuel-change-over',
  'power-supply',
  'other',
] as const;
export type EventCause = (typeof EVENT_CAUSES)[number];
export const EVENT_CAUSE_NAMES: Record<EventCause, string> = {
  sensor: 'Sensor',
  'scrubber-equipment': 'Scrubber equipment',
  operation: 'Operation',
  'fuel-change-over': 'Fuel change-over',
  'power-supply': 'Power supply',
  other: 'Other',
};

/** open: nobody has looked at it yet; acknowledged: a cause and actions are recorded; closed: an administrator closed it. */
export const EVENT_STATES = ['open', 'acknowledged', 'closed'] as const;
export type EventState = (typeof EVENT_STATES)[number];
export const EVENT_STATE_NAMES: Record<EventState, string> = {
  open: 'Open',
  acknowledged: 'Acknowledged',
  closed: 'Closed',
};

const positionSchema = z.object({ latitude: z.number(), longitude: z.number() });
const isoInstant = z.iso.datetime({ offset: true });

export const complianceEventSchema = z.object({
  id: z.string(),
  facilityId: z.string(),
  facilityName: z.string(),
  type: z.enum(EVENT_TYPES),
  start: z.string(),
  /** null while the event lasts (ongoing). */
  end: z.string().nullable(),
  ongoing: z.boolean(),
  durationMinutes: z.number(),
  worstValue: z.number().nullable(),
  limit: z.number().nullable(),
  startPosition: positionSchema.nullable(),
  endPosition: positionSchema.nullable(),
  classification: z.enum(EVENT_CLASSIFICATIONS).nullable(),
  reportRequired: z.boolean(),
  /** Sensor fault: the channel (measurement field) and the kind of fault (stale, flatLined, outOfRange). */
  channel: z.string().nullable(),
  fault: z.string().nullable(),
  state: z.enum(EVENT_STATES),
  acknowledgedOn: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  cause: z.enum(EVENT_CAUSES).nullable(),
  actionsTaken: z.string().nullable(),
  comment: z.string().nullable(),
  closedOn: z.string().nullable(),
  closedBy: z.string().nullable(),
  reportSentOn: z.string().nullable(),
  rules: eventRulesSchema,
});
export type ComplianceEvent = z.infer<typeof complianceEventSchema>;

const listOf = <T extends string>(values: readonly [T, ...T[]]) =>
  z
    .union([z.enum(values), z.array(z.enum(values))])
    .optional()
    .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]));

/** GET /api/events: the events of the caller's ships overlapping [from, to), open ones first, newest first. */
export const eventListQuerySchema = z.object({
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  facilityId: z.string().optional(),
  type: listOf(EVENT_TYPES),
  classification: listOf(EVENT_CLASSIFICATIONS),
  state: listOf(EVENT_STATES),
  reportRequired: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export type EventListQuery = z.input<typeof eventListQuerySchema>;

/** How far the list counts its matches (the total shown as "more than 5,000" beyond). */
export const EVENT_COUNT_LIMIT = 5000;

export const eventListSchema = z.object({
  items: z.array(complianceEventSchema),
  /** Events matching the filter, counted up to EVENT_COUNT_LIMIT; `totalCapped`: there are more. */
  total: z.number(),
  totalCapped: z.boolean(),
  /**
   * Events needing attention (malfunction, repeated, data gap, sensor fault) that nobody has acknowledged yet, or
   * whose report is due, per type, over the filter's ships and period (the fleet card's "Open events").
   */
  openByType: z.record(z.string(), z.number()),
  /** Events not closed whose report to the flag State and the port State is still to be sent. */
  reportsDue: z.number(),
  /**
   * Per ship of the filter (the badges): its events not closed, the malfunctions among them (malfunction or
   * repeated), and those whose report is still to be sent.
   */
  openByFacility: z.record(
    z.string(),
    z.object({ open: z.number(), malfunctions: z.number(), reportsDue: z.number() }),
  ),
});
export type EventList = z.infer<typeof eventListSchema>;

/** The event's chart: its inputs from this long before its start to this long after its end. */
export const EVENT_INPUTS_MARGIN_HOURS = 6;
/**
 * GET /api/events/{id}/inputs: the stored values of the fields the event's chart draws (rules/event-description.ts
 * eventChart: the SO2/CO2 ratio and its limit, or a washwater criterion's derived field and limit, and the
 * scrubber's state) from 6 h before its start to 6 h after its end (ongoing: its latest data), at most `maxPoints`
 * per field (longer spans are reduced to the worst value of each bucket: the value's worst, the highest limit, the
 * lowest running and required). A field the ship does not have is left out.
 */
export const eventInputsSchema = z.object({
  from: z.string(),
  to: z.string(),
  series: z.array(
    z.object({
      /** The measurement field's name, e.g. SO2_CO2_RATIO or WASHWATER_PH_DISCHARGING. */
      field: z.string(),
      /** UTC epoch milliseconds, ascending. */
      timestamps: z.array(z.number()),
      values: z.array(z.number().nullable()),
    }),
  ),
});
export type EventInputs = z.infer<typeof eventInputsSchema>;
export const EVENT_INPUTS_MAX_POINTS = 2000;

const longText = (max: number) => userText().max(max, `Cannot be longer than ${max} characters`);

export const acknowledgeEventSchema = z.object({
  cause: z.enum(EVENT_CAUSES, { message: 'Choose a cause' }),
  actionsTaken: longText(4000),
  comment: longText(4000).default(''),
});
export type AcknowledgeEvent = z.infer<typeof acknowledgeEventSchema>;

/**
 * One acknowledgement of an event as it was given: the first is revision 1, each change after it the next. The
 * event's cause, actions taken and comment are those of its last revision.
 */
export const eventAnnotationSchema = z.object({
  revision: z.number().int(),
  acknowledgedOn: z.string(),
  /** null when the user no longer exists. */
  acknowledgedBy: z.string().nullable(),
  cause: z.enum(EVENT_CAUSES),
  actionsTaken: z.string(),
  comment: z.string(),
});
export type EventAnnotation = z.infer<typeof eventAnnotationSchema>;

/** GET /api/events/{id}: the event, with every acknowledgement it was given, oldest first. */
export const complianceEventDetailSchema = complianceEventSchema.extend({
  annotations: z.array(eventAnnotationSchema),
});
export type ComplianceEventDetail = z.infer<typeof complianceEventDetailSchema>;

export const closeEventSchema = z.object({ comment: longText(4000).default('') });

/** The fields of the report to the flag State and the port State (MEPC.1/Circ.883/Rev.1), as drafted and edited. */
export const eventReportFieldsSchema = z.object({
  shipName: longText(200),
  imo: longText(20),
  position: longText(200),
  start: longText(100),
  duration: longText(100),
  egcs: longText(1000),
  instrument: longText(1000),
  cause: longText(4000),
  actionsTaken: longText(4000),
  actionsPlanned: longText(4000),
  expectedRepair: longText(1000),
});
export type EventReportFields = z.infer<typeof eventReportFieldsSchema>;
export const EVENT_REPORT_FIELDS = Object.keys(eventReportFieldsSchema.shape) as (keyof EventReportFields)[];
/** The report's fields of a stored report or an answer (without its sent date and revisions); missing ones empty. */
export const eventReportFieldsOf = (value: unknown): EventReportFields =>
  Object.fromEntries(
    EVENT_REPORT_FIELDS.map((key) => [key, String((value as Record<string, unknown> | null)?.[key] ?? '')]),
  ) as EventReportFields;

/**
 * A revision of the report (docs/decisions/0104-sent-reports.md): the first is the report as first sent; each later
 * one supersedes the one before, made by someone for a reason. Once sent, its PDF is kept byte for byte and its
 * SHA-256 is in the record book's "Report sent" entry.
 */
export const eventReportRevisionSchema = z.object({
  number: z.number().int(),
  /** Why it supersedes the revision before; null for the first. */
  reason: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdOn: z.string(),
  /** The day it was sent (YYYY-MM-DD); null while it is being edited. */
  sentOn: z.string().nullable(),
  sentBy: z.string().nullable(),
  /** SHA-256 (hex) of the PDF as sent (GET .../report/revisions/{number}/pdf); null while not sent, or for a report
   * sent before the portal kept sent PDFs. */
  sha256: z.string().nullable(),
});
export type EventReportRevision = z.infer<typeof eventReportRevisionSchema>;

/** GET/PUT /api/events/{id}/report: the report's current revision, frozen once sent, and every revision. */
export const eventReportSchema = eventReportFieldsSchema.extend({
  /** The day the current revision was sent (YYYY-MM-DD): it is frozen then. Null while it can be edited. */
  sentOn: z.string().nullable(),
  /** The number of the current revision (1 until the report is first superseded). */
  revision: z.number().int(),
  /** SHA-256 of the current revision's PDF as sent; null while not sent. */
  sha256: z.string().nullable(),
  /** Every revision made or sent, oldest first (none before the report is first sent). */
  revisions: z.array(eventReportRevisionSchema),
});
export type EventReport = z.infer<typeof eventReportSchema>;
export const eventReportBodySchema = eventReportFieldsSchema;
export const eventReportSentSchema = z.object({
  sentOn: z.iso.date({ message: 'Provide the date the report was sent' }),
});
export const EVENT_REPORT_MESSAGES = {
  reasonRequired: 'Say why the report is revised',
} as const;
/**
 * POST /api/events/{id}/report/revisions: supersedes the sent report with the next revision, for a reason; the fields
 * given replace those of the revision sent, the others are taken from it.
 */
export const newEventReportRevisionSchema = eventReportFieldsSchema.partial().extend({
  reason: z
    .string({ error: EVENT_REPORT_MESSAGES.reasonRequired })
    .pipe(longText(1000))
    .refine((v) => v.trim() !== '' && !isInvisibleOnly(v), EVENT_REPORT_MESSAGES.reasonRequired),
});
export type NewEventReportRevision = z.input<typeof newEventReportRevisionSchema>;

/**
 * The state of an event's report, for what lists events with their reports (the inspection pack): not required;
 * draft (revision 1 not sent yet, or a later revision being edited); or sent (the current revision, with its date
 * and SHA-256).
 */
export const eventReportStatusSchema = z.object({
  required: z.boolean(),
  state: z.enum(['not-required', 'draft', 'sent']),
  revision: z.number().int(),
  sentOn: z.string().nullable(),
  sha256: z.string().nullable(),
});
export type EventReportStatus = z.infer<typeof eventReportStatusSchema>;

/** Entries a person adds to a ship's record book (events are added by the portal). */
export const RECORD_BOOK_ENTRY_KINDS = [
  'maintenance',
  'calibration',
  'fuel-change-over',
  'bunkering',
  'note',
] as const;
export type RecordBookEntryKind = (typeof RECORD_BOOK_ENTRY_KINDS)[number];
export const RECORD_BOOK_KIND_NAMES: Record<string, string> = {
  maintenance: 'Maintenance',
  calibration: 'Calibration',
  'fuel-change-over': 'Fuel change-over',
  bunkering: 'Bunkering',
  note: 'Note',
  correction: 'Correction',
  event: 'Event',
  'event-changed': 'Event changed',
  'event-ended': 'Event ended',
  'event-withdrawn': 'Event withdrawn',
  'event-acknowledged': 'Event acknowledged',
  'event-closed': 'Event closed',
  'report-sent': 'Report sent',
};

export const recordBookEntrySchema = z.object({
  id: z.string(),
  sequence: z.number(),
  kind: z.string(),
  occurredOn: z.string(),
  recordedOn: z.string(),
  recordedBy: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  eventId: z.string().nullable(),
  correctsId: z.string().nullable(),
  text: z.string(),
  /** A fuel change-over's (or its correction's) sulfur content of the fuel in use from then on, % m/m. */
  fuelSulfurPct: z.number().nullable(),
  /**
   * A fuel change-over's (or its correction's) fuel in use from then on (FUEL_TYPES), when the person said: what a
   * fuel flow channel whose fuel type comes from the record book's change-overs burns (the carbon ledger).
   */
  fuelType: channelFuelTypeSchema.nullable(),
  body: z.record(z.string(), z.unknown()),
  previousHash: z.string(),
  hash: z.string(),
});
export type RecordBookEntryView = z.infer<typeof recordBookEntrySchema>;

/**
 * The fuel sulfur limits (% m/m) of MARPOL Annex VI regulation 14: inside an emission control area, and outside.
 * A fuel change-over recorded in the record book to a fuel within the area's limit is what keeps "scrubber off while
 * required" from being a non-compliance (DOMAIN.md; docs/decisions/0080-compliance-events.md).
 */
export const FUEL_SULFUR_LIMITS = { eca: 0.1, global: 0.5 } as const;
export const FUEL_SULFUR_MAX = 5;
export const FUEL_SULFUR_MESSAGES = {
  required: 'Provide the sulfur content of the fuel changed over to',
  range: `Must be a sulfur content from 0 to ${FUEL_SULFUR_MAX} % m/m`,
} as const;

export const newRecordBookEntrySchema = z
  .object({
    kind: z.enum([...RECORD_BOOK_ENTRY_KINDS, 'correction'], { message: 'Choose the kind of entry' }),
    occurredOn: isoInstant,
    text: longText(4000).min(1, 'Describe the entry'),
    latitude: z.number().min(-90).max(90).nullable().default(null),
    longitude: z.number().min(-180).max(180).nullable().default(null),
    correctsId: z.string().nullable().default(null),
    /**
     * A fuel change-over: the sulfur content (% m/m) of the fuel in use from the entry's time on. Required for a
     * fuel change-over; on the correction of one, the corrected figure (none: the change-over did not happen).
     */
    fuelSulfurPct: z
      .number({ error: FUEL_SULFUR_MESSAGES.range })
      .min(0, FUEL_SULFUR_MESSAGES.range)
      .max(FUEL_SULFUR_MAX, FUEL_SULFUR_MESSAGES.range)
      .nullable()
      .default(null),
    /**
     * A fuel change-over: the fuel in use from the entry's time on (optional; the carbon ledger's fuel type for
     * flow channels that take it from the change-overs). On the correction of one, the corrected fuel.
     */
    fuelType: channelFuelTypeSchema.nullable().default(null),
  })
  .refine((e) => e.kind !== 'correction' || e.correctsId !== null, {
    message: 'A correction names the entry it corrects',
    path: ['correctsId'],
  })
  .refine((e) => e.kind !== 'fuel-change-over' || e.fuelSulfurPct !== null, {
    message: FUEL_SULFUR_MESSAGES.required,
    path: ['fuelSulfurPct'],
  });
export type NewRecordBookEntry = z.input<typeof newRecordBookEntrySchema>;

export const recordBookQuerySchema = z.object({ from: isoInstant.optional(), to: isoInstant.optional() });

export const recordBookVerifySchema = z.object({
  valid: z.boolean(),
  entries: z.number(),
  firstInvalid: z.object({ id: z.string(), sequence: z.number(), reason: z.string() }).optional(),
});

/** GET/PUT /api/organizations/{id}/event-rules: the thresholds in force for the organization's ships. */
export const organizationEventRulesSchema = z.object({
  rules: eventRulesSchema,
  /** True while the organization uses the defaults (DEFAULT_EVENT_RULES). */
  isDefault: z.boolean(),
});
export type OrganizationEventRules = z.infer<typeof organizationEventRulesSchema>;
export const organizationEventRulesBodySchema = z.union([
  z.object({ rules: eventRulesSchema }),
  z.object({ useDefaults: z.literal(true) }),
]);
