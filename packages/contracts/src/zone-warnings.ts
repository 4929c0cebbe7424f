import { z } from 'zod';
import { latLonSchema } from './map';

/**
 * Zone warnings before arrival (issue 33, docs/decisions/0123-zone-warnings.md): a ship whose track ahead enters,
 * within its organization's horizon, a zone that bans what it does now. The rules are in rules/zone-approach.ts.
 */

export const ZONE_KINDS = ['no-discharge', 'eca'] as const;
export const BANNED_MODES = ['open-loop', 'high-sulfur'] as const;
export const ZONE_WARNING_CLEARANCES = ['turned-away', 'mode-changed', 'arrived', 'no-position'] as const;

export const ZONE_KIND_NAMES: Record<(typeof ZONE_KINDS)[number], string> = {
  'no-discharge': 'No-discharge zone',
  eca: 'Emission control area',
};
export const BANNED_MODE_NAMES: Record<(typeof BANNED_MODES)[number], string> = {
  'open-loop': 'Open-loop discharge',
  'high-sulfur': 'High-sulfur fuel without the scrubber',
};

/** The alert kind of a zone warning (beside an event's opened, classified-up, reminder and resolved). */
export const ZONE_WARNING_ALERT_KIND = 'zone-warning';
/** The subscription's and the webhook's name of zone warnings (the screens list it beside the event types). */
export const ZONE_WARNING_NAME = 'Zone warnings before arrival';

/** The horizon the track is projected over: an organization's setting, 2 h unless it chose another. */
export const DEFAULT_ZONE_WARNING_HORIZON_MINUTES = 120;
export const ZONE_WARNING_HORIZON_LIMITS = { min: 15, max: 720 } as const;
export const ZONE_WARNING_MESSAGES = {
  horizon: `Must be a whole number of minutes from ${ZONE_WARNING_HORIZON_LIMITS.min} to ${ZONE_WARNING_HORIZON_LIMITS.max}`,
} as const;

export const zoneWarningSchema = z.object({
  id: z.string(),
  facilityId: z.string(),
  zoneKind: z.enum(ZONE_KINDS),
  zoneName: z.string(),
  mode: z.enum(BANNED_MODES),
  /** "open-loop discharge banned in Singapore port waters in 40 min: switch to closed loop or to compliant fuel" */
  text: z.string(),
  /** When the ship enters the zone at its course and speed (UTC ISO 8601), and where. */
  entryAt: z.string(),
  entry: latLonSchema,
  /** The minutes from the ship's last position to the entry, at the last evaluation. */
  minutes: z.number(),
  raisedOn: z.string(),
  updatedOn: z.string(),
});
export type ZoneWarning = z.infer<typeof zoneWarningSchema>;

/** The ship's course and speed over ground at its last position. */
export const shipMotionSchema = z.object({
  at: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  courseDeg: z.number(),
  speedKn: z.number(),
});
export type ShipMotion = z.infer<typeof shipMotionSchema>;

/** GET /api/facilities/{id}/zone-warnings: the ship's active warnings and its projected track. */
export const shipZoneWarningsSchema = z.object({
  facilityId: z.string(),
  horizonMinutes: z.number().int(),
  /** null: no current course and speed (no recent positions, or stopped). */
  motion: shipMotionSchema.nullable(),
  /** The track ahead to the horizon, [latitude, longitude] every 5 minutes (empty without a motion). */
  projected: z.array(latLonSchema),
  warnings: z.array(zoneWarningSchema),
});
export type ShipZoneWarnings = z.infer<typeof shipZoneWarningsSchema>;

/** GET/PUT /api/organizations/{id}/zone-warning-settings. */
export const zoneWarningSettingsSchema = z.object({
  horizonMinutes: z
    .number({ error: ZONE_WARNING_MESSAGES.horizon })
    .int(ZONE_WARNING_MESSAGES.horizon)
    .min(ZONE_WARNING_HORIZON_LIMITS.min, ZONE_WARNING_MESSAGES.horizon)
    .max(ZONE_WARNING_HORIZON_LIMITS.max, ZONE_WARNING_MESSAGES.horizon),
});
export type ZoneWarningSettings = z.infer<typeof zoneWarningSettingsSchema>;

/** What a zone warning's alert says, kept with it (the alert outbox's snapshot). */
export interface ZoneWarningSnapshot {
  facilityId: string;
  facilityName: string;
  warningId: string;
  zoneKind: (typeof ZONE_KINDS)[number];
  zoneName: string;
  mode: (typeof BANNED_MODES)[number];
  text: string;
  entryAt: string;
  entry: [number, number];
  minutes: number;
  courseDeg: number;
  speedKn: number;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The ship's map in the portal, where the warning and the track ahead are drawn (a deep link through sign-in). */
export const shipMapLink = (baseUrl: string, facilityId: string) =>
  `${baseUrl.replace(/\/$/, '')}/ship/${encodeURIComponent(facilityId)}/map`;

/** "Zone warning, Nordic Star: open-loop discharge banned in Singapore port waters in 40 min" */
export function zoneWarningSubject(s: ZoneWarningSnapshot): string {
  return `Zone warning, ${s.facilityName}: ${s.text.split(':')[0]}`;
}

/** The bell's title: "Zone ahead: Singapore port waters". */
export const zoneWarningBellTitle = (s: ZoneWarningSnapshot) => `Zone ahead: ${s.zoneName}`;

/** The facts of the e-mail's table: ship, zone, what it bans, the entry (UTC) and the course and speed it is from. */
export function zoneWarningFacts(
  s: ZoneWarningSnapshot,
  formatTime: (iso: string) => string,
): [string, string][] {
  return [
    ['Ship', s.facilityName],
    ['Zone', `${s.zoneName} (${ZONE_KIND_NAMES[s.zoneKind]})`],
    ['Banned', BANNED_MODE_NAMES[s.mode]],
    ['Entry', `${formatTime(s.entryAt)} UTC, at ${s.entry[0].toFixed(3)}, ${s.entry[1].toFixed(3)}`],
    ['Course and speed', `${Math.round(s.courseDeg)}°, ${s.speedKn.toFixed(1)} kn over ground`],
  ];
}

/** The warning as a sentence that starts one: "Open-loop discharge banned in ...: switch to closed loop ...". */
export const zoneWarningHeadline = (s: ZoneWarningSnapshot) => `${capitalize(s.text)}.`;

/** The bell's text: the ship, the warning, the link to the ship's map alone on its line. */
export const zoneWarningBellText = (s: ZoneWarningSnapshot, link: string) =>
  [s.facilityName, capitalize(s.text), link].join('\n');
