import { normalizeLongitude } from '../../zone-geometry';
import { haversineNm } from './geo';

/**
 * A ship's position and speed series as the engine reads them: one entry per target timestamp, NaN where a channel
 * has no value. Missing rows (no timestamp) and NaN positions are gaps.
 */
export interface PositionSeries {
  /** UTC epoch milliseconds, ascending. */
  timestamps: ArrayLike<number>;
  /** Degrees; NaN where there is no fix. */
  latitude: ArrayLike<number>;
  longitude: ArrayLike<number>;
  /** Speed over ground in knots, NaN where not logged. Without it (or where it is NaN) the speed between fixes is used. */
  sog?: ArrayLike<number>;
}

export interface TrackOptions {
  /** Below this speed (knots) a ship is stopped: a port call's speed and the limit of "under way". */
  stopSpeedKn: number;
  /** Two fixes further apart in time than this are a gap: no speed is derived across it and its leg is judged by its mean speed. */
  gapMs: number;
}

export const DEFAULT_TRACK_OPTIONS: TrackOptions = {
  stopSpeedKn: 1,
  // The compliance events' data gap (DOMAIN.md): no target timestamp for more than 60 min.
  gapMs: 60 * 60_000,
};

/**
 * The valid fixes of a series (time, position, speed) and the legs between consecutive fixes. Leg k runs from fix
 * k-1 to fix k (leg 0 is empty): its distance is the great circle between the two fixes (across a gap: the straight
 * line from the last fix before to the first fix after), and it is under way when the speed at fix k is at least the
 * stop speed, or, across a gap or where the speed is unknown, when its mean speed (distance / time) is.
 */
export interface Track {
  t: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
  /** Knots: logged speed over ground, else the mean speed since the previous fix (NaN for the first fix and after a gap). */
  speed: Float64Array;
  /** Nautical miles from fix k-1 to fix k (0 for k = 0). */
  legNm: Float64Array;
  /** 1 when the leg from fix k-1 to fix k is under way, else 0 (0 for k = 0). */
  legUnderWay: Uint8Array;
  /** 1 when the leg from fix k-1 to fix k is longer than the gap limit. */
  legGap: Uint8Array;
}

export function prepareTrack(series: PositionSeries, options: TrackOptions = DEFAULT_TRACK_OPTIONS): Track {
  const n = series.timestamps.length;
  const idx: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = series.timestamps[i]!;
    const la = series.latitude[i]!;
    const lo = series.longitude[i]!;
    if (Number.isFinite(t) && Number.isFinite(la) && Number.isFinite(lo) && Math.abs(la) <= 90) idx.push(i);
  }
  const m = idx.length;
  const t = new Float64Array(m);
  const lat = new Float64Array(m);
  const lon = new Float64Array(m);
  const speed = new Float64Array(m);
  const legNm = new Float64Array(m);
  const legUnderWay = new Uint8Array(m);
  const legGap = new Uint8Array(m);
  for (let k = 0; k < m; k++) {
    const i = idx[k]!;
    t[k] = series.timestamps[i]!;
    lat[k] = series.latitude[i]!;
    lon[k] = normalizeLongitude(series.longitude[i]!);
    const logged = series.sog ? series.sog[i]! : NaN;
    if (k === 0) {
      speed[k] = Number.isFinite(logged) ? logged : NaN;
      continue;
    }
    const dtMs = t[k]! - t[k - 1]!;
    const nm = haversineNm(lat[k - 1]!, lon[k - 1]!, lat[k]!, lon[k]!);
    legNm[k] = nm;
    const gap = dtMs > options.gapMs;
    legGap[k] = gap ? 1 : 0;
    const mean = dtMs > 0 ? nm / (dtMs / 3_600_000) : NaN;
    speed[k] = Number.isFinite(logged) ? logged : gap ? NaN : mean;
    const judged = gap || !Number.isFinite(speed[k]!) ? mean : speed[k]!;
    legUnderWay[k] = judged >= options.stopSpeedKn ? 1 : 0;
  }
  return { t, lat, lon, speed, legNm, legUnderWay, legGap };
}

/** Index of the last fix at or before `time` (-1 before the first). */
export function fixAtOrBefore(track: Track, time: number): number {
  let lo = 0;
  let hi = track.t.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (track.t[mid]! <= time) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * Is the ship under way at `time`? The leg that ends at or after `time` decides (a time between fixes k-1 and k,
 * or at fix k, belongs to leg k); before the first fix and after the last, that fix's speed. False with no fix.
 */
export function underWayAt(
  track: Track,
  time: number,
  stopSpeedKn = DEFAULT_TRACK_OPTIONS.stopSpeedKn,
): boolean {
  const m = track.t.length;
  if (m === 0) return false;
  if (time <= track.t[0]!) return track.speed[0]! >= stopSpeedKn;
  if (time > track.t[m - 1]!) return track.speed[m - 1]! >= stopSpeedKn;
  // The first fix at or after `time`: k >= 1 here.
  const before = fixAtOrBefore(track, time);
  const k = track.t[before] === time ? before : before + 1;
  return track.legUnderWay[k] === 1;
}
