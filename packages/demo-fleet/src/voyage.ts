import type { DemoShip, LatLon } from './ships';
import { signed, uniform } from './random';

/** Where a ship is and what it does at one moment, from its route cycle (a pure function of ship and time). */
export interface VoyageState {
  phase: 'port' | 'sea';
  /** Number of the route cycle since the timeline origin. */
  cycle: number;
  /** Index of the route call: the port the ship lies at, or the port it sailed from. */
  callIndex: number;
  portName: string;
  latitude: number;
  /** -180..180 */
  longitude: number;
  speedKnots: number;
  /** 0..360 */
  headingDegrees: number;
  /** Hours since arrival (port) or departure (sea). */
  hoursSinceStart: number;
  /** Hours until departure (port) or arrival (sea). */
  hoursToEnd: number;
}

const EARTH_RADIUS_NM = 3440.065;
const HOUR_MS = 3_600_000;
/** Hours of acceleration after departure and of deceleration before arrival (pilotage, manoeuvring). */
const RAMP_HOURS = 1.5;
const RAMP_START_FACTOR = 0.25;
const STREAM_STAY = 101;
const STREAM_SPEED = 102;
const STREAM_PHASE = 103;
const STREAM_BERTH = 104;
// Early enough that every demo or test date falls after it; the timeline is walked once per ship and cached.
const TIMELINE_ORIGIN_MS = Date.UTC(2016, 0, 1);

const toRad = Math.PI / 180;

export function distanceNm(a: LatLon, b: LatLon): number {
  const dLat = (b[0] - a[0]) * toRad;
  const dLon = (b[1] - a[1]) * toRad;
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(a[0] * toRad) * Math.cos(b[0] * toRad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_NM * Math.asin(Math.min(1, Math.sqrt(h)));
}

function bearingDegrees(a: LatLon, b: LatLon): number {
  const φ1 = a[0] * toRad;
  const φ2 = b[0] * toRad;
  const Δλ = (b[1] - a[1]) * toRad;
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return (((Math.atan2(y, x) / toRad) % 360) + 360) % 360;
}

interface Leg {
  points: LatLon[];
  cumulativeNm: number[];
  lengthNm: number;
}

interface Timeline {
  legs: Leg[];
  /** Start (ms) of each cycle walked so far; cycle k spans [starts[k], starts[k + 1]). */
  starts: number[];
}

const timelines = new WeakMap<DemoShip, Timeline>();

function timelineOf(ship: DemoShip): Timeline {
  let timeline = timelines.get(ship);
  if (timeline) return timeline;
  const calls = ship.route;
  const legs = calls.map((call, i) => {
    const next = calls[(i + 1) % calls.length]!;
    const points: LatLon[] = [
      [call.port.latitude, call.port.longitude],
      ...call.via,
      [next.port.latitude, next.port.longitude],
    ];
    // A route may store longitudes past 180; keep each leg continuous so that interpolation never jumps across the globe.
    for (let k = 1; k < points.length; k++) {
      const prev = points[k - 1]![1];
      let lon = points[k]![1];
      while (lon - prev > 180) lon -= 360;
      while (prev - lon > 180) lon += 360;
      points[k] = [points[k]![0], lon];
    }
    // cumulativeNm gets one entry per point, so k - 1 is always there.
    const cumulativeNm = [0];
    let lengthNm = 0;
    for (let k = 1; k < points.length; k++) {
      lengthNm = cumulativeNm[k - 1]! + distanceNm(points[k - 1]!, points[k]!);
      cumulativeNm.push(lengthNm);
    }
    return { points, cumulativeNm, lengthNm };
  });
  const nominalCycleHours = legs.reduce((h, leg) => h + leg.lengthNm / ship.serviceSpeedKnots + 36, 0);
  const phaseMs = uniform(ship.seed, STREAM_PHASE, 0) * nominalCycleHours * HOUR_MS;
  timeline = { legs, starts: [TIMELINE_ORIGIN_MS - phaseMs] };
  timelines.set(ship, timeline);
  return timeline;
}

// callIndex below is always an index of timeline.legs, which has one leg per call of ship.route.
function stayHours(ship: DemoShip, cycle: number, callIndex: number): number {
  const [min, max] = ship.route[callIndex]!.stayHours;
  return min + (max - min) * uniform(ship.seed, STREAM_STAY, cycle * 64 + callIndex);
}

function legSpeed(ship: DemoShip, cycle: number, callIndex: number): number {
  return ship.serviceSpeedKnots + 0.6 * signed(ship.seed, STREAM_SPEED, cycle * 64 + callIndex);
}

/** Hours a leg takes with the speed ramps at both ends. */
function legHours(lengthNm: number, speed: number): number {
  const rampLossHours = RAMP_HOURS * (1 - (RAMP_START_FACTOR + 1) / 2);
  return lengthNm / speed + 2 * rampLossHours;
}

function cycleHours(ship: DemoShip, timeline: Timeline, cycle: number): number {
  let hours = 0;
  for (let i = 0; i < timeline.legs.length; i++)
    hours += stayHours(ship, cycle, i) + legHours(timeline.legs[i]!.lengthNm, legSpeed(ship, cycle, i));
  return hours;
}

function cycleAt(ship: DemoShip, timeline: Timeline, tMs: number): number {
  // starts is created with one entry and only grows; lo and hi stay in 0..starts.length - 2.
  const { starts } = timeline;
  const first = starts[0]!;
  if (tMs < first)
    throw new RangeError(`The demo fleet's timeline starts in ${new Date(first).getUTCFullYear()}`);
  while (starts[starts.length - 1]! <= tMs) {
    const k = starts.length - 1;
    starts.push(starts[k]! + cycleHours(ship, timeline, k) * HOUR_MS);
  }
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= tMs) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Distance sailed (nm) and speed factor at `hours` after departure on a leg of `totalHours`. */
function progress(hours: number, totalHours: number, speed: number): { nm: number; factor: number } {
  const ramp = (h: number) =>
    speed * (RAMP_START_FACTOR * h + (((1 - RAMP_START_FACTOR) / 2) * (h * h)) / RAMP_HOURS);
  const rampNm = ramp(RAMP_HOURS);
  if (hours < RAMP_HOURS)
    return { nm: ramp(hours), factor: RAMP_START_FACTOR + ((1 - RAMP_START_FACTOR) * hours) / RAMP_HOURS };
  const left = totalHours - hours;
  if (left < RAMP_HOURS) {
    const lengthNm = 2 * rampNm + speed * (totalHours - 2 * RAMP_HOURS);
    return {
      nm: lengthNm - ramp(Math.max(0, left)),
      factor: RAMP_START_FACTOR + ((1 - RAMP_START_FACTOR) * Math.max(0, left)) / RAMP_HOURS,
    };
  }
  return { nm: rampNm + speed * (hours - RAMP_HOURS), factor: 1 };
}

function normalizeLongitude(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

export function voyageAt(ship: DemoShip, tMs: number): VoyageState {
  const timeline = timelineOf(ship);
  const cycle = cycleAt(ship, timeline, tMs);
  // cycleAt answers an index below starts.length - 1, so starts[cycle] and starts[cycle + 1] exist.
  let cursor = timeline.starts[cycle]!;
  for (let i = 0; i < timeline.legs.length; i++) {
    const stay = stayHours(ship, cycle, i) * HOUR_MS;
    const port = ship.route[i]!.port;
    if (tMs < cursor + stay) {
      return {
        phase: 'port',
        cycle,
        callIndex: i,
        portName: port.name,
        latitude: port.latitude,
        longitude: normalizeLongitude(port.longitude),
        speedKnots: 0,
        headingDegrees: 360 * uniform(ship.seed, STREAM_BERTH, i),
        hoursSinceStart: (tMs - cursor) / HOUR_MS,
        hoursToEnd: (cursor + stay - tMs) / HOUR_MS,
      };
    }
    cursor += stay;
    const leg = timeline.legs[i]!;
    const speed = legSpeed(ship, cycle, i);
    const totalHours = legHours(leg.lengthNm, speed);
    if (tMs < cursor + totalHours * HOUR_MS) {
      const hours = (tMs - cursor) / HOUR_MS;
      const { nm, factor } = progress(hours, totalHours, speed);
      const along = Math.min(leg.lengthNm, Math.max(0, nm));
      let k = 1;
      // A leg has at least two points (its two ports) and k stays in 1..points.length - 1.
      while (k < leg.cumulativeNm.length - 1 && leg.cumulativeNm[k]! < along) k++;
      const a = leg.points[k - 1]!;
      const b = leg.points[k]!;
      const segment = leg.cumulativeNm[k]! - leg.cumulativeNm[k - 1]!;
      const f = segment > 0 ? (along - leg.cumulativeNm[k - 1]!) / segment : 0;
      return {
        phase: 'sea',
        cycle,
        callIndex: i,
        portName: port.name,
        latitude: a[0] + (b[0] - a[0]) * f,
        longitude: normalizeLongitude(a[1] + (b[1] - a[1]) * f),
        speedKnots: speed * factor,
        headingDegrees: bearingDegrees(a, b),
        hoursSinceStart: hours,
        hoursToEnd: totalHours - hours,
      };
    }
    cursor += totalHours * HOUR_MS;
  }
  // Floating-point rest at the very end of a cycle: the ship is arriving at the first port.
  return voyageAt(ship, timeline.starts[cycle + 1]!);
}

/** Hours of the leg that starts at `callIndex` in `cycle` (sailing time including the speed ramps). */
export function legDurationHours(ship: DemoShip, cycle: number, callIndex: number): number {
  const leg = timelineOf(ship).legs[callIndex];
  if (!leg) throw new RangeError(`${ship.name} has no call ${callIndex}`);
  return legHours(leg.lengthNm, legSpeed(ship, cycle, callIndex));
}
