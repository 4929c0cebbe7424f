import { IMO_FUELS, type FuelType } from './fuels';

/**
 * The operational carbon intensity indicator (MARPOL Annex VI regulation 28): attained (G1, MEPC.352(78)), the
 * reference lines (G2, MEPC.353(78)), the reduction factors Z (G3, MEPC.338(76) as amended by MEPC.400(83)) and the
 * rating boundaries (G4, MEPC.354(78)). The correction factors and voyage adjustments of G5 (MEPC.355(78)) are not
 * applied (docs/decisions/0107-carbon-ledger-rules.md).
 */

export const CII_SHIP_TYPES = [
  'BULK_CARRIER',
  'TANKER',
  'CONTAINER_SHIP',
  'GENERAL_CARGO_SHIP',
  'CRUISE_PASSENGER_SHIP',
] as const;
export type CiiShipType = (typeof CII_SHIP_TYPES)[number];

export const CII_SHIP_TYPE_NAMES: Record<CiiShipType, string> = {
  BULK_CARRIER: 'Bulk carrier',
  TANKER: 'Tanker',
  CONTAINER_SHIP: 'Container ship',
  GENERAL_CARGO_SHIP: 'General cargo ship',
  CRUISE_PASSENGER_SHIP: 'Cruise passenger ship',
};

export interface ShipCapacityData {
  shipType: CiiShipType;
  /** Deadweight, tonnes. */
  dwt: number | null;
  /** Gross tonnage. */
  gt: number | null;
}

/**
 * The capacity of the attained CII (G1, MEPC.352(78) paragraph 4 / Table 1: DWT for bulk carriers, tankers, container
 * and general cargo ships; GT for cruise passenger ships). Null when the tonnage it needs is not known.
 */
export function attainedCapacity(ship: ShipCapacityData): number | null {
  const value = ship.shipType === 'CRUISE_PASSENGER_SHIP' ? ship.gt : ship.dwt;
  return value !== null && value > 0 ? value : null;
}

/**
 * Reference line CII_ref = a x Capacity^-c: MEPC.353(78) (2022 G2 guidelines, adopted 2022-06-10, from calendar
 * year 2023), Table 1. Bulk carrier: capacity 279,000 for DWT of 279,000 and above, else DWT; a 4745, c 0.622.
 * Tanker: DWT, 5247, 0.610. Container ship: DWT, 1984, 0.489. General cargo ship: 20,000 DWT and above 31948,
 * 0.792; below 588, 0.3885. Checked: bulk carrier (4745, 0.622, 279,000) against two independent implementations
 * citing G2 Table 1; tanker, container and general cargo NOT VERIFIED against the resolution's text here (DOMAIN.md's
 * values; one third-party page gives general cargo c 0.793, which DOMAIN.md's 0.792 is kept against). Cruise
 * passenger ship: GT, a 930, c 0.383 from MEPC.353(78) Table 1 as remembered; NOT VERIFIED (DOMAIN.md gives only its
 * rating boundaries).
 */
export function referenceCii(ship: ShipCapacityData): number | null {
  switch (ship.shipType) {
    case 'BULK_CARRIER':
      return ship.dwt && ship.dwt > 0 ? 4745 * Math.min(ship.dwt, 279_000) ** -0.622 : null;
    case 'TANKER':
      return ship.dwt && ship.dwt > 0 ? 5247 * ship.dwt ** -0.61 : null;
    case 'CONTAINER_SHIP':
      return ship.dwt && ship.dwt > 0 ? 1984 * ship.dwt ** -0.489 : null;
    case 'GENERAL_CARGO_SHIP':
      if (!ship.dwt || ship.dwt <= 0) return null;
      return ship.dwt >= 20_000 ? 31948 * ship.dwt ** -0.792 : 588 * ship.dwt ** -0.3885;
    case 'CRUISE_PASSENGER_SHIP':
      return ship.gt && ship.gt > 0 ? 930 * ship.gt ** -0.383 : null;
  }
}

/**
 * Z, the reduction (%) of the required CII below the 2019 reference line, per year: 2023-2026 MEPC.338(76) (G3,
 * adopted 2021-06-17) Table 1: 5, 7, 9, 11; 2027-2030 MEPC.400(83) (adopted 2025-04, amending G3): 13.625, 16.25,
 * 18.875, 21.5. Checked: 2027-2030 against Lloyd's Register's note on MEPC.400(83) (table of Z 2027-2030);
 * 2023-2026 against a page citing MEPC.338(76) and a note on G3 ("2 % per year to 2026").
 */
export const CII_REDUCTION_FACTORS: Readonly<Record<number, number>> = {
  2023: 5,
  2024: 7,
  2025: 9,
  2026: 11,
  2027: 13.625,
  2028: 16.25,
  2029: 18.875,
  2030: 21.5,
};

/** Z of the year, or null where no instrument sets one (before 2023, after 2030). */
export function reductionFactor(year: number): number | null {
  return CII_REDUCTION_FACTORS[year] ?? null;
}

/**
 * The rating boundaries as ratios attained / required: exp(d1)..exp(d4) of MEPC.354(78) (G4, adopted 2022-06-10),
 * Table 1 ("dd vectors after exponential transformation"), as DOMAIN.md lists them. Checked: bulk carrier and general
 * cargo ship against independent pages citing the G4 table; tanker, container and cruise NOT VERIFIED against the
 * resolution's text here.
 */
export const CII_RATING_BOUNDARIES: Record<CiiShipType, readonly [number, number, number, number]> = {
  BULK_CARRIER: [0.86, 0.94, 1.06, 1.18],
  TANKER: [0.82, 0.93, 1.08, 1.28],
  CONTAINER_SHIP: [0.83, 0.94, 1.07, 1.19],
  GENERAL_CARGO_SHIP: [0.83, 0.94, 1.06, 1.19],
  CRUISE_PASSENGER_SHIP: [0.87, 0.95, 1.06, 1.16],
};

export const CII_RATINGS = ['A', 'B', 'C', 'D', 'E'] as const;
export type CiiRating = (typeof CII_RATINGS)[number];

/** G4: A below the superior boundary, B below the lower, C below the upper, D below the inferior, else E. */
export function ciiRating(shipType: CiiShipType, attained: number, required: number): CiiRating {
  const ratio = attained / required;
  const [d1, d2, d3, d4] = CII_RATING_BOUNDARIES[shipType];
  if (ratio < d1) return 'A';
  if (ratio < d2) return 'B';
  if (ratio < d3) return 'C';
  if (ratio < d4) return 'D';
  return 'E';
}

/** Required CII of the year: (1 - Z/100) x CII_ref (regulation 28.4); null without Z or a reference. */
export function requiredCii(ship: ShipCapacityData, year: number): number | null {
  const z = reductionFactor(year);
  const ref = referenceCii(ship);
  return z === null || ref === null ? null : (1 - z / 100) * ref;
}

/** Fuel burnt, tonnes per fuel type (the DCS figures). */
export type FuelTonnes = Partial<Record<FuelType, number>>;

/** g CO2 from the fuel under the IMO's Cf (MEPC.364(79)). */
export function co2Grams(fuel: FuelTonnes): number {
  let grams = 0;
  for (const [type, tonnes] of Object.entries(fuel) as [FuelType, number][])
    grams += tonnes * 1e6 * IMO_FUELS[type].cf;
  return grams;
}

/** Attained CII = sum(FC_j x Cf_j) / (capacity x distance), g CO2 per capacity-nm (G1); null without distance. */
export function attainedCii(co2g: number, capacity: number, distanceNm: number): number | null {
  return capacity > 0 && distanceNm > 0 ? co2g / (capacity * distanceNm) : null;
}

/** Absolute rating boundaries of a year (g CO2 per capacity-nm), for a gauge with its bands. */
export function ratingBoundaryValues(
  shipType: CiiShipType,
  required: number,
): [number, number, number, number] {
  const [d1, d2, d3, d4] = CII_RATING_BOUNDARIES[shipType];
  return [d1 * required, d2 * required, d3 * required, d4 * required];
}

/** Regulation 28.7-28.8: rated D three consecutive years, or E once, the ship needs a corrective action plan (SEEMP part III). */
export function correctiveActionRequired(
  ratingsByYear: Readonly<Record<number, CiiRating>>,
  year: number,
): boolean {
  if (ratingsByYear[year] === 'E') return true;
  return [year, year - 1, year - 2].every((y) => ratingsByYear[y] === 'D');
}

/** A day's (or any span's) CO2 and distance: the input of the year-to-date and the projection. */
export interface CiiDay {
  /** UTC epoch ms of the day's start. */
  day: number;
  co2g: number;
  distanceNm: number;
}

/** How many days before the last one the trend of the projection looks at. */
export const CII_TREND_DAYS = 90;

export interface CiiYear {
  year: number;
  z: number | null;
  reference: number | null;
  required: number | null;
  /** exp(d1)..exp(d4) x required. */
  boundaries: [number, number, number, number] | null;
  /** Year to date: the sums of the days given. */
  co2g: number;
  distanceNm: number;
  attained: number | null;
  rating: CiiRating | null;
  /** Year end, if the ship goes on as in the trailing trend window (the last CII_TREND_DAYS days of data). */
  projectedCo2g: number | null;
  projectedDistanceNm: number | null;
  projectedAttained: number | null;
  projectedRating: CiiRating | null;
  /** The part of the attained value due to the scrubber's power (g CO2 per capacity-nm) and its share of it. */
  scrubberPart: number | null;
  scrubberShare: number | null;
}

export interface CiiYearInput {
  ship: ShipCapacityData;
  year: number;
  /** The year's days with data, in order (CO2 from the fuel, distance over ground). */
  days: readonly CiiDay[];
  /** UTC epoch ms the year to date ends at (exclusive): the projection covers the rest of the year from here. */
  asOf: number;
  /**
   * g CO2 from the fuel the scrubber's power takes over the same days: the SCRUBBER_FUEL series (the SFOC-impact KPI's
   * numerator) integrated like the flow meters (integrateKg) times the Cf of the fuel its generators burn. Hour by
   * hour it is the SFOC impact % x the hour's fuel; it is part of the attained value when the auxiliary engines that
   * make that power are metered (docs/decisions/0107-carbon-ledger-rules.md).
   */
  scrubberCo2g?: number;
}

const DAY_MS = 86_400_000;

/**
 * A year's CII: attained to date, required with the year's Z, rating, and the projection to year end. The projection
 * extrapolates CO2 and distance separately at their rates over the trailing window (the last CII_TREND_DAYS days, or
 * all days when fewer) and rates the ratio of the projected sums, not a fit of the daily CII values (a ratio of sums
 * is what the regulation rates; daily ratios swing with port days).
 */
export function ciiForYear(input: CiiYearInput): CiiYear {
  const { ship, year, days } = input;
  const capacity = attainedCapacity(ship);
  const z = reductionFactor(year);
  const reference = referenceCii(ship);
  const required = requiredCii(ship, year);
  const co2g = days.reduce((s, d) => s + d.co2g, 0);
  const distanceNm = days.reduce((s, d) => s + d.distanceNm, 0);
  const attained = capacity === null ? null : attainedCii(co2g, capacity, distanceNm);
  const rate = (value: number | null) =>
    value === null || required === null ? null : ciiRating(ship.shipType, value, required);

  const yearEnd = Date.UTC(year + 1, 0, 1);
  const asOf = Math.min(Math.max(input.asOf, Date.UTC(year, 0, 1)), yearEnd);
  const remainingDays = (yearEnd - asOf) / DAY_MS;
  let projectedCo2g: number | null = null;
  let projectedDistanceNm: number | null = null;
  if (days.length > 0) {
    const windowStart = Math.max(days[0]!.day, asOf - CII_TREND_DAYS * DAY_MS);
    const recent = days.filter((d) => d.day >= windowStart && d.day < asOf);
    const spanDays = Math.max(1, (asOf - windowStart) / DAY_MS);
    projectedCo2g = co2g + (recent.reduce((s, d) => s + d.co2g, 0) / spanDays) * remainingDays;
    projectedDistanceNm =
      distanceNm + (recent.reduce((s, d) => s + d.distanceNm, 0) / spanDays) * remainingDays;
  }
  const projectedAttained =
    capacity === null || projectedCo2g === null || projectedDistanceNm === null
      ? null
      : attainedCii(projectedCo2g, capacity, projectedDistanceNm);
  const scrubberPart =
    capacity === null || input.scrubberCo2g === undefined
      ? null
      : attainedCii(input.scrubberCo2g, capacity, distanceNm);
  return {
    year,
    z,
    reference,
    required,
    boundaries: required === null ? null : ratingBoundaryValues(ship.shipType, required),
    co2g,
    distanceNm,
    attained,
    rating: rate(attained),
    projectedCo2g,
    projectedDistanceNm,
    projectedAttained,
    projectedRating: rate(projectedAttained),
    scrubberPart,
    scrubberShare: scrubberPart !== null && attained ? scrubberPart / attained : null,
  };
}

export interface CiiTrajectoryYear {
  year: number;
  z: number;
  required: number;
  boundaries: [number, number, number, number];
  /** The attained value carried forward (this year's projection: no improvement assumed). */
  attained: number | null;
  rating: CiiRating | null;
}

/** The required line and its bands for `fromYear`..2030, and the rating if the attained value stayed as it is. */
export function ciiTrajectory(
  ship: ShipCapacityData,
  attained: number | null,
  fromYear = 2026,
  toYear = 2030,
): CiiTrajectoryYear[] {
  const out: CiiTrajectoryYear[] = [];
  for (let year = fromYear; year <= toYear; year++) {
    const z = reductionFactor(year);
    const required = requiredCii(ship, year);
    if (z === null || required === null) continue;
    out.push({
      year,
      z,
      required,
      boundaries: ratingBoundaryValues(ship.shipType, required),
      attained,
      rating: attained === null ? null : ciiRating(ship.shipType, attained, required),
    });
  }
  return out;
}
