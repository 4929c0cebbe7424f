import { FUELEU_FUEL_TABLE, LNG_SLIP_PERCENT, type Consumer, type FuelType, type LngEngine } from './fuels';

/**
 * FuelEU Maritime, Regulation (EU) 2023/1805 (in force 2025-01-01): the energy in scope of a ship's year, its
 * well-to-wake GHG intensity (Annex I), the year's limit (Art. 4(2)), the compliance balance and the FuelEU penalty
 * (Annex IV, Art. 23(2)), and the checks of banking and borrowing (Art. 20) and pooling (Art. 21).
 * docs/decisions/0113-fueleu.md says how the rules are read where the text leaves room.
 *
 * How each constant was checked (the search tool of the session, 2026-11-28):
 * - "checked (DE)": the German language version of the Regulation as reproduced article by article at
 *   gesetze.legal/eu/vo_eu_2023_1805 (the text of OJ L 234, 22.9.2023, p. 48);
 * - "checked (EN)": the English text as reproduced at eurlexa.com/act/en/32023R1805;
 * - "SECONDARY": only secondary sources (named) could be read here, not the Regulation's own text.
 */

// ---------------------------------------------------------------------------------------------------------------
// Scope (Art. 2(1))
// ---------------------------------------------------------------------------------------------------------------

/** Where a port of call lies for FuelEU on the day of the call. */
export interface FuelEuPortStatus {
  /** Under the jurisdiction of a Member State (EU, and the EEA States that apply the Regulation). */
  memberState: boolean;
  /** In an outermost region of the EU (TFEU Art. 349). */
  outermostRegion: boolean;
}

export interface FuelEuShare {
  /** Share of the leg's energy in scope: 1, 0.5 or 0. */
  share: number;
  /** The share may still change: the voyage's next port is not known yet (the ship is at sea). */
  provisional: boolean;
  /** Why, in the words shown to the user. */
  reason: string;
}

/**
 * The share of a stay's or a voyage's energy in scope, Regulation (EU) 2023/1805 Art. 2(1) (checked (EN), and
 * against the same paragraph quoted by imcgroup.gr): (a) the energy used during a stay within a port of call under
 * the jurisdiction of a Member State, all of it; (b) voyages from such a port to such a port, all of it; (c)
 * notwithstanding (b), half of it on voyages arriving at or departing from a port of call in an outermost region;
 * (d) half of it on voyages arriving at or departing from such a port where the previous or next port of call is
 * in a third country. The same 100 %/50 %/berth rule as the EU ETS (Directive 2003/87/EC Art. 3ga): this function
 * is FuelEU's own until the ETS helper's scope (rules/carbon/eu-ets.ts) lands and the two are merged.
 *
 * A voyage whose next port is not known yet (the data ends at sea) counts with the share its known end allows at
 * least (half when it left a Member State's port), marked provisional; one whose previous port is not known (the
 * data begins at sea) likewise.
 */
export function fuelEuShare(
  leg:
    | { kind: 'stay'; port: FuelEuPortStatus | null }
    | { kind: 'voyage'; from: FuelEuPortStatus | null; to: FuelEuPortStatus | null },
): FuelEuShare {
  if (leg.kind === 'stay') {
    if (leg.port?.memberState)
      return { share: 1, provisional: false, reason: "At berth in a Member State's port" };
    return { share: 0, provisional: false, reason: "At berth outside the Member States' ports" };
  }
  const { from, to } = leg;
  const inMs = (p: FuelEuPortStatus | null) => Boolean(p?.memberState);
  const outermost = (p: FuelEuPortStatus | null) => Boolean(p?.memberState && p.outermostRegion);
  if (from && to) {
    if (inMs(from) && inMs(to)) {
      if (outermost(from) || outermost(to))
        return { share: 0.5, provisional: false, reason: 'Voyage to or from a port in an outermost region' };
      return { share: 1, provisional: false, reason: "Voyage between two Member States' ports" };
    }
    if (inMs(from) || inMs(to))
      return {
        share: 0.5,
        provisional: false,
        reason: "Voyage between a Member State's port and a third country",
      };
    return { share: 0, provisional: false, reason: "Voyage outside the Member States' ports" };
  }
  const known = from ?? to;
  if (known && inMs(known))
    return {
      share: 0.5,
      provisional: true,
      reason: from
        ? "Voyage from a Member State's port, next port not known yet: half counted until it is"
        : "Voyage to a Member State's port from a port not in the data: half counted",
    };
  return {
    share: 0,
    provisional: from === null && to === null ? false : true,
    reason: known ? 'Voyage from a port outside the Member States, next port not known yet' : 'No port known',
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Limits (Art. 4(2))
// ---------------------------------------------------------------------------------------------------------------

/**
 * The reference value, g CO2e/MJ: Regulation (EU) 2023/1805 Art. 4(2) ("Referenzwert von 91,16 g
 * CO2-Äquivalent pro MJ"). Checked (DE).
 */
export const FUELEU_REFERENCE_GCO2E_PER_MJ = 91.16;

/**
 * The reduction below the reference value from each year on, %: Art. 4(2): 2 % from 1 January 2025, 6 % from 2030,
 * 14.5 % from 2035, 31 % from 2040, 62 % from 2045, 80 % from 2050. Checked (DE).
 */
export const FUELEU_REDUCTIONS: readonly { fromYear: number; percent: number }[] = [
  { fromYear: 2025, percent: 2 },
  { fromYear: 2030, percent: 6 },
  { fromYear: 2035, percent: 14.5 },
  { fromYear: 2040, percent: 31 },
  { fromYear: 2045, percent: 62 },
  { fromYear: 2050, percent: 80 },
];

/** The reduction of a year, %, or null before 2025 (the Regulation does not apply). */
export function fuelEuReductionPercent(year: number): number | null {
  let percent: number | null = null;
  for (const r of FUELEU_REDUCTIONS) if (year >= r.fromYear) percent = r.percent;
  return percent;
}

/** The GHG intensity limit of a year, g CO2e/MJ (91.16 x (1 - r)), or null before 2025. */
export function fuelEuTarget(year: number): number | null {
  const percent = fuelEuReductionPercent(year);
  return percent === null ? null : FUELEU_REFERENCE_GCO2E_PER_MJ * (1 - percent / 100);
}

// ---------------------------------------------------------------------------------------------------------------
// GHG intensity (Annex I)
// ---------------------------------------------------------------------------------------------------------------

/**
 * The CH4 of the fuel that slips unburnt, g CH4 per g of slipped fuel (Annex I's CO2eq,TtW,slippage: the slipped
 * LNG is methane). SECONDARY: Annex I's equation 1 with Cslip was read in the German text (checked (DE): "(1 - 1/100
 * Cslip j) CO2eq,TtW,i,j + 1/100 Cslip j CO2eq TtW,slip,i,j"), the slipped fuel's factor (Csf CH4 = 1) only in
 * secondary transcriptions (ajay-rgb/FuelEU-Maritime Reference.md; the UK regulator's METS, which counts the slip as
 * methane: ukets-maritime AerEmissionsCalculatorUtils.java).
 */
export const FUELEU_SLIP_CH4_PER_G = 1;

/**
 * The slip used for an LNG consumer whose engine kind is not mapped, %: Annex II's rule for a cell without a value
 * ("the highest default value in the same column for the fuel class", checked (DE): "ist der höchste Standardwert zu
 * verwenden, der in derselben Tabellenspalte für die Kraftstoffklasse angegeben ist"), i.e. LNG Otto medium speed.
 */
export const FUELEU_UNMAPPED_LNG_SLIP_PERCENT = Math.max(...Object.values(LNG_SLIP_PERCENT));

/**
 * Wind-assisted propulsion's reward factor fwind (Annex I): 1 here, the ledger knows of no wind-assisted propulsion.
 * RWD (Annex I, Art. 5(1)): 2 for RFNBOs from 2025 to 2033, else 1; every fuel of the ledger is fossil, so 1.
 * Shore power (Ek, Annex I) is not in the ledger: 0 MJ.
 */
export const FUELEU_FWIND = 1;

/** A line of fuel in scope: a consumer's mass of one fuel type, with the share of it that counts. */
export interface FuelEuFuelLine {
  consumer: Consumer;
  fuelType: FuelType;
  /** Tonnes burnt. */
  tonnes: number;
  /** Share in scope (fuelEuShare). */
  share: number;
  /** For LNG: the consumer's engine kind (its methane slip); null when not mapped. */
  lngEngine?: LngEngine | null;
}

export interface FuelEuIntensity {
  /** Energy in scope, MJ: sum of share x mass x LCV (x RWD = 1). */
  energyMj: number;
  /** Well-to-tank and tank-to-wake emissions in scope, g CO2e. */
  wttGco2e: number;
  ttwGco2e: number;
  /** Well-to-wake GHG intensity, g CO2e/MJ; null without energy. */
  intensity: number | null;
  /** Per fuel type: tonnes and energy in scope. */
  byFuel: { fuelType: FuelType; tonnes: number; energyMj: number; gco2e: number }[];
  /** LNG consumers without an engine kind, counted with FUELEU_UNMAPPED_LNG_SLIP_PERCENT. */
  unmappedLngConsumers: Consumer[];
}

/** The tank-to-wake g CO2e of one g of a fuel burnt by a consumer with a slip of `slipPercent` (Annex I). */
export function ttwPerGram(fuelType: FuelType, slipPercent: number): number {
  const f = FUELEU_FUEL_TABLE.fuels[fuelType];
  const { ch4, n2o } = FUELEU_FUEL_TABLE.gwp;
  const combusted = f.cfCo2 + f.cfCh4 * ch4 + f.cfN2o * n2o;
  const slipped = FUELEU_SLIP_CH4_PER_G * ch4;
  const c = slipPercent / 100;
  return (1 - c) * combusted + c * slipped;
}

/**
 * Annex I equation 1 over the fuel in scope: GHG intensity = fwind x (WtT + TtW), WtT = sum(M x WtT x LCV) /
 * sum(M x LCV x RWD), TtW = sum over fuels and consumers of M x ((1 - Cslip/100) x CO2eq,TtW + Cslip/100 x
 * CO2eq,TtW,slip) / the same energy; CO2eq,TtW = Cf CO2 + 25 Cf CH4 + 298 Cf N2O (GWP100 of Annex I, see
 * FUELEU_FUEL_TABLE). Each mass is its share in scope (Art. 2(1)).
 */
export function fuelEuIntensity(lines: readonly FuelEuFuelLine[]): FuelEuIntensity {
  let energyMj = 0;
  let wtt = 0;
  let ttw = 0;
  const byFuel = new Map<FuelType, { fuelType: FuelType; tonnes: number; energyMj: number; gco2e: number }>();
  const unmapped = new Set<Consumer>();
  for (const line of lines) {
    if (!(line.share > 0) || !(line.tonnes > 0)) continue;
    const f = FUELEU_FUEL_TABLE.fuels[line.fuelType];
    const grams = line.tonnes * 1e6 * line.share;
    let slip = 0;
    if (line.fuelType === 'LNG') {
      if (line.lngEngine) slip = LNG_SLIP_PERCENT[line.lngEngine];
      else {
        slip = FUELEU_UNMAPPED_LNG_SLIP_PERCENT;
        unmapped.add(line.consumer);
      }
    }
    const energy = grams * f.lcvMjPerG;
    const lineWtt = energy * f.wttGco2ePerMj;
    const lineTtw = grams * ttwPerGram(line.fuelType, slip);
    energyMj += energy;
    wtt += lineWtt;
    ttw += lineTtw;
    const entry = byFuel.get(line.fuelType) ?? { fuelType: line.fuelType, tonnes: 0, energyMj: 0, gco2e: 0 };
    entry.tonnes += line.tonnes * line.share;
    entry.energyMj += energy;
    entry.gco2e += lineWtt + lineTtw;
    byFuel.set(line.fuelType, entry);
  }
  return {
    energyMj,
    wttGco2e: wtt,
    ttwGco2e: ttw,
    intensity: energyMj > 0 ? (FUELEU_FWIND * (wtt + ttw)) / energyMj : null,
    byFuel: [...byFuel.values()],
    unmappedLngConsumers: [...unmapped],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Compliance balance and penalty (Annex IV, Art. 23)
// ---------------------------------------------------------------------------------------------------------------

/**
 * The compliance balance, g CO2e: (target - actual) x energy in scope; positive is a surplus, negative a deficit.
 * Annex IV Part A. SECONDARY: the Annex's formula was not found in the Regulation's own text here; read in
 * ajay-rgb/FuelEU-Maritime Reference.md ("Compliance Balance [gCO2eq] = (GHGIEtarget - GHGIEactual) x [sum(Mi x
 * LCVi) + sum Ek]") and shipcalculators.com, which agree with DOMAIN.md.
 */
export function complianceBalanceGco2e(target: number, actual: number, energyMj: number): number {
  return (target - actual) * energyMj;
}

/**
 * The FuelEU penalty's rate, EUR per tonne of VLSFO equivalent, and the energy of that tonne, MJ: Annex IV Part B,
 * penalty = |compliance balance| / (GHGIE actual x 41 000) x 2 400 EUR. SECONDARY: read in Veson's help page (2 400
 * EUR per t VLSFO, 41 000 MJ per t), shipcalculators.com (dividing by the ATTAINED intensity) and
 * ajay-rgb/FuelEU-Maritime; the Regulation's Annex IV itself was not found here. DOMAIN.md gives the same formula.
 */
export const FUELEU_PENALTY_EUR_PER_T_VLSFO = 2_400;
export const FUELEU_VLSFO_MJ_PER_T = 41_000;

/**
 * The multiplier of the penalty of a ship with a deficit in n consecutive reporting periods: 1 + (n - 1)/10,
 * Art. 23(2) (checked (DE): "so wird der Betrag mit 1 + (n – 1)/10 multipliziert; dabei ist n die Anzahl der
 * aufeinanderfolgenden Berichtszeiträume, für die ... eine FuelEU-Strafzahlung auferlegt wird").
 */
export function consecutiveMultiplier(consecutiveDeficitYears: number): number {
  return 1 + (Math.max(1, consecutiveDeficitYears) - 1) / 10;
}

/** The FuelEU penalty, EUR, of a final balance (after banking, borrowing and pooling); 0 without a deficit. */
export function fuelEuPenaltyEur(
  balanceGco2e: number,
  actual: number,
  consecutiveDeficitYears: number,
): number {
  if (!(balanceGco2e < 0) || !(actual > 0)) return 0;
  return (
    (Math.abs(balanceGco2e) / (actual * FUELEU_VLSFO_MJ_PER_T)) *
    FUELEU_PENALTY_EUR_PER_T_VLSFO *
    consecutiveMultiplier(consecutiveDeficitYears)
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Banking and borrowing (Art. 20)
// ---------------------------------------------------------------------------------------------------------------

/**
 * Borrowing's limits, Art. 20(2) (checked (DE)): the advance compliance surplus is added to the year's balance and
 * 1.1 times it subtracted from the same ship's balance of the next year; it may not exceed 2 % of the limit of
 * Art. 4(2) multiplied by the ship's energy (Annex I), and may not be borrowed for two consecutive reporting periods.
 */
export const FUELEU_BORROW_LIMIT_FRACTION = 0.02;
export const FUELEU_BORROW_REPAY_MULTIPLIER = 1.1;

export const FUELEU_MESSAGES = {
  bankWithoutSurplus: 'Only a surplus can be banked: this ship has no surplus in the year.',
  bankAboveSurplus: (available: string) => `At most the year's surplus can be banked: ${available} t CO2e.`,
  borrowWithoutDeficit: 'Only a ship with a deficit can borrow: this ship has none in the year.',
  borrowAboveDeficit: (deficit: string) => `At most the year's deficit can be borrowed: ${deficit} t CO2e.`,
  borrowAboveLimit: (limit: string) =>
    `At most 2 % of the year's limit times the ship's energy can be borrowed: ${limit} t CO2e.`,
  borrowTwice: (year: number) =>
    `The ship borrowed for ${year}: borrowing is not allowed for two consecutive years.`,
  bankAndBorrow: 'A ship either banks a surplus or borrows against a deficit in a year, not both.',
  poolTooSmall: 'A pool needs at least two ships.',
  poolNegative: (total: string) =>
    `The ships' balances add up to ${total} t CO2e: a pool's total must not be negative.`,
  poolAllocationSum: (total: string, allocated: string) =>
    `The allocations add up to ${allocated} t CO2e but the pool's total is ${total} t CO2e: they must be equal.`,
  poolDeficitWorse: (ship: string) =>
    `${ship} would end with a higher deficit than its own: not allowed in a pool.`,
  poolSurplusToDeficit: (ship: string) =>
    `${ship} had a surplus and would end with a deficit: not allowed in a pool.`,
  poolShipTwice: (ship: string) => `${ship} is in the pool twice.`,
  poolShipInOtherPool: (ship: string, pool: string) => `${ship} is already in the pool ${pool} of this year.`,
} as const;

const t = (gco2e: number) => (gco2e / 1e6).toFixed(1);

export interface FlexibilityInput {
  /** The ship's balance of the year before banking and borrowing (after pooling), g CO2e. */
  balanceGco2e: number;
  /** The year's limit, g CO2e/MJ, and the ship's energy in scope, MJ. */
  target: number;
  energyMj: number;
  /** Amounts asked for, g CO2e (0 for none). */
  bankGco2e: number;
  borrowGco2e: number;
  /** Did the ship borrow for the year before? */
  borrowedPreviousYear: number | null;
  year: number;
}

/** The plain reasons banking or borrowing this much is refused (empty: allowed). */
export function checkFlexibility(input: FlexibilityInput): string[] {
  const errors: string[] = [];
  const { balanceGco2e, bankGco2e, borrowGco2e } = input;
  const tolerance = 1e-6 * Math.max(1, Math.abs(balanceGco2e));
  if (bankGco2e > 0 && borrowGco2e > 0) errors.push(FUELEU_MESSAGES.bankAndBorrow);
  if (bankGco2e > 0) {
    if (!(balanceGco2e > 0)) errors.push(FUELEU_MESSAGES.bankWithoutSurplus);
    else if (bankGco2e > balanceGco2e + tolerance)
      errors.push(FUELEU_MESSAGES.bankAboveSurplus(t(balanceGco2e)));
  }
  if (borrowGco2e > 0) {
    const limit = FUELEU_BORROW_LIMIT_FRACTION * input.target * input.energyMj;
    if (!(balanceGco2e < 0)) errors.push(FUELEU_MESSAGES.borrowWithoutDeficit);
    else if (borrowGco2e > -balanceGco2e + tolerance)
      errors.push(FUELEU_MESSAGES.borrowAboveDeficit(t(-balanceGco2e)));
    if (borrowGco2e > limit + tolerance) errors.push(FUELEU_MESSAGES.borrowAboveLimit(t(limit)));
    if (input.borrowedPreviousYear !== null && input.borrowedPreviousYear > 0)
      errors.push(FUELEU_MESSAGES.borrowTwice(input.year - 1));
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------------------------
// Pooling (Art. 21)
// ---------------------------------------------------------------------------------------------------------------

export interface PoolMemberInput {
  shipId: string;
  shipName: string;
  /** The ship's compliance balance of the year as calculated (Art. 16(4)), g CO2e. */
  balanceGco2e: number;
  /** What the pool allocates to it, g CO2e. */
  allocatedGco2e: number;
}

/**
 * The plain reasons a pool is not valid (empty: valid), Art. 21 (checked (DE)): the balances of two or more ships
 * (21(1)), a ship in no more than one pool in a reporting period (21(1); checked by the caller against the stored
 * pools), the allocation of the pool's total to the ships (21(2)); valid only if the total is positive, no ship with
 * a deficit ends with a higher deficit and no ship with a surplus ends with a deficit (21(4)). The total is "positive"
 * in the text; a total of exactly 0 is let through (docs/decisions/0113-fueleu.md).
 */
export function checkPool(members: readonly PoolMemberInput[]): string[] {
  const errors: string[] = [];
  if (members.length < 2) errors.push(FUELEU_MESSAGES.poolTooSmall);
  const seen = new Set<string>();
  for (const m of members) {
    if (seen.has(m.shipId)) errors.push(FUELEU_MESSAGES.poolShipTwice(m.shipName));
    seen.add(m.shipId);
  }
  const total = members.reduce((s, m) => s + m.balanceGco2e, 0);
  const allocated = members.reduce((s, m) => s + m.allocatedGco2e, 0);
  const scale = Math.max(1, ...members.map((m) => Math.abs(m.balanceGco2e)), Math.abs(total));
  const tolerance = 1e-6 * scale;
  if (total < -tolerance) errors.push(FUELEU_MESSAGES.poolNegative(t(total)));
  if (Math.abs(allocated - total) > Math.max(tolerance, 1e5))
    errors.push(FUELEU_MESSAGES.poolAllocationSum(t(total), t(allocated)));
  for (const m of members) {
    if (m.balanceGco2e < 0 && m.allocatedGco2e < m.balanceGco2e - tolerance)
      errors.push(FUELEU_MESSAGES.poolDeficitWorse(m.shipName));
    if (m.balanceGco2e >= 0 && m.allocatedGco2e < -tolerance)
      errors.push(FUELEU_MESSAGES.poolSurplusToDeficit(m.shipName));
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------------------------
// A ship's years
// ---------------------------------------------------------------------------------------------------------------

export interface FuelEuYearInput {
  year: number;
  /** The compliance balance as calculated, g CO2e. */
  balanceGco2e: number;
  /** The pool's allocation to the ship, g CO2e, when it is in a pool of the year. */
  pooledGco2e: number | null;
  /** Banked to the next year and borrowed from it, g CO2e. */
  bankedGco2e: number;
  borrowedGco2e: number;
  actual: number | null;
}

export interface FuelEuYearResult {
  year: number;
  /** After pooling, banked surplus and borrowing's repayment carried in, before this year's banking and borrowing. */
  balanceBeforeFlexibilityGco2e: number;
  /** What is left for the penalty: + borrowed - banked. */
  finalBalanceGco2e: number;
  consecutiveDeficitYears: number;
  penaltyEur: number;
}

/**
 * A ship's years in order (Art. 20, 21, 23): the year's balance (the pool's allocation when pooled) + the surplus
 * banked from the year before - 1.1 x what was borrowed for the year before, then + what it borrows - what it banks;
 * a final deficit is penalised, raised by 10 % for each further consecutive year with one. Years missing in the list
 * break a run of deficits.
 */
export function fuelEuYears(years: readonly FuelEuYearInput[]): FuelEuYearResult[] {
  const sorted = [...years].sort((a, b) => a.year - b.year);
  const out: FuelEuYearResult[] = [];
  let previous: (FuelEuYearInput & { final: number; run: number }) | null = null;
  for (const y of sorted) {
    const carried: number =
      previous && previous.year === y.year - 1
        ? previous.bankedGco2e - FUELEU_BORROW_REPAY_MULTIPLIER * previous.borrowedGco2e
        : 0;
    const before: number = (y.pooledGco2e ?? y.balanceGco2e) + carried;
    const final: number = before + y.borrowedGco2e - y.bankedGco2e;
    const run: number =
      final < 0 ? (previous && previous.year === y.year - 1 && previous.final < 0 ? previous.run + 1 : 1) : 0;
    out.push({
      year: y.year,
      balanceBeforeFlexibilityGco2e: before,
      finalBalanceGco2e: final,
      consecutiveDeficitYears: run,
      penaltyEur: y.actual === null ? 0 : fuelEuPenaltyEur(final, y.actual, run),
    });
    previous = { ...y, final, run };
  }
  return out;
}
