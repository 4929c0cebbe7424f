import { z } from 'zod';

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
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Names shown to users. */
export const EVENT_TYPE_NAMES: Record<EventType, string> = {
  'emission-exceedance': 'Emission exceedance',
  'scrubber-off': 'Scrubber off while required',
  'data-gap': 'Data gap',
  'sensor-fault': 'Sensor fault',
  'eca-entry': 'ECA entry',
  'eca-exit': 'ECA exit',
};

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

/** The thresholds of the rules; each configurable per organization, the values in force stored with the event. */
export const eventRulesSchema = z.object({
  /** Seconds between target timestamps (the default calculations' 60 s). */
  stepSeconds: z.number().int().min(1).max(3600),
  /** A break of at most this many samples does not split an episode. */
  joinSamples: z.number().int().min(0).max(60),
  /** Episodes shorter than this are transient. */
  transientMinutes: z.number().int().min(1).max(24 * 60),
  /** The n-th transient within the window (and later ones) is classified repeated. */
  repeatedCount: z.number().int().min(2).max(100),
  repeatedWindowHours: z.number().int().min(1).max(24 * 7),
  /** A malfunction lasting more than this must be reported to the flag State and the port State. */
  reportMinutes: z.number().int().min(1).max(24 * 60),
  /** No target timestamp for more than this between two that exist is a data gap. */
  dataGapMinutes: z.number().int().min(1).max(7 * 24 * 60),
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
};

export interface EventPosition {
  latitude: number;
  longitude: number;
}
