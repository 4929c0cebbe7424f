import { ECA_ZONES } from '../eca';
import { DISCHARGE_ZONES } from '../discharge-zones';
import { FUEL_SULFUR_LIMITS } from '../events';
import { inZonesAt, normalizeLongitude, prepareZone, type PreparedZone } from '../zone-geometry';
import { EARTH_RADIUS_NM, haversineNm } from './carbon/geo';

/**
 * Zone warnings before arrival (issue 33, docs/decisions/0123-zone-warnings.md): from a ship's latest positions,
 * its course and speed over ground, the track ahead by dead reckoning on a sphere, and the first zone on it that bans
 * what the ship does now: a no-discharge zone while the scrubber is in open loop, an ECA while it burns fuel above
 * the ECA's 0.10 % sulfur with the scrubber off. Pure functions; the API evaluates them after each execution.
 *
 * The formulas are the spherical ones of Ed Williams' Aviation Formulary (https://edwilliams.org/avform147.htm,
 * "Lat/lon given radial and distance", "Course between points") as Chris Veness writes them at
 * https://www.movable-type.co.uk/scripts/latlong.html ("Destination point given distance and bearing from start
 * point", "Bearing"); the radius is the IUGG mean Earth radius of the carbon ledger's geo.ts. A great circle on the
 * sphere differs from the ellipsoid's geodesic by up to about 0.5 %, a few hundred metres over a 2-hour horizon at
 * 20 knots: less than the simplified zone polygons' own tolerance (eca.ts, discharge-zones.ts).
 */

const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

/** [latitude, longitude] in degrees (the map's order). */
export type Position = [number, number];

/**
 * The point `distanceNm` along the great circle that leaves (lat, lon) on the initial true course `courseDeg`:
 * φ2 = asin(sin φ1 cos δ + cos φ1 sin δ cos θ), λ2 = λ1 + atan2(sin θ sin δ cos φ1, cos δ − sin φ1 sin φ2), δ the
 * angular distance d/R. Longitude in -180..180.
 */
export function destinationPoint(lat: number, lon: number, courseDeg: number, distanceNm: number): Position {
  const d = distanceNm / EARTH_RADIUS_NM;
  const theta = courseDeg * RAD;
  const phi1 = lat * RAD;
  const lambda1 = lon * RAD;
  const sinPhi2 = Math.sin(phi1) * Math.cos(d) + Math.cos(phi1) * Math.sin(d) * Math.cos(theta);
  const phi2 = Math.asin(Math.max(-1, Math.min(1, sinPhi2)));
  const lambda2 =
    lambda1 +
    Math.atan2(Math.sin(theta) * Math.sin(d) * Math.cos(phi1), Math.cos(d) - Math.sin(phi1) * sinPhi2);
  return [phi2 * DEG, normalizeLongitude(lambda2 * DEG)];
}

/**
 * The initial true course (0..360, clockwise from north) of the great circle from the first position to the second:
 * θ = atan2(sin Δλ cos φ2, cos φ1 sin φ2 − sin φ1 cos φ2 cos Δλ).
 */
export function initialCourse(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const phi1 = lat1 * RAD;
  const phi2 = lat2 * RAD;
  const dLambda = (lon2 - lon1) * RAD;
  const y = Math.sin(dLambda) * Math.cos(phi2);
  const x = Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(dLambda);
  return (Math.atan2(y, x) * DEG + 360) % 360;
}

/** The course at the second position of the great circle from the first (the initial course back, reversed). */
export function finalCourse(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return (initialCourse(lat2, lon2, lat1, lon1) + 180) % 360;
}

/** A ship's position with its time. */
export interface Fix {
  /** UTC epoch ms. */
  t: number;
  lat: number;
  lon: number;
}

/** Where a ship is, where it heads and how fast: over ground, from its positions. */
export interface Motion {
  at: number;
  lat: number;
  lon: number;
  /** True course over ground, degrees 0..360. */
  courseDeg: number;
  /** Speed over ground, knots. */
  speedKn: number;
}

export interface MotionOptions {
  /** The positions taken for course and speed: those of the last this many ms (a short straight stretch). */
  lookbackMs: number;
  /** The earliest of them must be at least this long before the last, else course and speed are unknown. */
  minSpanMs: number;
  /** Below this speed (knots) the ship is stopped: it is going nowhere (the ledger's stop speed, track.ts). */
  stopSpeedKn: number;
}

export const DEFAULT_MOTION_OPTIONS: MotionOptions = {
  lookbackMs: 15 * 60_000,
  minSpanMs: 2 * 60_000,
  stopSpeedKn: 1,
};

/**
 * Course and speed over ground at the last fix: the great circle from the earliest fix of the last `lookbackMs` to
 * the last one (its final course; its length over the time). Null without two fixes `minSpanMs` apart, or when the
 * ship is stopped. Fixes in ascending time; NaN positions are skipped.
 */
export function motionOf(
  fixes: readonly Fix[],
  options: MotionOptions = DEFAULT_MOTION_OPTIONS,
): Motion | null {
  const valid = fixes.filter((f) => Number.isFinite(f.t) && Number.isFinite(f.lat) && Number.isFinite(f.lon));
  const last = valid[valid.length - 1];
  if (!last) return null;
  const first = valid.find((f) => f.t >= last.t - options.lookbackMs);
  if (!first || last.t - first.t < options.minSpanMs) return null;
  const nm = haversineNm(first.lat, first.lon, last.lat, last.lon);
  const speedKn = nm / ((last.t - first.t) / 3_600_000);
  if (!(speedKn >= options.stopSpeedKn)) return null;
  return {
    at: last.t,
    lat: last.lat,
    lon: normalizeLongitude(last.lon),
    courseDeg: finalCourse(first.lat, first.lon, last.lat, last.lon),
    speedKn,
  };
}

/** A point of the projected track, `minutes` after the last fix. */
export interface ProjectedPoint {
  minutes: number;
  position: Position;
}

/** The track ahead: the position every `stepMinutes` along the great circle at constant speed, up to the horizon. */
export function projectTrack(motion: Motion, horizonMinutes: number, stepMinutes = 5): ProjectedPoint[] {
  const points: ProjectedPoint[] = [];
  for (let m = 0; m < horizonMinutes + stepMinutes; m += stepMinutes) {
    const minutes = Math.min(m, horizonMinutes);
    points.push({
      minutes,
      position: destinationPoint(motion.lat, motion.lon, motion.courseDeg, (motion.speedKn * minutes) / 60),
    });
    if (minutes === horizonMinutes) break;
  }
  return points;
}

/** What a ship does now that a zone may ban: open-loop discharge, or high-sulfur fuel with the scrubber off. */
export type BannedMode = 'open-loop' | 'high-sulfur';
export type ZoneKind = 'no-discharge' | 'eca';

/** The zone kind that bans a mode. */
export const ZONE_KIND_BANNING: Record<BannedMode, ZoneKind> = {
  'open-loop': 'no-discharge',
  'high-sulfur': 'eca',
};

/** The latest values of the ship's channels (NaN or null: not logged). */
export interface ShipState {
  /** SCRUBBER_MODE: 1 open loop, 0 closed loop. */
  scrubberMode: number | null;
  /** SCRUBBER_RUNNING: 1 running, 0 off. */
  scrubberRunning: number | null;
  /** FUEL_SULFUR, % m/m. */
  fuelSulfur: number | null;
  /** FUEL_FLOW, kg/h. */
  fuelFlow: number | null;
}

const known = (v: number | null): v is number => v !== null && Number.isFinite(v);

/**
 * The modes a ship is in that some zone bans:
 * - open loop: SCRUBBER_MODE 1 while the scrubber runs (or logs no running state): washwater goes overboard, which a
 *   no-discharge zone bans (decision 0100; the zones' sources in docs/discharge-zones.md);
 * - high sulfur: FUEL_SULFUR above the ECA's 0.10 % m/m (MARPOL Annex VI regulation 14.4) while fuel flows (over the
 *   50 kg/h of the SCRUBBER_REQUIRED calculation, or no flow logged) and the scrubber is off (SCRUBBER_RUNNING 0).
 */
export function bannedModes(state: ShipState): BannedMode[] {
  const modes: BannedMode[] = [];
  if (state.scrubberMode === 1 && state.scrubberRunning !== 0) modes.push('open-loop');
  if (
    known(state.fuelSulfur) &&
    state.fuelSulfur > FUEL_SULFUR_LIMITS.eca &&
    state.scrubberRunning === 0 &&
    (!known(state.fuelFlow) || state.fuelFlow > 50)
  )
    modes.push('high-sulfur');
  return modes;
}

/** A zone a warning can be about. */
export interface WarningZone {
  kind: ZoneKind;
  name: string;
  prepared: PreparedZone;
}

/** Every zone of the product's data: the no-discharge zones and the ECAs, prepared once. */
export const WARNING_ZONES: readonly WarningZone[] = [
  ...DISCHARGE_ZONES.map((z) => ({ kind: 'no-discharge' as const, name: z.name, prepared: prepareZone(z) })),
  ...ECA_ZONES.map((z) => ({ kind: 'eca' as const, name: z.name, prepared: prepareZone(z) })),
];

const inZone = (zone: WarningZone, [lat, lon]: Position, atMs: number) =>
  inZonesAt([zone.prepared], lat, normalizeLongitude(lon), atMs);

/** A predicted entry into a zone that bans the ship's mode. */
export interface ZoneEntry {
  zone: WarningZone;
  mode: BannedMode;
  /** Minutes from the last fix to the entry (to the minute, found by bisection between track points). */
  minutes: number;
  /** UTC epoch ms of the entry. */
  at: number;
  position: Position;
}

/**
 * The zones the projected track enters within the horizon that ban one of the ship's modes, the first entry into
 * each, soonest first. A zone the ship is in already is no warning (the events say it; "arrived"); a zone not in
 * force at the entry's time neither. Between two track points the entry is bisected to within a minute.
 */
export function zoneEntries(
  motion: Motion,
  modes: readonly BannedMode[],
  horizonMinutes: number,
  zones: readonly WarningZone[] = WARNING_ZONES,
  stepMinutes = 5,
): ZoneEntry[] {
  if (!modes.length || horizonMinutes <= 0) return [];
  const track = projectTrack(motion, horizonMinutes, stepMinutes);
  const at = (minutes: number) => motion.at + minutes * 60_000;
  const positionAt = (minutes: number) =>
    destinationPoint(motion.lat, motion.lon, motion.courseDeg, (motion.speedKn * minutes) / 60);
  const entries: ZoneEntry[] = [];
  for (const mode of modes) {
    const kind = ZONE_KIND_BANNING[mode];
    for (const zone of zones) {
      if (zone.kind !== kind) continue;
      if (inZone(zone, [motion.lat, motion.lon], motion.at)) continue;
      for (let i = 1; i < track.length; i++) {
        const point = track[i]!;
        if (!inZone(zone, point.position, at(point.minutes))) continue;
        let outside = track[i - 1]!.minutes;
        let inside = point.minutes;
        while (inside - outside > 1 / 60) {
          const mid = (inside + outside) / 2;
          if (inZone(zone, positionAt(mid), at(mid))) inside = mid;
          else outside = mid;
        }
        entries.push({ zone, mode, minutes: inside, at: at(inside), position: positionAt(inside) });
        break;
      }
    }
  }
  return entries.sort((a, b) => a.minutes - b.minutes || a.zone.name.localeCompare(b.zone.name));
}

/** "in 40 min", "in 1 h 5 min", "within a minute". */
export function inMinutesText(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  if (m < 1) return 'within a minute';
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return `in ${h ? `${h} h` : ''}${h && rest ? ' ' : ''}${rest || !h ? `${rest} min` : ''}`;
}

/** The zone as a sentence names it: "Singapore port waters", "the Baltic Sea ECA". */
export function zoneTitle(kind: ZoneKind, name: string): string {
  return kind === 'eca' ? `the ${name} ECA` : name;
}

/**
 * The warning's text, in the product's tone: "open-loop discharge banned in Singapore port waters in 40 min: switch
 * to closed loop or to compliant fuel"; "high-sulfur fuel without the scrubber banned in the Baltic Sea ECA in
 * 1 h 10 min: start the scrubber or switch to compliant fuel".
 */
export function zoneWarningText(w: {
  mode: BannedMode;
  zoneKind: ZoneKind;
  zoneName: string;
  minutes: number;
}) {
  const where = `${zoneTitle(w.zoneKind, w.zoneName)} ${inMinutesText(w.minutes)}`;
  return w.mode === 'open-loop'
    ? `open-loop discharge banned in ${where}: switch to closed loop or to compliant fuel`
    : `high-sulfur fuel without the scrubber banned in ${where}: start the scrubber or switch to compliant fuel`;
}

/** Why an active warning was cleared. */
export type ZoneWarningClearance = 'turned-away' | 'mode-changed' | 'arrived' | 'no-position';

/**
 * Why a warning about (zone, mode) no longer holds, given the evaluation's facts, or null when it still holds:
 * the ship is inside the zone (arrived), its mode is no longer banned (mode changed), it has no current course and
 * speed (no position: stopped, or its positions stale), or its track no longer enters the zone within the horizon.
 */
export function clearanceOf(
  warning: { zoneKind: ZoneKind; zoneName: string; mode: BannedMode },
  facts: {
    insideZones: readonly { kind: ZoneKind; name: string }[];
    modes: readonly BannedMode[];
    motion: Motion | null;
    entries: readonly ZoneEntry[];
  },
): ZoneWarningClearance | null {
  const same = (z: { kind: ZoneKind; name: string }) =>
    z.kind === warning.zoneKind && z.name === warning.zoneName;
  if (facts.insideZones.some(same)) return 'arrived';
  if (!facts.modes.includes(warning.mode)) return 'mode-changed';
  if (!facts.motion) return 'no-position';
  if (!facts.entries.some((e) => e.mode === warning.mode && same(e.zone))) return 'turned-away';
  return null;
}

/** The zones that contain a position at a time (for "arrived"). */
export function zonesAt(position: Position, atMs: number, zones: readonly WarningZone[] = WARNING_ZONES) {
  return zones.filter((z) => inZone(z, position, atMs)).map((z) => ({ kind: z.kind, name: z.name }));
}
