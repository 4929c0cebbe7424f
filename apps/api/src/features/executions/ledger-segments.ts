import {
  buildLedger,
  CONSUMERS,
  FUEL_TYPES,
  fuelTypesAt,
  IMO_FUELS,
  type FlowChannel,
  type FuelTypeOrUnknown,
  type LegFuel,
  type PortCall,
  type Track,
} from '@portal/contracts/rules/carbon';
import { lowerBound } from '../../storage';

/**
 * The carbon ledger's pieces of time (docs/decisions/0111-carbon-ledger-engine.md): a ship's time cut at each UTC
 * midnight and at its port calls' arrivals and departures, each piece a stay at berth or part of a voyage, with what
 * the ledger's rules (packages/contracts/src/rules/carbon/ledger.ts, buildLedger) give for it. The rules add up
 * exactly over periods (a track leg across a midnight is split in proportion to the time on each side; fuel is each
 * sample's share of its hour, and hours do not cross midnights), so a voyage, a stay, a year or any whole days are
 * sums of these pieces, and re-deriving some days gives the same pieces as deriving everything.
 */

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface LedgerSegment {
  /** UTC epoch ms; the piece's start is its key within the ship. */
  start: number;
  end: number;
  /** Start of the UTC day that holds the piece. */
  day: number;
  kind: 'stay' | 'voyage';
  distanceNm: number;
  hoursUnderWay: number;
  hoursNotUnderWay: number;
  hoursWithoutPosition: number;
  /** Per consumer and fuel type, in the order of CONSUMERS then FUEL_TYPES (UNKNOWN last). */
  fuel: LegFuel[];
  /** Per flow channel id: hours without fuel data. */
  hoursWithoutFuelData: Record<string, number>;
  /** g CO2 of the fuel of known type, under the IMO's Cf (MEPC.364(79)). */
  co2g: number;
  /** kg of fuel whose type is not known (no Cf: not in co2g). */
  unknownFuelKg: number;
  /** The fuel the scrubber's power takes (SCRUBBER_FUEL integrated like a flow meter) and its CO2. */
  scrubberKg: number;
  scrubberCo2g: number;
}

/** A flow channel with the fuel type of each of its samples resolved once for the whole window. */
export interface ResolvedFlowChannel {
  id: string;
  consumer: FlowChannel['consumer'];
  timestamps: Float64Array;
  values: Float64Array;
  fuelTypes: FuelTypeOrUnknown[];
}

/** Resolves a flow channel's fuel types over its whole series (the rules' fuelTypesAt, once). */
export function resolveFlowChannel(channel: FlowChannel): ResolvedFlowChannel {
  const timestamps = Float64Array.from(channel.series.timestamps);
  return {
    id: channel.id,
    consumer: channel.consumer,
    timestamps,
    values: Float64Array.from(channel.series.values),
    fuelTypes: fuelTypesAt(channel.fuel, timestamps),
  };
}

const SLOTS: readonly FuelTypeOrUnknown[] = [...FUEL_TYPES, 'UNKNOWN'];
const fuelOrder = (f: LegFuel) => CONSUMERS.indexOf(f.consumer) * SLOTS.length + SLOTS.indexOf(f.fuelType);

/** The channel's samples in [from, to), its fuel types as the steps of a fuel-type series (codes into FUEL_TYPES). */
function sliceChannel(channel: ResolvedFlowChannel, from: number, to: number): FlowChannel {
  const lo = lowerBound(channel.timestamps, from);
  const hi = lowerBound(channel.timestamps, to);
  const at: number[] = [];
  const codes: number[] = [];
  for (let i = lo; i < hi; i++)
    if (i === lo || channel.fuelTypes[i] !== channel.fuelTypes[i - 1]) {
      at.push(channel.timestamps[i]!);
      // -1 is no fuel of FUEL_TYPES: UNKNOWN, as the rules read an invalid code.
      codes.push(FUEL_TYPES.indexOf(channel.fuelTypes[i] as (typeof FUEL_TYPES)[number]));
    }
  return {
    id: channel.id,
    consumer: channel.consumer,
    fuel: { kind: 'series', timestamps: at, values: codes },
    series: {
      timestamps: channel.timestamps.subarray(lo, hi),
      values: channel.values.subarray(lo, hi),
    },
  };
}

/** The fixes a day's ledger needs: those inside [from, to) and the one on each side. */
function sliceTrack(track: Track, from: number, to: number): Track {
  const lo = Math.max(0, lowerBound(track.t, from) - 1);
  const hi = Math.min(track.t.length, lowerBound(track.t, to) + 1);
  return {
    t: track.t.subarray(lo, hi),
    lat: track.lat.subarray(lo, hi),
    lon: track.lon.subarray(lo, hi),
    speed: track.speed.subarray(lo, hi),
    legNm: track.legNm.subarray(lo, hi),
    legUnderWay: track.legUnderWay.subarray(lo, hi),
    legGap: track.legGap.subarray(lo, hi),
  };
}

const co2Of = (fuel: readonly LegFuel[]) => {
  let co2g = 0;
  let unknownKg = 0;
  for (const f of fuel) {
    if (f.fuelType === 'UNKNOWN') unknownKg += f.kg;
    else co2g += f.kg * 1000 * IMO_FUELS[f.fuelType].cf;
  }
  return { co2g, unknownKg };
};

export interface SegmentInput {
  track: Track;
  /** The port calls over the days (and any reaching into them), in time order. */
  calls: readonly PortCall[];
  channels: readonly ResolvedFlowChannel[];
  /** SCRUBBER_FUEL as a flow channel burning the auxiliary engines' fuel, or null without it. */
  scrubber: ResolvedFlowChannel | null;
  /** Whole UTC days [from, to). */
  from: number;
  to: number;
  /** The ship's data: nothing is derived before the hour of its first sample or after the hour of its last. */
  dataFrom: number;
  dataTo: number;
}

/** The pieces of the days [from, to) within the ship's data, in time order. */
export function ledgerSegments(input: SegmentInput): LedgerSegment[] {
  const out: LedgerSegment[] = [];
  const first = Math.floor(input.dataFrom / HOUR_MS) * HOUR_MS;
  const last = Math.floor(input.dataTo / HOUR_MS) * HOUR_MS + HOUR_MS;
  for (let day = input.from; day < input.to; day += DAY_MS) {
    const from = Math.max(day, first);
    const to = Math.min(day + DAY_MS, last);
    if (from >= to) continue;
    const track = sliceTrack(input.track, from, to);
    const calls = input.calls.filter((c) => c.departure > from - DAY_MS && c.arrival < to + DAY_MS);
    const legs = buildLedger({
      track,
      calls,
      channels: input.channels.map((c) => sliceChannel(c, from, to)),
      from,
      to,
    });
    const scrubberLegs = input.scrubber
      ? buildLedger({ track, calls, channels: [sliceChannel(input.scrubber, from, to)], from, to })
      : [];
    legs.forEach((leg, i) => {
      if (leg.end <= leg.start) return;
      const fuel = [...leg.fuel].sort((a, b) => fuelOrder(a) - fuelOrder(b));
      const { co2g, unknownKg } = co2Of(fuel);
      const scrubberFuel = scrubberLegs[i]?.fuel ?? [];
      out.push({
        start: leg.start,
        end: leg.end,
        day,
        kind: leg.kind,
        distanceNm: leg.distanceNm,
        hoursUnderWay: leg.hoursUnderWay,
        hoursNotUnderWay: leg.hoursNotUnderWay,
        hoursWithoutPosition: leg.hoursWithoutPosition,
        fuel,
        hoursWithoutFuelData: leg.hoursWithoutFuelData,
        co2g,
        unknownFuelKg: unknownKg,
        scrubberKg: scrubberFuel.reduce((s, f) => s + f.kg, 0),
        scrubberCo2g: co2Of(scrubberFuel).co2g,
      });
    });
  }
  return out;
}

/** Sums of pieces: a voyage's, a stay's, a period's. */
export interface SegmentTotals {
  distanceNm: number;
  hoursUnderWay: number;
  hoursNotUnderWay: number;
  hoursWithoutPosition: number;
  fuel: LegFuel[];
  hoursWithoutFuelData: Record<string, number>;
  co2g: number;
  unknownFuelKg: number;
  scrubberKg: number;
  scrubberCo2g: number;
}

export function sumSegments(
  segments: readonly Omit<LedgerSegment, 'start' | 'end' | 'day' | 'kind'>[],
): SegmentTotals {
  const fuel = new Map<string, LegFuel>();
  const totals: SegmentTotals = {
    distanceNm: 0,
    hoursUnderWay: 0,
    hoursNotUnderWay: 0,
    hoursWithoutPosition: 0,
    fuel: [],
    hoursWithoutFuelData: {},
    co2g: 0,
    unknownFuelKg: 0,
    scrubberKg: 0,
    scrubberCo2g: 0,
  };
  for (const s of segments) {
    totals.distanceNm += s.distanceNm;
    totals.hoursUnderWay += s.hoursUnderWay;
    totals.hoursNotUnderWay += s.hoursNotUnderWay;
    totals.hoursWithoutPosition += s.hoursWithoutPosition;
    totals.co2g += s.co2g;
    totals.unknownFuelKg += s.unknownFuelKg;
    totals.scrubberKg += s.scrubberKg;
    totals.scrubberCo2g += s.scrubberCo2g;
    for (const f of s.fuel) {
      const key = `${f.consumer}|${f.fuelType}`;
      const entry = fuel.get(key) ?? { consumer: f.consumer, fuelType: f.fuelType, kg: 0, kgNotUnderWay: 0 };
      entry.kg += f.kg;
      entry.kgNotUnderWay += f.kgNotUnderWay;
      fuel.set(key, entry);
    }
    for (const [id, hours] of Object.entries(s.hoursWithoutFuelData))
      totals.hoursWithoutFuelData[id] = (totals.hoursWithoutFuelData[id] ?? 0) + hours;
  }
  totals.fuel = [...fuel.values()].sort((a, b) => fuelOrder(a) - fuelOrder(b));
  return totals;
}
