import {
  hourlyShares,
  fuelTypesAt,
  HOUR_MS,
  MIN_SAMPLES_PER_HOUR,
  type FlowChannel,
  type FuelTypeOrUnknown,
} from './fuel';
import { FUEL_TYPES, type Consumer } from './fuels';
import { type PortCall } from './port-calls';
import { type Track } from './track';

/**
 * The ledger of a period: its time cut into stays at berth (port calls) and voyages (from leaving one call to
 * arriving at the next), each with its distance over ground, hours under way and not, and fuel per consumer and fuel
 * type. A time belongs to the leg that ends at or after it: the fix at a call's arrival ends the voyage, the fix at
 * its departure ends the stay. The period is [from, to); legs that reach over its ends are cut there (distance and
 * hours of a track leg cut by the period in proportion to the time on each side).
 */

export interface LegFuel {
  consumer: Consumer;
  fuelType: FuelTypeOrUnknown;
  /** kg burnt in the leg. */
  kg: number;
  /** kg of it burnt while the ship was not under way (stopped in port, at anchor, drifting). */
  kgNotUnderWay: number;
}

/** Adds fuel lines into a sum per consumer and fuel type (a leg's, a voyage's, a period's). */
export function addFuelLines(sum: Map<string, LegFuel>, lines: readonly LegFuel[]): void {
  for (const f of lines) {
    const key = `${f.consumer}|${f.fuelType}`;
    const entry = sum.get(key) ?? { consumer: f.consumer, fuelType: f.fuelType, kg: 0, kgNotUnderWay: 0 };
    entry.kg += f.kg;
    entry.kgNotUnderWay += f.kgNotUnderWay;
    sum.set(key, entry);
  }
}

export interface Leg {
  kind: 'stay' | 'voyage';
  /** UTC epoch ms, cut to the period. */
  start: number;
  end: number;
  /** A stay's call. */
  call: PortCall | null;
  /** A voyage's departure call and arrival call; null outside the data (before the first call, after the last). */
  fromCall: PortCall | null;
  toCall: PortCall | null;
  distanceNm: number;
  hoursUnderWay: number;
  hoursNotUnderWay: number;
  /** Hours of the leg without a fix on either side (before the first fix or after the last of the series). */
  hoursWithoutPosition: number;
  fuel: LegFuel[];
  /** Per flow channel id: hours of the leg that give no fuel value (fewer than 30 samples in the hour, or none). */
  hoursWithoutFuelData: Record<string, number>;
}

export interface LedgerInput {
  track: Track;
  /** Port calls in time order (derivePortCalls), also those before and after the period. */
  calls: readonly PortCall[];
  channels: readonly FlowChannel[];
  /** The period, UTC epoch ms: whole UTC hours, `to` exclusive. */
  from: number;
  to: number;
  stopSpeedKn?: number;
  minSamplesPerHour?: number;
  /**
   * Times (UTC epoch ms) to cut the legs at besides the calls, e.g. every UTC midnight: a leg across one is two legs
   * of the same kind and calls, and a track leg across one is split in proportion to the time on each side, as at
   * the period's ends, so the legs of [from, to) cut at midnights are the legs of each day's ledger.
   */
  cuts?: readonly number[];
}

const FUEL_SLOTS: readonly FuelTypeOrUnknown[] = [...FUEL_TYPES, 'UNKNOWN'];

function emptyLeg(
  kind: Leg['kind'],
  start: number,
  end: number,
  call: PortCall | null,
  fromCall: PortCall | null,
  toCall: PortCall | null,
): Leg {
  return {
    kind,
    start,
    end,
    call,
    fromCall,
    toCall,
    distanceNm: 0,
    hoursUnderWay: 0,
    hoursNotUnderWay: 0,
    hoursWithoutPosition: 0,
    fuel: [],
    hoursWithoutFuelData: {},
  };
}

/** The stays and voyages covering [from, to), in time order, each cut at the `cuts` inside it. */
export function cutIntoLegs(
  calls: readonly PortCall[],
  from: number,
  to: number,
  cuts: readonly number[] = [],
): Leg[] {
  const legs = legsOfCalls(calls, from, to);
  if (cuts.length === 0) return legs;
  const sorted = [...cuts].sort((a, b) => a - b);
  const out: Leg[] = [];
  let c = 0;
  for (const leg of legs) {
    while (c < sorted.length && sorted[c]! <= leg.start) c++;
    let start = leg.start;
    for (let k = c; k < sorted.length && sorted[k]! < leg.end; k++) {
      out.push(emptyLeg(leg.kind, start, sorted[k]!, leg.call, leg.fromCall, leg.toCall));
      start = sorted[k]!;
    }
    out.push(emptyLeg(leg.kind, start, leg.end, leg.call, leg.fromCall, leg.toCall));
  }
  return out;
}

function legsOfCalls(calls: readonly PortCall[], from: number, to: number): Leg[] {
  const legs: Leg[] = [];
  const sorted = [...calls].sort((a, b) => a.arrival - b.arrival);
  let cursor = from;
  let previous: PortCall | null = null;
  let next: PortCall | null = null;
  for (const call of sorted) {
    if (call.departure <= from) {
      previous = call;
      continue;
    }
    if (call.arrival >= to) {
      next = call;
      break;
    }
    if (call.arrival > cursor) legs.push(emptyLeg('voyage', cursor, call.arrival, null, previous, call));
    const end = Math.min(call.departure, to);
    legs.push(emptyLeg('stay', Math.max(call.arrival, from), end, call, null, null));
    cursor = end;
    previous = call;
  }
  if (cursor < to) legs.push(emptyLeg('voyage', cursor, to, null, previous, next));
  return legs;
}

/** Index of the leg holding time `x` (the first leg ending at or after it). */
function legAt(legs: readonly Leg[], x: number): number {
  let lo = 0;
  let hi = legs.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (legs[mid]!.end >= x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function buildLedger(input: LedgerInput): Leg[] {
  const { track, from, to } = input;
  const stopSpeedKn = input.stopSpeedKn ?? 1;
  const legs = cutIntoLegs(input.calls, from, to, input.cuts);
  if (legs.length === 0) return legs;
  // A time at a cut belongs to the leg after it, as a period's start belongs to the period (and a call's arrival to
  // the voyage before it: a time belongs to the leg that ends at or after it).
  const cutAt = new Set(input.cuts ?? []);
  const endsAtCut = Uint8Array.from(legs, (leg) => (cutAt.has(leg.end) ? 1 : 0));

  // Distance and hours: each track leg (fix k-1 to fix k) cut to the period and to the legs it lies in, in proportion
  // to the time in each (the calls' bounds are fix times, so only a cut splits a track leg).
  const covered = new Float64Array(legs.length);
  for (let k = 1; k < track.t.length; k++) {
    const t0 = track.t[k - 1]!;
    const t1 = track.t[k]!;
    const from0 = Math.max(t0, from);
    const to1 = Math.min(t1, to);
    if (!(to1 > from0)) continue;
    for (let i = legAt(legs, from0); i < legs.length && legs[i]!.start < to1; i++) {
      const leg = legs[i]!;
      const a = Math.max(from0, leg.start);
      const b = Math.min(to1, leg.end);
      if (!(b > a)) continue;
      const part = (b - a) / (t1 - t0);
      const hours = (b - a) / HOUR_MS;
      covered[i]! += hours;
      if (track.legUnderWay[k] === 1) {
        leg.distanceNm += track.legNm[k]! * part;
        leg.hoursUnderWay += hours;
      } else leg.hoursNotUnderWay += hours;
    }
  }
  legs.forEach((leg, i) => {
    leg.hoursWithoutPosition = Math.max(0, (leg.end - leg.start) / HOUR_MS - covered[i]!);
  });

  // Fuel: each sample's share of its hour, to the leg holding the sample. One pass per channel in time order, with
  // pointers into the legs and the track (a ship-year is half a million samples per channel).
  const buckets = legs.map(() => new Map<string, LegFuel>());
  const slots = FUEL_SLOTS.length;
  const m = track.t.length;
  for (const channel of input.channels) {
    const { timestamps, values } = channel.series;
    const { share, coveredHours } = hourlyShares(
      channel.series,
      input.minSamplesPerHour ?? MIN_SAMPLES_PER_HOUR,
    );
    const types = fuelTypesAt(channel.fuel, timestamps);
    const kg = new Float64Array(legs.length * slots);
    const kgStopped = new Float64Array(legs.length * slots);
    const used = new Uint8Array(legs.length * slots);
    let li = 0;
    let k = 0;
    for (let s = 0; s < timestamps.length; s++) {
      const t = timestamps[s]!;
      if (t < from || t >= to || share[s] === 0) continue;
      while (legs[li]!.end < t || (endsAtCut[li] === 1 && legs[li]!.end === t)) li++;
      while (k < m && track.t[k]! < t) k++;
      // Under way at t: the track leg ending at the first fix at or after t; before the first fix or after the
      // last, that fix's speed (underWayAt).
      const underWay =
        m === 0
          ? false
          : k === 0
            ? track.speed[0]! >= stopSpeedKn
            : k === m
              ? track.speed[m - 1]! >= stopSpeedKn
              : track.legUnderWay[k] === 1;
      const slot = li * slots + FUEL_SLOTS.indexOf(types[s]!);
      const amount = values[s]! * share[s]!;
      kg[slot]! += amount;
      if (!underWay) kgStopped[slot]! += amount;
      used[slot] = 1;
    }
    for (let i = 0; i < legs.length; i++)
      for (let f = 0; f < slots; f++) {
        const slot = i * slots + f;
        if (!used[slot]) continue;
        const fuelType = FUEL_SLOTS[f]!;
        const key = `${channel.consumer}|${fuelType}`;
        const bucket = buckets[i]!;
        const entry = bucket.get(key) ?? { consumer: channel.consumer, fuelType, kg: 0, kgNotUnderWay: 0 };
        entry.kg += kg[slot]!;
        entry.kgNotUnderWay += kgStopped[slot]!;
        bucket.set(key, entry);
      }
    // The hours of the period that give no value, cut by the legs.
    const coveredSet = new Set(coveredHours);
    for (const leg of legs) leg.hoursWithoutFuelData[channel.id] = 0;
    for (let h = Math.floor(from / HOUR_MS) * HOUR_MS; h < to; h += HOUR_MS) {
      if (coveredSet.has(h)) continue;
      const a = Math.max(h, from);
      const b = Math.min(h + HOUR_MS, to);
      for (let i = legAt(legs, a); i < legs.length && legs[i]!.start < b; i++) {
        const leg = legs[i]!;
        const overlap = Math.min(b, leg.end) - Math.max(a, leg.start);
        if (overlap > 0) leg.hoursWithoutFuelData[channel.id]! += overlap / HOUR_MS;
      }
    }
  }
  legs.forEach((leg, i) => {
    leg.fuel = [...buckets[i]!.values()];
  });
  return legs;
}

export interface LedgerTotals {
  distanceNm: number;
  hoursUnderWay: number;
  hoursNotUnderWay: number;
  hoursWithoutPosition: number;
  /** kg per consumer and fuel type, summed over the legs. */
  fuel: LegFuel[];
  hoursWithoutFuelData: Record<string, number>;
}

export function sumLegs(legs: readonly Leg[]): LedgerTotals {
  const fuel = new Map<string, LegFuel>();
  const gaps: Record<string, number> = {};
  const totals: LedgerTotals = {
    distanceNm: 0,
    hoursUnderWay: 0,
    hoursNotUnderWay: 0,
    hoursWithoutPosition: 0,
    fuel: [],
    hoursWithoutFuelData: gaps,
  };
  for (const leg of legs) {
    totals.distanceNm += leg.distanceNm;
    totals.hoursUnderWay += leg.hoursUnderWay;
    totals.hoursNotUnderWay += leg.hoursNotUnderWay;
    totals.hoursWithoutPosition += leg.hoursWithoutPosition;
    addFuelLines(fuel, leg.fuel);
    for (const [id, hours] of Object.entries(leg.hoursWithoutFuelData)) gaps[id] = (gaps[id] ?? 0) + hours;
  }
  totals.fuel = [...fuel.values()];
  return totals;
}
