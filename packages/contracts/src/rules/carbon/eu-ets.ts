import { EU_MRV_FUEL_TABLE, FUEL_TYPES, greenhouseGases, type FuelType, type LngEngine } from './fuels';
import { portIn, type PortArea } from './port-calls';

/**
 * EU MRV and EU ETS for maritime transport (../shared/DOMAIN.md "EU MRV and EU ETS"; docs/decisions/0112-eu-ets.md):
 * the gases of a voyage or a stay at berth under the MRV's factors, the share of them in the ETS's scope by the
 * ports' EU/EEA memberships on the voyage's dates, the allowances due with the phase-in, and the dates that follow.
 *
 * Instruments: Regulation (EU) 2015/757 (MRV) as amended by Regulation (EU) 2023/957; Directive 2003/87/EC (ETS) as
 * amended by Directive (EU) 2023/959 (in force 2023-06-05; maritime emissions from 2024-01-01).
 */

/** The gases of a quantity of fuel, tonnes, and their CO2 equivalent (GWP100 of the MRV: CH4 28, N2O 265). */
export interface EuGases {
  co2: number;
  ch4: number;
  n2o: number;
  co2e: number;
}

export const ZERO_GASES: EuGases = { co2: 0, ch4: 0, n2o: 0, co2e: 0 };

export const addGases = (a: EuGases, b: EuGases): EuGases => ({
  co2: a.co2 + b.co2,
  ch4: a.ch4 + b.ch4,
  n2o: a.n2o + b.n2o,
  co2e: a.co2e + b.co2e,
});

export const scaleGases = (a: EuGases, k: number): EuGases => ({
  co2: a.co2 * k,
  ch4: a.ch4 * k,
  n2o: a.n2o * k,
  co2e: a.co2e * k,
});

/** A fuel line of a voyage or a stay: tonnes of a fuel type (fuel of unknown type has no factors and is kept apart). */
export interface EuFuelLine {
  fuelType: FuelType | 'UNKNOWN';
  tonnes: number;
  /** An LNG consumer's engine, for the methane slip; without it LNG is taken as burnt whole. */
  lngEngine?: LngEngine;
}

/**
 * The gases of fuel lines under the EU MRV's default factors (EU_MRV_FUEL_TABLE: Regulation (EU) 2015/757 Annex I
 * as amended by Delegated Regulation (EU) 2023/2776, the FuelEU Annex II defaults) and GWP100 (CH4 28, N2O 265).
 * Fuel of unknown type is answered apart, never guessed.
 */
export function euGasesOf(lines: readonly EuFuelLine[]): { gases: EuGases; unknownFuelTonnes: number } {
  let gases = ZERO_GASES;
  let unknownFuelTonnes = 0;
  for (const line of lines) {
    if (line.fuelType === 'UNKNOWN') {
      unknownFuelTonnes += line.tonnes;
      continue;
    }
    gases = addGases(gases, greenhouseGases(EU_MRV_FUEL_TABLE, line.fuelType, line.tonnes, line.lngEngine));
  }
  return { gases, unknownFuelTonnes };
}

/** Tonnes of each fuel type in lines (the report's "amount of each type of fuel consumed"). */
export function fuelByType(lines: readonly EuFuelLine[]): { fuelType: FuelType; tonnes: number }[] {
  const sums = new Map<FuelType, number>();
  for (const l of lines)
    if (l.fuelType !== 'UNKNOWN') sums.set(l.fuelType, (sums.get(l.fuelType) ?? 0) + l.tonnes);
  return FUEL_TYPES.filter((f) => sums.has(f)).map((fuelType) => ({ fuelType, tonnes: sums.get(fuelType)! }));
}

// ---------------------------------------------------------------------------------------------------------------
// Scope
// ---------------------------------------------------------------------------------------------------------------

/**
 * What the scope rule needs of a port on a day: is it under the jurisdiction of a Member State for the ETS (the
 * EU/EEA flag: the EEA EFTA States apply the ETS through the EEA Agreement), is it in an outermost region, and the
 * Member State it belongs to (an outermost region's own ISO code is mapped to its State: GP, MQ, ... are France).
 */
export interface PortScopeFlags {
  eea: boolean;
  outermostRegion: boolean;
  /** ISO 3166-1 alpha-2 of the State the port belongs to. */
  memberState: string;
}

/** Outermost regions and former ones with their own ISO code, and the Member State they belong to (TFEU Art. 355(1)). */
const STATE_OF_TERRITORY: Record<string, string> = {
  GF: 'FR',
  GP: 'FR',
  MQ: 'FR',
  RE: 'FR',
  MF: 'FR',
  BL: 'FR',
  YT: 'FR',
  AX: 'FI',
};

/** The State a port's country code belongs to. */
export const memberStateOf = (country: string): string =>
  STATE_OF_TERRITORY[country.toUpperCase()] ?? country.toUpperCase();

/** The scope flags of a port with dated memberships (rules/carbon PortArea) on a day. */
export function portScopeOn(port: Pick<PortArea, 'memberships' | 'country'>, atMs: number): PortScopeFlags {
  return {
    eea: portIn(port, 'EU_EEA', atMs),
    outermostRegion: portIn(port, 'EU_OUTERMOST_REGION', atMs),
    memberState: memberStateOf(port.country ?? ''),
  };
}

/** What a line of the report is, for the MRV's aggregates (Regulation 2015/757 Art. 11(2)(c)-(f)). */
export const EU_LINE_SCOPES = [
  /** Between two ports under a Member State's jurisdiction. */
  'INTRA_EEA',
  /** Departing from a port under a Member State's jurisdiction to one outside. */
  'FROM_EEA',
  /** Arriving at a port under a Member State's jurisdiction from one outside. */
  'TO_EEA',
  /** At berth in a port under a Member State's jurisdiction. */
  'AT_BERTH_EEA',
  /** Neither end under a Member State's jurisdiction (or at berth outside): outside the MRV and the ETS. */
  'OUTSIDE',
  /** An end of the voyage is not known yet (the data begins at sea, or the ship has not arrived). */
  'UNDETERMINED',
] as const;
export type EuLineScope = (typeof EU_LINE_SCOPES)[number];

export interface ScopeOfLine {
  scope: EuLineScope;
  /** The share of the line's emissions in the ETS (Art. 3ga(1)): 1, 0.5 or 0; null while undetermined. */
  share: number | null;
  /**
   * True when the line's emissions need no allowances until the end of 2030 although they are reported: a voyage
   * between a port in an outermost region and a port of the same Member State (see OUTERMOST_DEROGATION_UNTIL).
   */
  outermostDerogation: boolean;
}

/**
 * Scope of the ETS for maritime transport, Directive 2003/87/EC Article 3ga(1) as inserted by Directive (EU)
 * 2023/959: 50 % of the emissions of voyages departing from a port of call under the jurisdiction of a Member State
 * and arriving at one outside (and the reverse), 100 % of the emissions of voyages between two ports of call under
 * the jurisdiction of Member States, and 100 % of the emissions within a port of call under a Member State's
 * jurisdiction. Checked: secondary sources only (the Commission's page "Scope of the EU ETS": "50% of emissions from
 * voyages starting or ending outside of the EU and 100% of emissions from voyages between two EU ports and when
 * ships are within EU ports"; a public repository quoting Art. 3ga(1) from EUR-Lex CELEX 32023L0959). The Official
 * Journal's text itself was not read here.
 */
export const ETS_SHARE_INTRA = 1;
export const ETS_SHARE_EXTRA = 0.5;
export const ETS_SHARE_AT_BERTH = 1;

/**
 * Outermost regions (docs/decisions/0112-eu-ets.md). A port in an outermost region (the Canary Islands, the Azores,
 * Madeira, the French overseas departments, Saint-Martin, Mayotte) is under the jurisdiction of its Member State, so
 * Article 3ga(1) counts it as any EEA port: its voyages and berths are reported and in scope as 100 % / 50 %. Article
 * 12(3-d) of the Directive as amended by 2023/959 (as remembered and as secondary sources summarise it; NOT VERIFIED
 * against the Official Journal here) lets the emissions of voyages between a port in an outermost region and a
 * port of the same Member State (within and between its outermost regions included) go without surrender until
 * 2030-12-31. The portal marks such voyages and leaves them out of the allowances due to that date; it keeps the
 * emissions at berth in such a port in the allowances (the derogation's "emissions within a port of call in relation
 * to such voyages" cannot be told from the ledger alone: the conservative reading, which never understates).
 */
export const OUTERMOST_DEROGATION_UNTIL = '2030-12-31';

/** The scope of a voyage from the ports at its ends (each on its own date); null for an end not known. */
export function voyageScope(
  from: PortScopeFlags | null,
  to: PortScopeFlags | null,
  departureMs: number,
): ScopeOfLine {
  if (from === null || to === null) {
    // One end outside and the other unknown is still undetermined: the next port may be inside.
    return { scope: 'UNDETERMINED', share: null, outermostDerogation: false };
  }
  if (from.eea && to.eea) {
    const derogation =
      (from.outermostRegion || to.outermostRegion) &&
      from.memberState === to.memberState &&
      new Date(departureMs).toISOString().slice(0, 10) <= OUTERMOST_DEROGATION_UNTIL;
    return { scope: 'INTRA_EEA', share: ETS_SHARE_INTRA, outermostDerogation: derogation };
  }
  if (from.eea) return { scope: 'FROM_EEA', share: ETS_SHARE_EXTRA, outermostDerogation: false };
  if (to.eea) return { scope: 'TO_EEA', share: ETS_SHARE_EXTRA, outermostDerogation: false };
  return { scope: 'OUTSIDE', share: 0, outermostDerogation: false };
}

/** The scope of a stay at berth by its port on the stay's day. */
export function berthScope(port: PortScopeFlags): ScopeOfLine {
  return port.eea
    ? { scope: 'AT_BERTH_EEA', share: ETS_SHARE_AT_BERTH, outermostDerogation: false }
    : { scope: 'OUTSIDE', share: 0, outermostDerogation: false };
}

// ---------------------------------------------------------------------------------------------------------------
// Allowances
// ---------------------------------------------------------------------------------------------------------------

/** The first year of maritime emissions under the ETS (Directive 2003/87/EC Art. 3ga, 3gb as amended by 2023/959). */
export const ETS_MARITIME_FIRST_YEAR = 2024;

/**
 * Phase-in, Directive 2003/87/EC Article 3gb as inserted by Directive (EU) 2023/959: allowances for 40 % of the
 * verified emissions reported for 2024, 70 % for 2025, 100 % from 2026. Checked: secondary sources only (a public
 * repository citing Art. 3gb; the Commission's FAQ on maritime transport in the ETS, updated 2025-04-02); DOMAIN.md.
 */
export function etsPhaseIn(year: number): number {
  if (year < ETS_MARITIME_FIRST_YEAR) return 0;
  if (year === 2024) return 0.4;
  if (year === 2025) return 0.7;
  return 1;
}

/**
 * CH4 and N2O count for surrender from the 2026 emissions (Directive 2003/87/EC Art. 3ga and Annex I as amended by
 * 2023/959; Regulation 2015/757 as amended by 2023/957 monitors them from 2024-01-01). Before, the allowances are for
 * CO2 alone. Checked: DOMAIN.md and the Commission's FAQ (secondary); the Official Journal not read here.
 */
export const ETS_NON_CO2_FROM_YEAR = 2026;

/** The tonnes of a year's in-scope gases that allowances are due for: CO2e from 2026, CO2 before. */
export const surrenderBasis = (gases: EuGases, year: number): number =>
  year >= ETS_NON_CO2_FROM_YEAR ? gases.co2e : gases.co2;

/** Allowances due for a year's in-scope gases (one allowance a tonne), before rounding to whole allowances. */
export const allowancesDue = (inScope: EuGases, year: number): number =>
  surrenderBasis(inScope, year) * etsPhaseIn(year);

/**
 * Surrender by 30 September of the year after the emissions (Directive 2003/87/EC Article 12(2a) as amended by
 * 2023/959; DOMAIN.md). Checked: DOMAIN.md and the Commission's FAQ (secondary).
 */
export const surrenderDeadline = (year: number): string => `${year + 1}-09-30`;

/** The verified emissions report (THETIS-MRV) is due by 31 March of the next year (Regulation 2015/757 Art. 11(1)). */
export const emissionsReportDeadline = (year: number): string => `${year + 1}-03-31`;

/**
 * Excess emissions penalty, € per tonne CO2e for which no allowance was surrendered (Directive 2003/87/EC Art.
 * 16(3); indexed to the European index of consumer prices from 2013 by Art. 16(4), which the portal does not apply:
 * a floor). DOMAIN.md's value; NOT VERIFIED against the Official Journal here.
 */
export const EXCESS_EMISSIONS_PENALTY_EUR = 100;

// ---------------------------------------------------------------------------------------------------------------
// A year of lines
// ---------------------------------------------------------------------------------------------------------------

export interface EuLineInput extends ScopeOfLine {
  gases: EuGases;
}

export interface EuYearTotals {
  /** Every line's gases (the MRV's total, Art. 11(2)(b), for the lines in its scope; OUTSIDE and UNDETERMINED apart). */
  total: EuGases;
  /** Per MRV aggregate (Art. 11(2)(c)-(f)) and the lines outside or undetermined. */
  byScope: Record<EuLineScope, EuGases>;
  /** The in-scope gases of the ETS: each line's gases x its share. */
  inScope: EuGases;
  /** Of them, the part under the outermost regions' derogation (no allowances to OUTERMOST_DEROGATION_UNTIL). */
  derogated: EuGases;
  /** The basis of the allowances (CO2e from 2026, CO2 before) and the allowances due with the phase-in. */
  surrenderBasisTonnes: number;
  phaseIn: number;
  allowancesDue: number;
}

export function euYearTotals(lines: readonly EuLineInput[], year: number): EuYearTotals {
  const byScope = Object.fromEntries(EU_LINE_SCOPES.map((s) => [s, ZERO_GASES])) as Record<
    EuLineScope,
    EuGases
  >;
  let total = ZERO_GASES;
  let inScope = ZERO_GASES;
  let derogated = ZERO_GASES;
  for (const line of lines) {
    byScope[line.scope] = addGases(byScope[line.scope], line.gases);
    total = addGases(total, line.gases);
    if (line.share === null || line.share === 0) continue;
    const part = scaleGases(line.gases, line.share);
    inScope = addGases(inScope, part);
    if (line.outermostDerogation) derogated = addGases(derogated, part);
  }
  const liable: EuGases = {
    co2: inScope.co2 - derogated.co2,
    ch4: inScope.ch4 - derogated.ch4,
    n2o: inScope.n2o - derogated.n2o,
    co2e: inScope.co2e - derogated.co2e,
  };
  const basis = surrenderBasis(liable, year);
  return {
    total,
    byScope,
    inScope,
    derogated,
    surrenderBasisTonnes: basis,
    phaseIn: etsPhaseIn(year),
    allowancesDue: basis * etsPhaseIn(year),
  };
}

/** The latest price entered on or before a day (ISO date), or null. */
export function priceOn<T extends { on: string }>(prices: readonly T[], day: string): T | null {
  let best: T | null = null;
  for (const p of prices) if (p.on <= day && (best === null || p.on > best.on)) best = p;
  return best;
}
