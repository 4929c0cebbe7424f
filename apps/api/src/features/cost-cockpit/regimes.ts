import type { Kysely } from 'kysely';
import type { CockpitRegime, RegimeEuros } from '@portal/contracts/cost-cockpit';
import type { Database } from '../../db/schema';

/**
 * The regimes' euros of a ship and year, for the cockpit (decision 0119): the one place that reads the EU ETS,
 * FuelEU and UK ETS features' figures. A regime whose figures are not in the portal answers "not available" with
 * the reason, never a figure of its own.
 */

export type ShipRegimes = Record<CockpitRegime, RegimeEuros>;

const notYet = (what: string): RegimeEuros => ({
  available: false,
  reason: `${what} are not in the portal yet.`,
});

/** The euros of each regime for each ship (by id) of the year, as the caller's organization prices them. */
export async function regimeEurosOf(
  _db: Kysely<Database>,
  shipIds: readonly string[],
  _year: number,
  _priceDay: string,
): Promise<Map<string, ShipRegimes>> {
  return new Map(
    shipIds.map((id) => [
      id,
      {
        EU_ETS: notYet('EU ETS figures'),
        FUELEU: notYet('FuelEU figures'),
        UK_ETS: notYet('UK ETS figures'),
      },
    ]),
  );
}

/** The fleet's euros of a regime: the sum over the ships that have figures, or the ships' reason when none has. */
export function fleetRegime(ships: readonly RegimeEuros[]): RegimeEuros {
  const available = ships.filter((s): s is Extract<RegimeEuros, { available: true }> => s.available);
  if (!available.length) {
    const first = ships.find((s): s is Extract<RegimeEuros, { available: false }> => !s.available);
    return { available: false, reason: first?.reason ?? 'No ship.' };
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
