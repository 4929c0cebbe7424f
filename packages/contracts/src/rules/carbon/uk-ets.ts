import { FUEL_TYPES, greenhouseGases, UK_ETS_FUEL_TABLE, type FuelType } from './fuels';
import type { LegFuel } from './ledger';

/**
 * UK ETS maritime (../shared/DOMAIN.md "UK ETS maritime"; docs/decisions/0114-uk-ets-and-ovd.md): which of a
 * ship's voyages and stays at berth the scheme covers, and the emissions it counts for them. The instrument is The
 * Greenhouse Gas Emissions Trading Scheme (Amendment) (Extension to Maritime Activities) Order 2026 (SI 2026/392),
 * which inserts Part 4ZA and Schedule 2A into The Greenhouse Gas Emissions Trading Scheme Order 2020
 * (SI 2020/1265). The Order's own text could not be read here (not in the stores the search tool reaches); each
 * constant says what it was checked against.
 */

/**
 * The first day whose emissions count (inclusive, UTC): 1 July 2026, the Order's commencement for maritime
 * activities. Checked (all secondary to the Order's text): the Scottish Parliament Net Zero, Energy and Transport
 * Committee's report on the draft Order ("will expand the UK ETS to the maritime sector from 1 July 2026"), the
 * regulator's METS API, whose annual emissions report endpoint "will be available from 1 July 2026"
 * (ukets-maritime, uk-maritime-ext-openapi-4.0.0.json, operation submitAerData), and legalregister.co.uk's synopsis
 * of the Order. Emissions before this day are out of scope whatever the voyage.
 */
export const UK_ETS_MARITIME_START = '2026-07-01';
export const UK_ETS_MARITIME_START_MS = Date.parse(`${UK_ETS_MARITIME_START}T00:00:00Z`);

/**
 * Ships of 5,000 gross tonnage and above (no de minimis on emissions). Checked: the Welsh Government's written
 * statement on the Order (13 January 2026: "vessels of 5000 Gross Tonnage (GT) and above with no de minimis
 * threshold") and the regulator's METS API schema (ExternalAerShipDetails.grossTonnage minimum 5000). The Order's
 * text itself: NOT VERIFIED here.
 */
export const UK_ETS_MIN_GROSS_TONNAGE = 5_000;

/**
 * The share of a voyage between Great Britain and Northern Ireland that counts: 50 %. Checked: the Welsh
 * Government's statement ("a 50% reduction in the UK ETS surrender obligation on routes between Northern Ireland and
 * Great Britain") and the regulator's calculation (ukets-maritime AerVoyageEmissionsCalculator.java and
 * AerAggregatedDataEmissionsCalculator.java: FIFTY_PERCENT applied to voyages of journey type NI, i.e. one end in
 * Great Britain and the other in Northern Ireland; AerPortCodesUtils.getJourneyType: GB-GB and NI-NI count in full).
 */
export const UK_ETS_GB_NI_SHARE = 0.5;

/**
 * Deadlines after each scheme year (1 January - 31 December): the verified annual emissions report by 31 March,
 * allowances surrendered by 30 April. Checked (secondary): Hill Dickinson's note on the UK ETS Authority's interim
 * response ("a reporting deadline of 31 March and surrender deadline of 30 April", the UK ETS's general deadlines
 * chosen over the EU's 30 September) and the Commons committee debate of 3 February 2026 (reports "by March 31 the
 * following year"). For the 2026 emissions the Authority announced one surrender for 2026 and 2027 together, in
 * April 2028 (final policy decisions, November 2025, as reported by the UK Government's news and the trade press):
 * NOT VERIFIED against the Order.
 */
export const UK_ETS_REPORT_DUE = '03-31';
export const UK_ETS_SURRENDER_DUE = '04-30';

/** The gases the scheme covers, tank-to-wake (CO2, CH4 and N2O; the factors are UK_ETS_FUEL_TABLE's). */
export const UK_ETS_GASES = ['CO2', 'CH4', 'N2O'] as const;

/** Where a port is for the UK ETS on the day of the call: Great Britain, Northern Ireland, or outside the UK. */
export type UkPlace = 'GB' | 'NI' | null;

/**
 * The scheme's three parts of a ship's emissions, as the regulator's annual emissions report keeps them apart
 * (METS: etsEmissionsWithinUkPort, etsEmissionsBetweenUkPort, etsEmissionsBetweenUkAndNiPort), or out of scope.
 */
export const UK_ETS_SCOPES = [
  'WITHIN_UK_PORT',
  'BETWEEN_UK_PORTS',
  'BETWEEN_GB_AND_NI',
  'OUT_OF_SCOPE',
] as const;
export type UkEtsScope = (typeof UK_ETS_SCOPES)[number];

export const UK_ETS_SCOPE_NAMES: Record<UkEtsScope, string> = {
  WITHIN_UK_PORT: 'At berth in a UK port (100 %)',
  BETWEEN_UK_PORTS: 'Voyage between two UK ports (100 %)',
  BETWEEN_GB_AND_NI: 'Voyage between Great Britain and Northern Ireland (50 %)',
  OUT_OF_SCOPE: 'Not covered',
};

/** The share of each part that counts towards the allowances to surrender. */
export const UK_ETS_SHARE: Record<UkEtsScope, number> = {
  WITHIN_UK_PORT: 1,
  BETWEEN_UK_PORTS: 1,
  BETWEEN_GB_AND_NI: UK_ETS_GB_NI_SHARE,
  OUT_OF_SCOPE: 0,
};

/**
 * A voyage's part: between two UK ports in the same part of the UK (Great Britain to Great Britain, Northern Ireland
 * to Northern Ireland, and a round trip to the same port) in full; between Great Britain and Northern Ireland at
 * 50 %; a voyage with an end outside the UK, or with an unknown end (before the first call or after the last of the
 * data), is not covered (international voyages are outside the scheme for now).
 */
export function ukVoyageScope(from: UkPlace, to: UkPlace): UkEtsScope {
  if (from === null || to === null) return 'OUT_OF_SCOPE';
  return from === to ? 'BETWEEN_UK_PORTS' : 'BETWEEN_GB_AND_NI';
}

/** A stay's part: every stay at berth in a UK port, whatever the voyages before and after it. */
export function stayScope(place: UkPlace): UkEtsScope {
  return place === null ? 'OUT_OF_SCOPE' : 'WITHIN_UK_PORT';
}

/** Tonnes of each gas, and their CO2 equivalents under the UK ETS GWPs (CH4 28, N2O 265). */
export interface UkEtsGases {
  co2: number;
  ch4: number;
  n2o: number;
  /** t CO2e of the CH4 (ch4 x 28) and of the N2O (n2o x 265): what METS calls tch4eqTotal and tn2oeqTotal. */
  ch4Co2e: number;
  n2oCo2e: number;
  co2e: number;
}

export const NO_GASES: UkEtsGases = { co2: 0, ch4: 0, n2o: 0, ch4Co2e: 0, n2oCo2e: 0, co2e: 0 };

export function addUkGases(a: UkEtsGases, b: UkEtsGases, share = 1): UkEtsGases {
  return {
    co2: a.co2 + b.co2 * share,
    ch4: a.ch4 + b.ch4 * share,
    n2o: a.n2o + b.n2o * share,
    ch4Co2e: a.ch4Co2e + b.ch4Co2e * share,
    n2oCo2e: a.n2oCo2e + b.n2oCo2e * share,
    co2e: a.co2e + b.co2e * share,
  };
}

/**
 * The gases of some fuel lines under UK_ETS_FUEL_TABLE. Fuel of unknown type is left out (it is counted apart and
 * named: guessing its type would change the figure). LNG is taken without slip: the ledger does not know the
 * engine; an LNG ship's officer sets the slip in METS.
 */
export function ukEtsGases(fuel: readonly Pick<LegFuel, 'fuelType' | 'kg'>[]): UkEtsGases {
  let sum = NO_GASES;
  for (const line of fuel) {
    if (line.fuelType === 'UNKNOWN') continue;
    const g = greenhouseGases(UK_ETS_FUEL_TABLE, line.fuelType, line.kg / 1000);
    const gwp = UK_ETS_FUEL_TABLE.gwp;
    sum = addUkGases(sum, {
      co2: g.co2,
      ch4: g.ch4,
      n2o: g.n2o,
      ch4Co2e: g.ch4 * gwp.ch4,
      n2oCo2e: g.n2o * gwp.n2o,
      co2e: g.co2e,
    });
  }
  return sum;
}

/** The part of a calendar year the scheme covers: [from, to) in ms, or null for a year before it. */
export function ukEtsPeriod(year: number): { from: number; to: number } | null {
  const to = Date.UTC(year + 1, 0, 1);
  const from = Math.max(Date.UTC(year, 0, 1), UK_ETS_MARITIME_START_MS);
  return from < to ? { from, to } : null;
}

/** One voyage or stay of the year, cut to the covered period, with where its ports are. */
export interface UkEtsLegInput {
  kind: 'stay' | 'voyage';
  start: number;
  end: number;
  /** A stay's port; a voyage's departure and arrival ports (null: outside the UK or unknown). */
  place?: UkPlace;
  fromPlace?: UkPlace;
  toPlace?: UkPlace;
  fuel: readonly LegFuel[];
}

export interface UkEtsLine {
  kind: 'stay' | 'voyage';
  start: number;
  end: number;
  scope: UkEtsScope;
  share: number;
  /** t per fuel type (unknown apart). */
  fuelTonnes: Partial<Record<FuelType | 'UNKNOWN', number>>;
  /** The leg's whole emissions. */
  emissions: UkEtsGases;
  /** What counts: emissions x share. */
  counted: UkEtsGases;
}

export interface UkEtsYear {
  lines: UkEtsLine[];
  /** Whole emissions per part, as the annual emissions report gives them (METS applies the 50 % itself). */
  byScope: Record<Exclude<UkEtsScope, 'OUT_OF_SCOPE'>, UkEtsGases>;
  /** Fuel of the covered legs (whole, not halved) per fuel type, t: the report's fuel consumption. */
  fuelTonnes: Partial<Record<FuelType, number>>;
  /** Fuel of unknown type in covered legs, t: not counted, named. */
  unknownFuelTonnes: number;
  /** Emissions to surrender allowances for: within + between UK ports + 50 % of GB-NI. */
  surrender: UkEtsGases;
}

/** The year's lines and sums from its legs (already cut to ukEtsPeriod). */
export function ukEtsYear(legs: readonly UkEtsLegInput[]): UkEtsYear {
  const byScope = {
    WITHIN_UK_PORT: NO_GASES,
    BETWEEN_UK_PORTS: NO_GASES,
    BETWEEN_GB_AND_NI: NO_GASES,
  };
  const fuelTonnes: Partial<Record<FuelType, number>> = {};
  let unknownFuelTonnes = 0;
  let surrender = NO_GASES;
  const lines = legs.map((leg): UkEtsLine => {
    const scope =
      leg.kind === 'stay'
        ? stayScope(leg.place ?? null)
        : ukVoyageScope(leg.fromPlace ?? null, leg.toPlace ?? null);
    const share = UK_ETS_SHARE[scope];
    const emissions = ukEtsGases(leg.fuel);
    const perType: UkEtsLine['fuelTonnes'] = {};
    for (const f of leg.fuel) if (f.kg > 0) perType[f.fuelType] = (perType[f.fuelType] ?? 0) + f.kg / 1000;
    if (scope !== 'OUT_OF_SCOPE') {
      byScope[scope] = addUkGases(byScope[scope], emissions);
      surrender = addUkGases(surrender, emissions, share);
      for (const type of FUEL_TYPES)
        if (perType[type] !== undefined) fuelTonnes[type] = (fuelTonnes[type] ?? 0) + perType[type];
      unknownFuelTonnes += perType.UNKNOWN ?? 0;
    }
    return {
      kind: leg.kind,
      start: leg.start,
      end: leg.end,
      scope,
      share,
      fuelTonnes: perType,
      emissions,
      counted: addUkGases(NO_GASES, emissions, share),
    };
  });
  return { lines, byScope, fuelTonnes, unknownFuelTonnes, surrender };
}
