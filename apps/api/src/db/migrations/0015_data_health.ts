import { sql, type Kysely } from 'kysely';

/**
 * Data health (issue 17, docs/decisions/0071-data-health.md): the warnings of each uploaded file, kept with it; the
 * thresholds per organization and measurement field (absent: the defaults of packages/contracts data-health.ts);
 * and per ship the summary the ship list's badge shows, with the fingerprint of what it was computed from (files,
 * mappings, thresholds), so a stale one is recomputed when read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE data_files ADD COLUMN warnings jsonb NOT NULL DEFAULT '[]'::jsonb;

    CREATE TABLE data_health_thresholds (
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      field_name text NOT NULL,
      min double precision,
      max double precision,
      stale_hours double precision CHECK (stale_hours > 0),
      flat_line_hours double precision CHECK (flat_line_hours > 0),
      updated_on timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, field_name),
      CHECK (min IS NULL OR max IS NULL OR min <= max)
    );

    CREATE TABLE data_health_summaries (
      facility_id uuid PRIMARY KEY REFERENCES facilities(id) ON DELETE CASCADE,
      fingerprint text NOT NULL,
      summary jsonb NOT NULL,
      computed_on timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE data_health_summaries;
    DROP TABLE data_health_thresholds;
    ALTER TABLE data_files DROP COLUMN warnings;
  `.execute(db);
}
