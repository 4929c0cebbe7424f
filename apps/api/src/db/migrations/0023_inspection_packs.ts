import { sql, type Kysely } from 'kysely';

/**
 * Inspection packs (docs/decisions/0106-inspection-packs.md): what a superintendent hands to a port State officer or
 * a flag surveyor for a ship and a period.
 *
 * - `inspection_packs`: one per request (or per ship and month of the monthly schedule): the period [from, to), the
 *   state of its build (queued -> building -> ready | failed) with its progress, and once ready the PDF's SHA-256 and
 *   the zip's size. A scheduled pack is one per ship and period, whoever scheduled it (the unique index).
 * - `inspection_pack_parts`: the zip (the PDF, the originals of the period and the manifest) in parts of 8 MB, in the
 *   database on both kinds, so every process of a scaled-out deployment serves it.
 * - `inspection_pack_schedules`: per ship and organization, the monthly pack of the previous calendar month e-mailed
 *   to its recipients (users of that organization who see the ship); `last_month` is the last month queued.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE inspection_pack_schedules (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      recipient_ids uuid[] NOT NULL,
      last_month text,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_on timestamptz NOT NULL DEFAULT now(),
      updated_on timestamptz NOT NULL DEFAULT now(),
      UNIQUE (facility_id, organization_id)
    );

    CREATE TABLE inspection_packs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      period_from timestamptz NOT NULL,
      period_to timestamptz NOT NULL,
      state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'building', 'ready', 'failed')),
      progress real NOT NULL DEFAULT 0,
      stage text,
      scheduled boolean NOT NULL DEFAULT false,
      requested_by uuid REFERENCES users(id) ON DELETE SET NULL,
      requested_by_name text,
      requested_on timestamptz NOT NULL DEFAULT now(),
      started_on timestamptz,
      finished_on timestamptz,
      pdf_sha256 text,
      pdf_bytes integer,
      zip_bytes bigint,
      originals integer,
      error text,
      CHECK (period_from < period_to)
    );
    CREATE INDEX inspection_packs_facility ON inspection_packs (facility_id, requested_on DESC);
    CREATE UNIQUE INDEX inspection_packs_scheduled ON inspection_packs (facility_id, period_from, period_to)
      WHERE scheduled;

    CREATE TABLE inspection_pack_parts (
      pack_id uuid NOT NULL REFERENCES inspection_packs(id) ON DELETE CASCADE,
      part integer NOT NULL,
      content bytea NOT NULL,
      PRIMARY KEY (pack_id, part)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE inspection_pack_parts;
    DROP TABLE inspection_packs;
    DROP TABLE inspection_pack_schedules;
  `.execute(db);
}
