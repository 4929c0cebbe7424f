import { z } from 'zod';

/**
 * The map (issue 20, docs/decisions/0102-map.md): a ship's track for a period and the fleet's last positions, read
 * from the stored LATITUDE, LONGITUDE and SCRUBBER_MODE measurement values.
 */

/** A track has at most about this many positions (one per time bucket, plus each segment's ends). */
export const TRACK_MAX_POINTS = 2000;
/** Positions further apart in time than this are not joined by a line: the ship logged nothing in between. */
export const TRACK_GAP_MINUTES = 30;
/** The longest period a track or the fleet's positions are read for at once. */
export const MAX_TRACK_PERIOD_DAYS = 1100;

const instant = z.iso.datetime({ offset: true });

export const trackQuerySchema = z.object({ from: instant, to: instant });
export type TrackQuery = z.infer<typeof trackQuerySchema>;

/** The scrubber's mode as logged (SCRUBBER_MODE: 1 open loop, 0 closed loop); null where it logs none. */
export const SCRUBBER_MODE_NAMES = { open: 'Open loop', closed: 'Closed loop' } as const;
export type ScrubberModeName = keyof typeof SCRUBBER_MODE_NAMES;

/** [latitude, longitude] in degrees, longitude in -180..180 as logged. */
export const latLonSchema = z.tuple([z.number(), z.number()]);
export type LatLon = z.infer<typeof latLonSchema>;

/** A stretch of the track without a gap and in one scrubber mode. */
export const trackSegmentSchema = z.object({
  /** Its first and last position's time (UTC ISO 8601). */
  from: z.string(),
  to: z.string(),
  /** Open where any position of a thinned stretch was logged in open loop; null when the ship logs no mode. */
  mode: z.enum(['open', 'closed']).nullable(),
  points: z.array(latLonSchema),
});
export type TrackSegment = z.infer<typeof trackSegmentSchema>;

export const trackSchema = z.object({
  facilityId: z.string(),
  from: z.string(),
  to: z.string(),
  /** Whether the ship has stored SCRUBBER_MODE values in the period (else every segment's mode is null). */
  hasScrubberMode: z.boolean(),
  /** Positions stored in the period, and how many of them the track keeps. */
  samples: z.number().int(),
  points: z.number().int(),
  segments: z.array(trackSegmentSchema),
});
export type Track = z.infer<typeof trackSchema>;

/** A ship's last stored position in a period. */
export const shipPositionSchema = z.object({
  facilityId: z.string(),
  timestamp: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  mode: z.enum(['open', 'closed']).nullable(),
});
export type ShipPosition = z.infer<typeof shipPositionSchema>;
