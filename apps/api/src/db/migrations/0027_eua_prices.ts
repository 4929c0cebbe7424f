import { sql, type Kysely } from 'kysely';

/**
 * EU ETS allowance prices (issue "Step 5 of 7", EU part; docs/decisions/0112-eu-ets.md): the price of one EU
 * allowance (EUA, one tonne of CO2e) an organization enters, with the day it holds from. The EU ETS answers turn
 * allowances due into euros at the latest price on or before the day asked. One price per organization and day (a
 * second entry for the same day replaces the first, audited). Entered, never fetched: no price feed at runtime.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE eua_prices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      price_on date NOT NULL,
      eur_per_allowance double precision NOT NULL CHECK (eur_per_allowance > 0),
      note text,
      entered_by uuid REFERENCES users(id) ON DELETE SET NULL,
      entered_by_name text NOT NULL,
      entered_on timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, price_on)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE eua_prices;`.execute(db);
}
