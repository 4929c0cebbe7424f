import { sql, type Kysely } from 'kysely';

/**
 * Issue 34 (50 users on a 1,000-ship fleet while data arrives): a values version per ship. The reports version
 * (migration 0012) moves on every change of any ship's values, so every cached aggregation of a fleet was thrown
 * away at every arrival and recomputed for all its ships (0.3 s at 1,000 ships, and overlapping recomputations
 * piled up behind each other at two arrivals a second). With a version per ship, the fleet's partial sums are
 * cached per ship (features/reports/values.ts) and only the ships whose version moved are read again
 * (docs/decisions/0136-fleet-partials-per-ship.md).
 *
 * The daily roll-up is the choke point every change of a ship's report values passes through in the change's own
 * transaction (storage/report-values-daily.ts refreshes it after every write and delete of `report_values`; the
 * monthly and yearly roll-ups are made from it), so statement triggers on it, with the changed rows as transition
 * tables (one trigger per event: PostgreSQL allows transition tables only there), bump the version of each ship
 * whose rows changed. A TRUNCATE, and a month partition detached or attached (storage/partitions.ts), bump every
 * ship's. Ships with values before this migration start at version 1; a ship without a row is at 0.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE ship_values_versions (
      facility_id uuid PRIMARY KEY REFERENCES facilities(id) ON DELETE CASCADE,
      version bigint NOT NULL
    );
    INSERT INTO ship_values_versions (facility_id, version)
      SELECT DISTINCT facility_id, 1 FROM report_values_daily;
    CREATE FUNCTION bump_ship_values_versions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ship_values_versions AS v (facility_id, version)
        SELECT DISTINCT c.facility_id, 1 FROM changed_rows c JOIN facilities f ON f.id = c.facility_id
        ON CONFLICT (facility_id) DO UPDATE SET version = v.version + 1;
      RETURN NULL;
    END $$;
    CREATE FUNCTION bump_all_ship_values_versions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE ship_values_versions SET version = version + 1;
      RETURN NULL;
    END $$;
    CREATE TRIGGER report_values_daily_ship_versions_on_insert AFTER INSERT ON report_values_daily
      REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_ship_values_versions();
    CREATE TRIGGER report_values_daily_ship_versions_on_update AFTER UPDATE ON report_values_daily
      REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_ship_values_versions();
    CREATE TRIGGER report_values_daily_ship_versions_on_delete AFTER DELETE ON report_values_daily
      REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_ship_values_versions();
    CREATE TRIGGER report_values_daily_ship_versions_on_truncate AFTER TRUNCATE ON report_values_daily
      FOR EACH STATEMENT EXECUTE FUNCTION bump_all_ship_values_versions();
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TRIGGER report_values_daily_ship_versions_on_insert ON report_values_daily;
    DROP TRIGGER report_values_daily_ship_versions_on_update ON report_values_daily;
    DROP TRIGGER report_values_daily_ship_versions_on_delete ON report_values_daily;
    DROP TRIGGER report_values_daily_ship_versions_on_truncate ON report_values_daily;
    DROP FUNCTION bump_ship_values_versions();
    DROP FUNCTION bump_all_ship_values_versions();
    DROP TABLE ship_values_versions;
  `.execute(db);
}
