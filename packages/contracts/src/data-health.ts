import { z } from 'zod';

/**
 * Data health (issue 17): warnings of an uploaded file, and per ship the health of each mapped channel over a
 * period (coverage, last value, stale / flat-lined / out of range), with thresholds per measurement field
 * (docs/decisions/0071-data-health.md).
 */

/** What an upload warns about, per file. */
export const DATA_FILE_WARNING_KINDS = [
  'missingChannels',
  'unmappedColumns',
  'refusedRows',
  'timestampsOutOfRange',
  'timeGaps',
] as const;
export type DataFileWarningKind = (typeof DATA_FILE_WARNING_KINDS)[number];

export const dataFileWarningSchema = z.object({
  kind: z.enum(DATA_FILE_WARNING_KINDS),
  /** The warning as the screens show it. */
  message: z.string(),
  /** The channels or columns it is about (missingChannels, unmappedColumns), all of them. */
  names: z.array(z.string()).optional(),
  /** Rows, timestamps or gaps it counts. */
  count: z.number().optional(),
});
export type DataFileWarning = z.infer<typeof dataFileWarningSchema>;

/** The warnings of one imported file of an upload. */
export const uploadedFileWarningsSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  warnings: z.array(dataFileWarningSchema),
});
export type UploadedFileWarnings = z.infer<typeof uploadedFileWarningsSchema>;

/** A time gap longer than this many samples (of the data source's measure frequency) is warned about by default. */
export const DEFAULT_GAP_WARNING_SAMPLES = 10;
/** Timestamps before this are out of the expected range. */
export const EARLIEST_EXPECTED_DATA = Date.UTC(2000, 0, 1);
/** Timestamps more than this after the upload are in the future (a logger clock a little fast is not). */
export const FUTURE_TOLERANCE_MS = 60 * 60 * 1000;
/** A file starting or ending this far from the ship's other data is out of the expected range. */
export const FAR_FROM_OTHER_FILES_MS = 366 * 24 * 60 * 60 * 1000;

// --- Thresholds per measurement field ---------------------------------------------------------------------

export const dataHealthThresholdSchema = z.object({
  /** The measurement field (the name a channel is mapped to, e.g. SO2_PPM). */
  fieldName: z.string().min(1).max(200),
  /** Lowest and highest physically possible value; null: no bound. */
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** Stale: no value for this many hours while the ship has data; null: not checked. */
  staleHours: z.number().positive().nullable(),
  /** Flat-lined: the same value for this many hours while the engine runs; null: not checked. */
  flatLineHours: z.number().positive().nullable(),
});
export type DataHealthThreshold = z.infer<typeof dataHealthThresholdSchema>;

/** A threshold as GET answers it: the organization's own, or the default. */
export const dataHealthThresholdEntrySchema = dataHealthThresholdSchema.extend({
  isDefault: z.boolean(),
});
export type DataHealthThresholdEntry = z.infer<typeof dataHealthThresholdEntrySchema>;

/** PUT: the thresholds to set; an entry with `useDefault` goes back to the default. */
export const dataHealthThresholdsBodySchema = z.object({
  thresholds: z
    .array(dataHealthThresholdSchema.extend({ useDefault: z.boolean().optional() }))
    .max(500)
    .refine(
      (list) => list.every((t) => t.min === null || t.max === null || t.min <= t.max),
      'The lowest value must not be above the highest',
    ),
});
export type DataHealthThresholdsBody = z.infer<typeof dataHealthThresholdsBodySchema>;

/** The engine runs when ENGINE_LOAD is above this (%), or, without an ENGINE_LOAD channel, FUEL_FLOW above the next. */
export const ENGINE_IDLE_LOAD_PERCENT = 10;
/** kg/h: DOMAIN.md's "engine stopped or idling" bound. */
export const ENGINE_IDLE_FUEL_FLOW = 50;

const t = (
  fieldName: string,
  min: number | null,
  max: number | null,
  flatLineHours: number | null = 2,
  staleHours: number | null = 2,
): DataHealthThreshold => ({ fieldName, min, max, staleHours, flatLineHours });

/**
 * The defaults per measurement field (DOMAIN.md's channels): physical ranges, and flat-line checks only where a
 * value that does not move while the engine runs means a stuck sensor (a fuel's sulfur, the scrubber's on/off and
 * mode legitimately stay the same for days), and no upper bound for the scrubber mode, a code each logger encodes its own way. SO2 0–2000 ppm: outlet analysers measure up to a few hundred ppm,
 * inlet ranges go to about 2000; anything above is a wrong mapping or a broken sensor.
 */
export const DEFAULT_DATA_HEALTH_THRESHOLDS: readonly DataHealthThreshold[] = [
  t('FUEL_FLOW', 0, null),
  t('FUEL_SULFUR', 0, 5, null),
  t('ENGINE_LOAD', 0, 120),
  t('SO2_PPM', 0, 2000),
  t('CO2_PCT', 0, 25),
  t('SCRUBBER_RUNNING', 0, 1, null),
  t('SCRUBBER_POWER', 0, null),
  t('LATITUDE', -90, 90),
  t('LONGITUDE', -180, 180),
  t('WASHWATER_PH', 0, 14),
  t('WASHWATER_PAH', 0, null),
  t('WASHWATER_TURBIDITY', 0, null),
  t('WASHWATER_PH_INLET', 0, 14),
  t('WASHWATER_PAH_INLET', 0, null),
  t('WASHWATER_TURBIDITY_INLET', 0, null),
  t('WASHWATER_FLOW', 0, null),
  // An enumerated code whose encoding differs by logger (DOMAIN.md: 0 closed, 1 open loop; other loggers may use other codes).
  t('SCRUBBER_MODE', 0, null, null),
  // The carbon ledger's fuel by consumer: a boiler stays at 0 for days at sea, a fuel type for weeks (fuel-channels.ts).
  t('AE_FUEL_FLOW', 0, null, null),
  t('BOILER_FUEL_FLOW', 0, null, null),
  t('FUEL_TYPE', 0, 4, null),
];

/**
 * Fields that only move while the scrubber runs (its washwater): their flat-line check counts only times when the
 * scrubber runs too (SCRUBBER_RUNNING), else a scrubber stopped at sea flags them all.
 */
export const movesWithScrubber = (fieldName: string) => fieldName.startsWith('WASHWATER_');

/** A field with no default: only the stale check, no range and no flat-line check. */
export const fallbackThreshold = (fieldName: string): DataHealthThreshold => t(fieldName, null, null, null);

export const defaultThreshold = (fieldName: string): DataHealthThreshold =>
  DEFAULT_DATA_HEALTH_THRESHOLDS.find((d) => d.fieldName === fieldName) ?? fallbackThreshold(fieldName);

// --- Health of a ship's channels -----------------------------------------------------------------------------

export const HEALTH_FLAG_KINDS = ['stale', 'flatLined', 'outOfRange'] as const;
export type HealthFlagKind = (typeof HEALTH_FLAG_KINDS)[number];

export const HEALTH_FLAG_LABELS: Record<HealthFlagKind, string> = {
  stale: 'Stale',
  flatLined: 'Flat-lined',
  outOfRange: 'Out of range',
};

export const healthIntervalSchema = z.object({
  kind: z.enum(HEALTH_FLAG_KINDS),
  from: z.string(),
  to: z.string(),
  /** Samples inside the interval (0 for stale: it is the time without one). */
  samples: z.number(),
  /** The stuck value (flatLined) or the one furthest out (outOfRange). */
  value: z.number().nullable(),
});
export type HealthInterval = z.infer<typeof healthIntervalSchema>;

export const channelHealthSchema = z.object({
  dataSourceId: z.string(),
  dataSourceName: z.string(),
  channelId: z.string(),
  /** The measurement field the channel is mapped to. */
  name: z.string(),
  /** The column of the logger file. */
  source: z.string(),
  unit: z.string().nullable(),
  /** Share (0–1) of the expected samples present, from the data source's measure frequency; null for an empty period. */
  coverage: z.number().nullable(),
  samples: z.number(),
  expectedSamples: z.number(),
  lastValueOn: z.string().nullable(),
  flags: z.array(z.enum(HEALTH_FLAG_KINDS)),
  /** The flagged intervals, first first (at most 20 per channel; `intervalCount` counts them all). */
  intervals: z.array(healthIntervalSchema),
  intervalCount: z.number(),
  threshold: dataHealthThresholdSchema,
});
export type ChannelHealth = z.infer<typeof channelHealthSchema>;

export const HEALTH_STATUSES = ['ok', 'flagged', 'noData', 'noChannels'] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/** A stretch without any row from the ship's loggers, at least the organization's data gap minutes long. */
export const dataGapSchema = z.object({ from: z.string(), to: z.string(), minutes: z.number() });
export type DataGap = z.infer<typeof dataGapSchema>;

/**
 * A channel covering less than this share of its expected samples is not healthy, whatever its flags say: a
 * logger writing at half the configured frequency, or many short gaps, leave half the period unmeasured. Ours: the
 * EGCS Guidelines (MEPC.340(77)) ask for continuous monitoring without a number; 95 % leaves room for a logger's
 * restarts and the odd dropped row in a day (72 minutes), and none for a day missing in a week.
 */
export const HEALTHY_COVERAGE = 0.95;

/**
 * What the stream found (docs/decisions/0120-live-sparkplug-host.md): a sample from the future (refused, kept here),
 * the ship's clock going backwards, a sequence gap (a rebirth was asked for), a payload that could not be read.
 */
export const STREAM_FINDING_KINDS = ['future', 'clockBackwards', 'sequenceGap', 'malformed'] as const;
export type StreamFindingKind = (typeof STREAM_FINDING_KINDS)[number];
export const STREAM_FINDING_LABELS: Record<StreamFindingKind, string> = {
  future: 'Sample from the future, not stored',
  clockBackwards: "The ship's clock went backwards",
  sequenceGap: 'Messages lost on the way, the ship was asked to send its channels again',
  malformed: 'A message that could not be read',
};
export const streamHealthSchema = z.object({
  /** The ship's edge node: online since its birth, offline since its death; null when it never streamed. */
  link: z.object({ online: z.boolean(), since: z.string(), lastMessageOn: z.string().nullable() }).nullable(),
  /** Newest first, at most 20; `findingCount` counts all of the period. */
  findings: z.array(
    z.object({
      kind: z.enum(STREAM_FINDING_KINDS),
      dataSourceId: z.string().nullable(),
      sourceTime: z.string().nullable(),
      foundOn: z.string(),
      detail: z.record(z.string(), z.unknown()),
    }),
  ),
  findingCount: z.number(),
});
export type StreamHealth = z.infer<typeof streamHealthSchema>;

export const dataHealthSchema = z.object({
  facilityId: z.string(),
  from: z.string(),
  to: z.string(),
  /** The ship's latest sample in the period: stale is measured up to it, not up to now. */
  latestDataOn: z.string().nullable(),
  status: z.enum(HEALTH_STATUSES),
  channels: z.array(channelHealthSchema),
  /**
   * The stretches inside the period without any row from the ship's loggers, at least `gapMinutes` long (the
   * organization's event rules' data gap, as the data gap events), longest first (at most 20; `gapCount` counts all).
   */
  gaps: z.array(dataGapSchema),
  gapCount: z.number(),
  gapMinutes: z.number(),
  /** The live stream's side (issue 33): the edge node's link and the stream's findings in the period. */
  stream: streamHealthSchema,
});
export type DataHealth = z.infer<typeof dataHealthSchema>;

export const dataHealthQuerySchema = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});

/** One ship's badge on the ship list: its health over the last days of its data (HEALTH_SUMMARY_DAYS). */
export const dataHealthSummarySchema = z.object({
  facilityId: z.string(),
  status: z.enum(HEALTH_STATUSES),
  channels: z.number(),
  /** Channels with each flag. */
  stale: z.number(),
  flatLined: z.number(),
  outOfRange: z.number(),
  /** Gaps in the ship's data, and channels covering less than HEALTHY_COVERAGE (0 in summaries stored before them). */
  gaps: z.number().default(0),
  lowCoverage: z.number().default(0),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type DataHealthSummary = z.infer<typeof dataHealthSummarySchema>;

/** The badge covers this many days up to the ship's latest data; the health view opens on the same period. */
export const HEALTH_SUMMARY_DAYS = 7;
/** The longest period the health view answers at once. */
export const MAX_HEALTH_PERIOD_DAYS = 400;

/** The badge text of a summary, and whether it warns. */
export function healthBadge(
  summary: Pick<DataHealthSummary, 'status' | 'stale' | 'flatLined' | 'outOfRange'> &
    Partial<Pick<DataHealthSummary, 'gaps' | 'lowCoverage'>>,
): {
  label: string;
  warn: boolean;
} {
  if (summary.status === 'noChannels') return { label: 'No mapped channels', warn: true };
  if (summary.status === 'noData') return { label: 'No data', warn: false };
  const parts: string[] = [];
  if (summary.stale) parts.push(`${summary.stale} stale`);
  if (summary.flatLined) parts.push(`${summary.flatLined} flat-lined`);
  if (summary.outOfRange) parts.push(`${summary.outOfRange} out of range`);
  if (summary.gaps) parts.push(summary.gaps === 1 ? '1 data gap' : `${summary.gaps} data gaps`);
  if (summary.lowCoverage) parts.push(`${summary.lowCoverage} low coverage`);
  return parts.length ? { label: parts.join(', '), warn: true } : { label: 'Healthy', warn: false };
}

/** Coverage as the health view shows it: '98.5 %', or 'No data' when no sample was expected. */
export function healthCoverageText(coverage: number | null): string {
  return coverage === null ? 'No data' : `${(Math.round(coverage * 1000) / 10).toFixed(1)} %`;
}

const hours = (h: number) => `${h} h`;

/** A field's thresholds in one line: 'Range 0 – 14 · stale after 2 h · flat-line after 2 h'. */
export function thresholdText(
  t: Pick<DataHealthThreshold, 'min' | 'max' | 'staleHours' | 'flatLineHours'>,
): string {
  const parts: string[] = [];
  if (t.min !== null && t.max !== null) parts.push(`Range ${t.min} – ${t.max}`);
  else if (t.min !== null) parts.push(`At least ${t.min}`);
  else if (t.max !== null) parts.push(`At most ${t.max}`);
  if (t.staleHours !== null) parts.push(`stale after ${hours(t.staleHours)}`);
  if (t.flatLineHours !== null) parts.push(`flat-line after ${hours(t.flatLineHours)}`);
  return parts.length ? parts.join(' · ') : 'Not checked';
}

/** A duration in minutes as the health view says it: '45 min', '5 h 20 min', '4 days 2 h'. */
export function gapDurationText(minutes: number): string {
  const m = Math.round(minutes);
  const days = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  const min = m % 60;
  if (days > 0) return `${days} ${days === 1 ? 'day' : 'days'}${h ? ` ${h} h` : ''}`;
  if (h > 0) return `${h} h${min ? ` ${min} min` : ''}`;
  return `${min} min`;
}

/**
 * The health view's headline: "healthy" only when every rule holds: no channel flagged, no gap in the ship's
 * data of the organization's data gap minutes or longer, and every channel covering at least HEALTHY_COVERAGE of
 * the period. Otherwise each finding in one sentence, the worst first.
 */
export function healthHeadline(health: Pick<DataHealth, 'channels' | 'gaps' | 'gapCount'>): {
  healthy: boolean;
  text: string;
} {
  const { channels } = health;
  const sentences: string[] = [];
  if (health.gapCount > 0) {
    const longest = health.gaps[0]!;
    sentences.push(
      health.gapCount === 1
        ? `The ship sent no data for ${gapDurationText(longest.minutes)}.`
        : `The ship sent no data ${health.gapCount} times, the longest for ${gapDurationText(longest.minutes)}.`,
    );
  }
  const low = channels.filter((c) => c.coverage !== null && c.coverage < HEALTHY_COVERAGE);
  if (low.length > 0) {
    const lowest = Math.min(...low.map((c) => c.coverage!));
    const of =
      low.length === channels.length ? `All ${channels.length}` : `${low.length} of ${channels.length}`;
    sentences.push(
      `${of} mapped channels cover less than ${HEALTHY_COVERAGE * 100} % of the period (lowest ${healthCoverageText(lowest)}).`,
    );
  }
  const flagged = channels.filter((c) => c.flags.length > 0).length;
  if (flagged > 0) sentences.push(`${flagged} of ${channels.length} mapped channels are flagged.`);
  if (sentences.length === 0)
    return { healthy: true, text: `All ${channels.length} mapped channels are healthy.` };
  return { healthy: false, text: sentences.join(' ') };
}
