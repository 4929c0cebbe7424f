/**
 * "Is this scrubber still paying, here, this year?" (issue "Step 5 of 7"; decision 0119). A scrubber lets the ship
 * burn high-sulphur fuel oil (HSFO) where it would otherwise buy very-low-sulphur fuel oil (VLSFO); its power costs
 * fuel (the SFOC-impact KPI's numerator, SCRUBBER_FUEL, integrated by the carbon ledger as the segments' scrubberKg).
 *
 *   savings = HSFO tonnes x (VLSFO - HSFO price) - penalty fuel tonnes x HSFO price
 *
 * The penalty fuel is priced at the HSFO price: it is burnt by the same ship on the same fuel. The projection to
 * the year's end adds, to the year to date, its rate per day with data over the days after the last day with data.
 */

export interface FuelPrices {
  /** EUR per tonne. */
  hsfoEurPerTonne: number;
  vlsfoEurPerTonne: number;
}

export interface ScrubberYear {
  /** Tonnes of HFO burnt (the ledger's HFO lines). */
  hsfoTonnes: number;
  /** Tonnes of fuel the scrubber's power took. */
  penaltyTonnes: number;
}

export interface ScrubberEconomics {
  spreadEurPerTonne: number;
  fuelSavedEur: number;
  penaltyEur: number;
  netEur: number;
  /** True when the net is above zero. */
  paying: boolean;
}

export function scrubberEconomics(year: ScrubberYear, prices: FuelPrices): ScrubberEconomics {
  const spread = prices.vlsfoEurPerTonne - prices.hsfoEurPerTonne;
  const fuelSavedEur = year.hsfoTonnes * spread;
  const penaltyEur = year.penaltyTonnes * prices.hsfoEurPerTonne;
  const netEur = fuelSavedEur - penaltyEur;
  return { spreadEurPerTonne: spread, fuelSavedEur, penaltyEur, netEur, paying: netEur > 0 };
}

/**
 * A year-to-date amount carried to the year's end: plus its rate per day with data times the days left after the
 * last day with data (none for a year that is over); null without any day with data.
 */
export function projectToYearEnd(amount: number, daysWithData: number, daysRemaining: number): number | null {
  if (daysWithData <= 0) return null;
  return amount + (amount / daysWithData) * Math.max(0, daysRemaining);
}

export const daysInYear = (year: number) => (Date.UTC(year + 1, 0, 1) - Date.UTC(year, 0, 1)) / 86_400_000;
