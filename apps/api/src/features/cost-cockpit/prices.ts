import { sql, type Kysely } from 'kysely';
import type { FuelPrice, FuelPriceInput } from '@portal/contracts/cost-cockpit';
import type { Database } from '../../db/schema';
import { auditedChange } from '../audit/audit';
import type { Caller } from '../access/caller';

/**
 * The HSFO and VLSFO prices an organization enters (migration 0032, decision 0119): one per organization and day;
 * prices entered again for a day replace them. Each change is audited in its transaction.
 */

function pricesQuery(db: Kysely<Database>) {
  return db
    .selectFrom('fuel_prices')
    .select([
      'id',
      'organization_id',
      sql<string>`price_on::text`.as('price_on'),
      'hsfo_eur_per_tonne',
      'vlsfo_eur_per_tonne',
      'entered_by_name',
      'entered_on',
    ]);
}
type PriceRow = Awaited<ReturnType<ReturnType<typeof pricesQuery>['execute']>>[number];

const present = (r: PriceRow): FuelPrice => ({
  id: r.id,
  organizationId: r.organization_id,
  on: r.price_on,
  hsfoEurPerTonne: r.hsfo_eur_per_tonne,
  vlsfoEurPerTonne: r.vlsfo_eur_per_tonne,
  enteredBy: r.entered_by_name,
  enteredAt: new Date(r.entered_on).toISOString(),
});

/** An organization's fuel prices, the latest day first. */
export async function listFuelPrices(db: Kysely<Database>, organizationId: string): Promise<FuelPrice[]> {
  const rows = await pricesQuery(db)
    .where('organization_id', '=', organizationId)
    .orderBy('price_on', 'desc')
    .execute();
  return rows.map(present);
}

/** The latest prices entered on or before a day, or null. */
export async function fuelPriceOn(
  db: Kysely<Database>,
  organizationId: string,
  day: string,
): Promise<FuelPrice | null> {
  const row = await pricesQuery(db)
    .where('organization_id', '=', organizationId)
    .where('price_on', '<=', day)
    .orderBy('price_on', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? present(row) : null;
}

/** Enters the prices of a day (replacing those entered for the same day), audited. */
export async function setFuelPrice(
  db: Kysely<Database>,
  caller: Caller,
  organizationId: string,
  input: FuelPriceInput,
): Promise<FuelPrice> {
  const { id } = await auditedChange(
    db,
    caller,
    async (trx) => {
      const previous = await trx
        .selectFrom('fuel_prices')
        .select(['id', 'hsfo_eur_per_tonne', 'vlsfo_eur_per_tonne'])
        .where('organization_id', '=', organizationId)
        .where('price_on', '=', input.on)
        .executeTakeFirst();
      const values = {
        hsfo_eur_per_tonne: input.hsfoEurPerTonne,
        vlsfo_eur_per_tonne: input.vlsfoEurPerTonne,
        entered_by: caller.apiKey ? null : caller.userId,
        entered_by_name: caller.username,
        entered_on: new Date(),
      };
      if (previous) {
        await trx.updateTable('fuel_prices').set(values).where('id', '=', previous.id).execute();
        return {
          id: previous.id,
          replaced: { hsfo: previous.hsfo_eur_per_tonne, vlsfo: previous.vlsfo_eur_per_tonne },
        };
      }
      const row = await trx
        .insertInto('fuel_prices')
        .values({ organization_id: organizationId, price_on: input.on, ...values })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, replaced: null };
    },
    ({ id: priceId, replaced }) => ({
      action: 'cost-cockpit.fuel-price.set',
      subject: organizationId,
      detail: {
        priceId,
        on: input.on,
        hsfoEurPerTonne: input.hsfoEurPerTonne,
        vlsfoEurPerTonne: input.vlsfoEurPerTonne,
        replaced,
      },
    }),
  );
  const row = await pricesQuery(db).where('id', '=', id).executeTakeFirstOrThrow();
  return present(row);
}
