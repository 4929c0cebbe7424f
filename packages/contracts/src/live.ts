import { z } from 'zod';
import { streamHealthSchema } from './data-health';

/**
 * A ship's live readout (issue 33, docs/decisions/0129-live-readout.md): the latest value of each channel its edge
 * node streamed (MQTT Sparkplug B, docs/decisions/0120-live-sparkplug-host.md), as it arrived, before any execution.
 */

/** How far before the ship's latest streamed sample a channel's last value still counts as live: an hour. */
export const LIVE_READOUT_WINDOW_MS = 60 * 60_000;
/** How often the ship dashboard asks again (the demo ship streams a minute at a time; a gateway may send faster). */
export const LIVE_READOUT_REFRESH_MS = 10_000;

export const liveValueSchema = z.object({
  dataSourceId: z.string(),
  dataSourceName: z.string(),
  /** The raw channel as the logger (and the DBIRTH) names it. */
  channel: z.string(),
  /** The name of its mapping, null when the raw channel is not mapped. */
  name: z.string().nullable(),
  unit: z.string().nullable(),
  /** The mapping's ISO 19848-style local id, when set. */
  localId: z.string().nullable(),
  /** The sample's source time (UTC ISO 8601). */
  sourceTime: z.string(),
  value: z.number().nullable(),
  /** Replayed from the ship's buffer after a lost link. */
  isHistorical: z.boolean(),
});
export type LiveValue = z.infer<typeof liveValueSchema>;

export const liveReadoutSchema = z.object({
  facilityId: z.string(),
  /** The ship's edge node: online since its birth, offline since its death; null when it never streamed. */
  link: streamHealthSchema.shape.link,
  /** Mapped channels first (by name), then the raw ones (by channel). */
  values: z.array(liveValueSchema),
});
export type LiveReadout = z.infer<typeof liveReadoutSchema>;
