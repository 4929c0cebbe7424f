import { sql, type Kysely } from 'kysely';

/**
 * FuelEU Maritime's records (Regulation (EU) 2023/1805 Art. 20 and 21; docs/decisions/0113-fueleu.md). The figures
 * (energy in scope, intensity, balance, penalty) are computed from the carbon ledger when asked; only what a
 * company decides is kept:
 *
 * - `fueleu_flexibility`: per ship and year, the surplus banked to the next year and the advance surplus borrowed
 *   from it (t CO2e), who set them and when.
 * - `fueleu_pools`: an organization's pool of a year; `fueleu_pool_members`: its ships with what the pool allocates
 *   to each (t CO2e). A ship is in at most one pool per year (Art. 21(1)): the unique key on (facility, year).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE fueleu_flexibility (
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      year integer NOT NULL,
      banked_tonnes double precision NOT NULL DEFAULT 0 CHECK (banked_tonnes >= 0),
      borrowed_tonnes double precision NOT NULL DEFAULT 0 CHECK (borrowed_tonnes >= 0),
      updated_by uuid REFERENCES users(id) ON DELETE SET NULL,
      updated_by_name text NOT NULL,
      updated_on timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (facility_id, year),
      CHECK (banked_tonnes = 0 OR borrowed_tonnes = 0)
    );

    CREATE TABLE fueleu_pools (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      year integer NOT NULL,
      name text NOT NULL,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_by_name text NOT NULL,
      created_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX fueleu_pools_organization_idx ON fueleu_pools (organization_id, year);

    CREATE TABLE fueleu_pool_members (
      pool_id uuid NOT NULL REFERENCES fueleu_pools(id) ON DELETE CASCADE,
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      year integer NOT NULL,
      allocated_tonnes double precision NOT NULL,
      PRIMARY KEY (pool_id, facility_id),
      UNIQUE (facility_id, year)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE fueleu_pool_members;
    DROP TABLE fueleu_pools;
    DROP TABLE fueleu_flexibility;
  `.execute(db);
}
