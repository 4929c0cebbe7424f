import { sql, type Kysely } from 'kysely';
import type { CockpitShip, CostCockpit, FuelPrice } from '@portal/contracts/cost-cockpit';
import { dayOf, projectToYearEnd, scrubberEconomics } from '@portal/contracts/rules/carbon';
import type { Database } from '../../db/schema';
import { readLedgerSegments } from '../../storage';
import type { Caller } from '../access/caller';
import { facilityVisibleTo } from '../access/policy';
import { sumSegments } from '../executions/ledger-segments';
import { fuelPriceOn } from './prices';
import { fleetRegime, regimeEurosOf } from './regimes';

const DAY_MS = 86_400_000;

/** A ship's year from the carbon ledger: HFO and the scrubber's fuel, in tonnes, and the days with data. */
async function shipFuelYear(db: Kysely<Database>, facilityId: string, year: number) {
  const from = Date.UTC(year, 0, 1);
  const to = Date.UTC(year + 1, 0, 1);
  const segments = await readLedgerSegments(db, facilityId, from, to);
  const totals = sumSegments(segments);
  const days = new Set(segments.map((s) => s.day));
  const lastDay = segments.length ? Math.max(...segments.map((s) => s.day)) : null;
  return {
    hsfoTonnes: totals.fuel.filter((f) => f.fuelType === 'HFO').reduce((sum, f) => sum + f.kg, 0) / 1000,
    penaltyTonnes: totals.scrubberKg / 1000,
    daysWithData: days.size,
    daysRemaining: lastDay === null ? 0 : Math.round((to - (lastDay + DAY_MS)) / DAY_MS),
  };
}

function shipEconomics(
  fuel: Awaited<ReturnType<typeof shipFuelYear>>,
  price: FuelPrice | null,
): Pick<CockpitShip, 'scrubber' | 'scrubberMissing'> {
  if (!price)
    return {
      scrubber: null,
      scrubberMissing: 'No fuel prices entered: enter the HSFO and VLSFO prices to see the savings.',
    };
  if (fuel.daysWithData === 0)
    return { scrubber: null, scrubberMissing: 'No fuel in the carbon ledger for this year yet.' };
  const e = scrubberEconomics(fuel, price);
  const projectedNet = projectToYearEnd(e.netEur, fuel.daysWithData, fuel.daysRemaining);
  return {
    scrubber: {
      hsfoTonnes: fuel.hsfoTonnes,
      penaltyTonnes: fuel.penaltyTonnes,
      fuelSavedEur: e.fuelSavedEur,
      penaltyEur: e.penaltyEur,
      netEur: e.netEur,
      projectedNetEur: projectedNet,
      paying: e.paying,
      projectedPaying: projectedNet === null ? null : projectedNet > 0,
    },
    scrubberMissing: null,
  };
}

/**
 * The cost cockpit of a year (decision 0119): every ship the caller sees, its euros per regime this year and
 * projected (regimes.ts) beside its scrubber's economics at the fuel prices of the caller's organization (the latest
 * entered on or before today, or before the year's end for a year that is over).
 */
export async function costCockpit(
  db: Kysely<Database>,
  caller: Caller,
  year: number,
  now = Date.now(),
): Promise<CostCockpit> {
  const today = dayOf(now);
  const priceDay = today < `${year}-12-31` ? today : `${year}-12-31`;
  const ships = await db
    .selectFrom('facilities')
    .select(['id', 'name'])
    .where(facilityVisibleTo(db, caller, sql.ref('facilities.id')))
    .orderBy('name')
    .execute();
  const price = await fuelPriceOn(db, caller.organizationId, priceDay);
  const regimes = await regimeEurosOf(
    db,
    ships.map((s) => s.id),
    year,
    priceDay,
  );
  const rows: CockpitShip[] = [];
  for (const ship of ships) {
    const fuel = await shipFuelYear(db, ship.id, year);
    rows.push({
      shipId: ship.id,
      shipName: ship.name,
      daysWithData: fuel.daysWithData,
      regimes: regimes.get(ship.id)!,
      ...shipEconomics(fuel, price),
    });
  }
  const withScrubber = rows.filter((r) => r.scrubber);
  const sum = (values: (number | null)[]) =>
    values.some((v) => v === null) ? null : values.reduce<number>((s, v) => s + v!, 0);
  return {
    year,
    today,
    fuelPrice: price,
    ships: rows,
    fleet: {
      regimes: {
        EU_ETS: fleetRegime(rows.map((r) => r.regimes.EU_ETS)),
        FUELEU: fleetRegime(rows.map((r) => r.regimes.FUELEU)),
        UK_ETS: fleetRegime(rows.map((r) => r.regimes.UK_ETS)),
      },
      scrubberNetEur: withScrubber.length ? sum(withScrubber.map((r) => r.scrubber!.netEur)) : null,
      scrubberProjectedNetEur: withScrubber.length
        ? sum(withScrubber.map((r) => r.scrubber!.projectedNetEur))
        : null,
    },
  };
}
