import {
  TRACK_GAP_MINUTES,
  TRACK_MAX_POINTS,
  type LatLon,
  type ShipPosition,
  type TrackSegment,
} from '@portal/contracts/map';

/**
 * A ship's track from its stored positions (docs/decisions/0102-map.md): pure functions over the columns, unit tested
 * in track.test.ts.
 */

/** Positions on one time axis: latitude and longitude (and the scrubber mode, null when the ship logs none). */
export interface PositionColumns {
  timestamps: Float64Array;
  latitudes: Float64Array;
  longitudes: Float64Array;
  /** SCRUBBER_MODE at each timestamp (1 open loop, 0 closed loop, NaN not known); null: no mode at all. */
  modes: Float64Array | null;
}

/** Values of a series at `targets` (both ascending); NaN where the series has no value at that time. */
export function valuesAt(
  targets: Float64Array,
  series: { timestamps: Float64Array; values: Float64Array },
): Float64Array {
  const out = new Float64Array(targets.length).fill(NaN);
  let j = 0;
  for (let i = 0; i < targets.length; i++) {
    const t = targets[i]!;
    while (j < series.timestamps.length && series.timestamps[j]! < t) j++;
    if (j < series.timestamps.length && series.timestamps[j] === t) out[i] = series.values[j]!;
  }
  return out;
}

const validPosition = (lat: number, lon: number) =>
  Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;

const modeName = (v: number | undefined): 'open' | 'closed' | null =>
  v === undefined || Number.isNaN(v) ? null : v >= 0.5 ? 'open' : 'closed';

interface Fix {
  t: number;
  lat: number;
  lon: number;
}
interface Bucket {
  index: number;
  first: Fix;
  last: Fix;
  open: boolean;
  known: boolean;
}
interface OpenSegment {
  mode: 'open' | 'closed' | null;
  from: number;
  to: number;
  points: LatLon[];
  lastT: number;
  end: Fix;
}

export interface BuiltTrack {
  samples: number;
  points: number;
  segments: TrackSegment[];
}

/**
 * The track of a period, thinned to about `maxPoints` positions: the period is cut into `maxPoints` equal time
 * buckets and each bucket keeps its first position; a segment also keeps its last position. A new segment starts
 * where the scrubber mode changes (it shares its first position with the end of the one before, so the line goes on)
 * and after a gap of more than `gapMs` without a position (not joined). A bucket with any position logged in open
 * loop counts as open loop: a short open-loop spell stays on a year's map. Positions that are missing or out of
 * range are skipped.
 */
export function buildTrack(
  columns: PositionColumns,
  period: { from: number; to: number },
  maxPoints = TRACK_MAX_POINTS,
  gapMs = TRACK_GAP_MINUTES * 60_000,
): BuiltTrack {
  const { timestamps, latitudes, longitudes, modes } = columns;
  const bucketMs = Math.max(1, Math.ceil((period.to - period.from) / Math.max(1, maxPoints)));
  const segments: TrackSegment[] = [];
  let samples = 0;
  let bucket: Bucket | null = null;
  let current: OpenSegment | null = null;
  let prevT: number | null = null;

  const push = (segment: OpenSegment, fix: Fix) => {
    if (segment.lastT === fix.t) return;
    segment.points.push([fix.lat, fix.lon]);
    segment.lastT = fix.t;
    segment.to = fix.t;
  };
  const startSegment = (mode: OpenSegment['mode'], fix: Fix): OpenSegment => ({
    mode,
    from: fix.t,
    to: fix.t,
    points: [[fix.lat, fix.lon]],
    lastT: fix.t,
    end: fix,
  });
  const closeSegment = () => {
    if (!current) return;
    push(current, current.end);
    segments.push({
      from: new Date(current.from).toISOString(),
      to: new Date(current.to).toISOString(),
      mode: current.mode,
      points: current.points,
    });
    current = null;
  };
  const flushBucket = () => {
    if (!bucket) return;
    const mode = bucket.known ? (bucket.open ? 'open' : 'closed') : null;
    if (current && current.mode !== mode) {
      // The line goes on in the new mode from this bucket's first position.
      push(current, bucket.first);
      current.end = bucket.first;
      closeSegment();
    }
    if (!current) current = startSegment(mode, bucket.first);
    else push(current, bucket.first);
    current.end = bucket.last;
    bucket = null;
  };

  const n = Math.min(timestamps.length, latitudes.length, longitudes.length);
  for (let i = 0; i < n; i++) {
    const t = timestamps[i]!;
    const lat = latitudes[i]!;
    const lon = longitudes[i]!;
    if (!validPosition(lat, lon) || !Number.isFinite(t)) continue;
    samples++;
    const gap = prevT !== null && t - prevT > gapMs;
    const index = Math.floor((t - period.from) / bucketMs);
    if (bucket && (gap || index !== bucket.index)) flushBucket();
    if (gap) closeSegment();
    const fix = { t, lat, lon };
    bucket ??= { index, first: fix, last: fix, open: false, known: false };
    bucket.last = fix;
    const mode = modeName(modes?.[i]);
    if (mode !== null) {
      bucket.known = true;
      if (mode === 'open') bucket.open = true;
    }
    prevT = t;
  }
  flushBucket();
  closeSegment();
  return { samples, points: segments.reduce((s, g) => s + g.points.length, 0), segments };
}

/** The last valid position of the columns, or null. */
export function lastPosition(facilityId: string, columns: PositionColumns): ShipPosition | null {
  for (let i = Math.min(columns.timestamps.length, columns.latitudes.length) - 1; i >= 0; i--) {
    const lat = columns.latitudes[i]!;
    const lon = columns.longitudes[i]!;
    if (!validPosition(lat, lon)) continue;
    return {
      facilityId,
      timestamp: new Date(columns.timestamps[i]!).toISOString(),
      latitude: lat,
      longitude: lon,
      mode: modeName(columns.modes?.[i]),
    };
  }
  return null;
}
