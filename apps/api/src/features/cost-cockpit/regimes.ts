import type { Kysely } from 'kysely';
import type { CockpitRegime, RegimeEuros } from '@portal/contracts/cost-cockpit';
import { formatDate } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import { shipYear as euShipYear } from '../eu-ets/service';
import { fuelEuShipYear } from '../fueleu/ship-year';
import { ukEtsForYear } from '../uk-ets/service';

/**
 * The regimes' euros of a ship and year, for the cockpit (decision 0119): the one place that reads the EU ETS,
 * FuelEU and UK ETS features' figures. A regime without a figure answers "not available" with the reason, never a
 * figure of its own.
 */

export type ShipRegimes = Record<CockpitRegime, RegimeEuros>;

const ONE = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

const EUR = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR', maximumFractionDigits: 2 });

/**
 * EU ETS: the allowances due this year and projected (phase-in included), in euros at the allowance price the EU ETS
 * feature uses (its ship's organization's latest on or before the price day).
 */
async function euEts(
  db: Kysely<Database>,
  shipId: string,
  year: number,
  priceDay: string,
): Promise<RegimeEuros> {
  const eu = await euShipYear(db, shipId, year, priceDay);
  const f = eu.figures;
  if (f.eur === null || !eu.price)
    return {
      available: false,
      reason: `No EU allowance price entered on or before ${formatDate(`${priceDay}T00:00:00Z`)}: ${ONE.format(f.allowancesDue)} allowances due so far.`,
    };
  return {
    available: true,
    eurToDate: f.eur,
    eurProjected: f.projectedEur,
    basis: `${ONE.format(f.allowancesDue)} allowances at ${EUR.format(eu.price.eurPerAllowance)} (${formatDate(`${eu.price.on}T00:00:00Z`)})`,
  };
}

/**
 * FuelEU: the penalty due on the final balance (after pooling, banking and borrowing), and the penalty of the balance
 * projected to the year's end. A surplus costs nothing: it is banked or pooled, not sold, so it has no euro value here.
 */
async function fuelEu(db: Kysely<Database>, shipId: string, year: number): Promise<RegimeEuros> {
  const f = await fuelEuShipYear(db, shipId, year);
  if (!f.applies) return { available: false, reason: 'FuelEU applies from 2025.' };
  if (f.actual.intensity === null)
    return {
      available: true,
      eurToDate: 0,
      eurProjected: 0,
      basis: 'No energy in the FuelEU scope this year',
    };
  return {
    available: true,
    eurToDate: f.penaltyEur,
    eurProjected: f.projected.penaltyEur,
    basis:
      f.finalBalanceTonnes >= 0
        ? `A surplus of ${ONE.format(f.finalBalanceTonnes)} t CO2e: no penalty`
        : `A deficit of ${ONE.format(-f.finalBalanceTonnes)} t CO2e`,
  };
}

/** UK ETS: the portal has the emissions to surrender for, no UK allowance price. */
async function ukEts(db: Kysely<Database>, shipId: string, year: number): Promise<RegimeEuros> {
  const { record } = await ukEtsForYear(db, shipId, year);
  if (!record.periodStart) return { available: false, reason: 'Maritime is in the UK ETS from 1 July 2026.' };
  return {
    available: false,
    reason: `No UK allowance price in the portal yet: ${ONE.format(record.surrender.co2e)} t CO2e to surrender for so far.`,
  };
}

/** The euros of each regime for each ship (by id) of the year. */
export async function regimeEurosOf(
  db: Kysely<Database>,
  shipIds: readonly string[],
  year: number,
  priceDay: string,
): Promise<Map<string, ShipRegimes>> {
  const out = new Map<string, ShipRegimes>();
  for (const id of shipIds)
    out.set(id, {
      EU_ETS: await euEts(db, id, year, priceDay),
      FUELEU: await fuelEu(db, id, year),
      UK_ETS: await ukEts(db, id, year),
    });
  return out;
}

/**
 * The fleet's euros of a regime: the sum over the ships that have figures; when none has, their reason if it is the
 * same for all, else a pointer to the ships'.
 */
export function fleetRegime(ships: readonly RegimeEuros[]): RegimeEuros {
  const available = ships.filter((s): s is Extract<RegimeEuros, { available: true }> => s.available);
  if (!available.length) {
    const reasons = new Set(
      ships.map((s) => (s.available ? '' : s.reason)).filter((reason) => reason !== ''),
    );
    if (reasons.size === 1) return { available: false, reason: [...reasons][0]! };
    return {
      available: false,
      reason: ships.length ? 'No ship has a figure: each ship says why.' : 'No ship.',
    };
  }
  const projected = available.every((s) => s.eurProjected !== null)
    ? available.reduce((sum, s) => sum + s.eurProjected!, 0)
    : null;
  return {
    available: true,
    eurToDate: available.reduce((sum, s) => sum + s.eurToDate, 0),
    eurProjected: projected,
    basis:
      available.length === ships.length
        ? `All ${ships.length} ships`
        : `${available.length} of ${ships.length} ships with figures`,
  };
}
