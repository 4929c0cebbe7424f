import {
  addFuelLines,
  buildLedger,
  CONSUMERS,
  FUEL_TYPES,
  IMO_FUELS,
  type FlowChannel,
  type FuelTypeOrUnknown,
  type LegFuel,
  type PortCall,
  type Track,
} from '@portal/contracts/rules/carbon';

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

const SLOTS: readonly FuelTypeOrUnknown[] = [...FUEL_TYPES, 'UNKNOWN'];
const fuelOrder = (f: LegFuel) => CONSUMERS.indexOf(f.consumer) * SLOTS.length + SLOTS.indexOf(f.fuelType);

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
  /** The flows over the days, on the positions' targets. */
  channels: readonly FlowChannel[];
  /** SCRUBBER_FUEL as a flow channel burning the auxiliary engines' fuel, or null without it. */
  scrubber: FlowChannel | null;
  /** Whole UTC days [from, to). */
  from: number;
  to: number;
  /** The ship's data: nothing is derived before the hour of its first sample or after the hour of its last. */
  dataFrom: number;
  dataTo: number;
}

/**
 * The pieces of the days [from, to) within the ship's data, in time order: one ledger of the whole range with its
 * legs cut at every UTC midnight (the rules' `cuts`), which are the legs of each day's ledger (rules/carbon/ledger.ts,
 * tested there and below), so some days' pieces derived again are those of the whole.
 */
export function ledgerSegments(input: SegmentInput): LedgerSegment[] {
  const from = Math.max(input.from, Math.floor(input.dataFrom / HOUR_MS) * HOUR_MS);
  const to = Math.min(input.to, Math.floor(input.dataTo / HOUR_MS) * HOUR_MS + HOUR_MS);
  if (from >= to) return [];
  const cuts: number[] = [];
  for (let day = Math.floor(from / DAY_MS) * DAY_MS + DAY_MS; day < to; day += DAY_MS) cuts.push(day);
  const { track, calls } = input;
  const legs = buildLedger({ track, calls, channels: input.channels, from, to, cuts });
  const scrubberLegs = input.scrubber
    ? buildLedger({ track, calls, channels: [input.scrubber], from, to, cuts })
    : [];
  const out: LedgerSegment[] = [];
  legs.forEach((leg, i) => {
    if (leg.end <= leg.start) return;
    const fuel = [...leg.fuel].sort((a, b) => fuelOrder(a) - fuelOrder(b));
    const { co2g, unknownKg } = co2Of(fuel);
    const scrubberFuel = scrubberLegs[i]?.fuel ?? [];
    out.push({
      start: leg.start,
      end: leg.end,
      day: Math.floor(leg.start / DAY_MS) * DAY_MS,
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
    addFuelLines(fuel, s.fuel);
    for (const [id, hours] of Object.entries(s.hoursWithoutFuelData))
      totals.hoursWithoutFuelData[id] = (totals.hoursWithoutFuelData[id] ?? 0) + hours;
  }
  totals.fuel = [...fuel.values()].sort((a, b) => fuelOrder(a) - fuelOrder(b));
  return totals;
}
