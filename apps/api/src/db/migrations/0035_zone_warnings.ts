import { sql, type Kysely } from 'kysely';

/**
 * Zone warnings before arrival (docs/decisions/0123-zone-warnings.md).
 *
 * - `zone_warnings`: one row per ship, zone and approach: raised when the ship's track ahead enters a zone that bans
 *   its mode within the horizon, updated (entry time and place) while the approach lasts, cleared (with why) when the
 *   ship turns away, switches mode, arrives or has no current position. At most one active row per ship, zone and
 *   mode (the partial unique index), so an evaluation that runs again raises nothing twice.
 * - `organization_zone_warning_settings`: an organization's horizon (none: 120 minutes).
 *
 * Zone warnings alert through the alert outbox (`alerts`, kind 'zone-warning', its `event_id` the warning's id:
 * that column has no reference, docs/decisions/0091-alerts.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE zone_warnings (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      zone_kind text NOT NULL,
      zone_name text NOT NULL,
      mode text NOT NULL,
      text text NOT NULL,
      entry_at timestamptz NOT NULL,
      entry_latitude double precision NOT NULL,
      entry_longitude double precision NOT NULL,
      minutes double precision NOT NULL,
      course_deg double precision NOT NULL,
      speed_kn double precision NOT NULL,
      raised_on timestamptz NOT NULL DEFAULT now(),
      updated_on timestamptz NOT NULL DEFAULT now(),
      cleared_on timestamptz,
      clearance text
    );
    CREATE UNIQUE INDEX zone_warnings_active ON zone_warnings (facility_id, zone_kind, zone_name, mode)
      WHERE cleared_on IS NULL;
    CREATE INDEX zone_warnings_facility ON zone_warnings (facility_id, raised_on DESC);

    CREATE TABLE organization_zone_warning_settings (
      organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
      horizon_minutes integer NOT NULL CHECK (horizon_minutes BETWEEN 15 AND 720),
      updated_on timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE organization_zone_warning_settings;
    DROP TABLE zone_warnings;
  `.execute(db);
}
