import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { EuaPrice, EuaPriceInput } from '@portal/contracts/eu-ets';
import type { Database } from '../../db/schema';
import { notFound } from '../../errors';
import { auditedChange } from '../audit/audit';
import type { Caller } from '../access/caller';
import { isUuid } from '../access/policy';

/**
 * EU allowance prices an organization enters (migration 0027, docs/decisions/0112-eu-ets.md): one per organization
 * and day; a price entered again for a day replaces it. Each change is audited in its transaction.
 */

function pricesQuery(db: Kysely<Database>) {
  return db
    .selectFrom('eua_prices')
    .select([
      'id',
      'organization_id',
      sql<string>`price_on::text`.as('price_on'),
      'eur_per_allowance',
      'note',
      'entered_by_name',
      'entered_on',
    ]);
}
type PriceRow = Awaited<ReturnType<ReturnType<typeof pricesQuery>['execute']>>[number];

const present = (r: PriceRow): EuaPrice => ({
  id: r.id,
  organizationId: r.organization_id,
  on: r.price_on,
  eurPerAllowance: r.eur_per_allowance,
  note: r.note,
  enteredBy: r.entered_by_name,
  enteredAt: new Date(r.entered_on).toISOString(),
});

/** An organization's prices, the latest day first. */
export async function listPrices(db: Kysely<Database>, organizationId: string): Promise<EuaPrice[]> {
  const rows = await pricesQuery(db)
    .where('organization_id', '=', organizationId)
    .orderBy('price_on', 'desc')
    .execute();
  return rows.map(present);
}

/** One price by id (any organization's: the caller checks it), or 404. */
export async function findPrice(db: Kysely<Database>, id: string): Promise<EuaPrice> {
  const row = isUuid(id) ? await pricesQuery(db).where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw notFound('Allowance price not found');
  return present(row);
}

/** Enters the price of a day (replacing one entered for the same day), audited. */
export async function setPrice(
  db: Kysely<Database>,
  caller: Caller,
  organizationId: string,
  input: EuaPriceInput,
): Promise<EuaPrice> {
  const id = await auditedChange(
    db,
    caller,
    async (trx) => {
      const previous = await trx
        .selectFrom('eua_prices')
        .select(['id', 'eur_per_allowance'])
        .where('organization_id', '=', organizationId)
        .where('price_on', '=', input.on)
        .executeTakeFirst();
      const values = {
        eur_per_allowance: input.eurPerAllowance,
        note: input.note,
        entered_by: caller.apiKey ? null : caller.userId,
        entered_by_name: caller.username,
        entered_on: new Date(),
      };
      if (previous) {
        await trx.updateTable('eua_prices').set(values).where('id', '=', previous.id).execute();
        return { id: previous.id, replaced: previous.eur_per_allowance };
      }
      const row = await trx
        .insertInto('eua_prices')
        .values({ organization_id: organizationId, price_on: input.on, ...values })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: row.id, replaced: null };
    },
    ({ id: priceId, replaced }) => ({
      action: 'eu-ets.price.set',
      subject: organizationId,
      detail: { priceId, on: input.on, eurPerAllowance: input.eurPerAllowance, replaced },
    }),
  );
  return findPrice(db, id.id);
}

/** Removes a price entered by mistake, audited. */
export async function removePrice(db: Kysely<Database>, caller: Caller, price: EuaPrice): Promise<void> {
  await auditedChange(
    db,
    caller,
    async (trx) => {
      await trx.deleteFrom('eua_prices').where('id', '=', price.id).execute();
    },
    {
      action: 'eu-ets.price.remove',
      subject: price.organizationId,
      detail: { priceId: price.id, on: price.on, eurPerAllowance: price.eurPerAllowance },
    },
  );
}
