import { sql, type Kysely } from 'kysely';

/**
 * Issue 17: execution status and reports without stale reads.
 *
 * - `executions.counts`: what a finished run did (period's targets, samples read, fields computed, values written),
 *   for `GET /api/executions/{id}`.
 * - `reports_version`: one row that changes with everything report answers depend on: stored report values (every
 *   write of them ends with the daily roll-up, so report_values_daily's statements move it), report field
 *   calculations, report fields and reports. Statement triggers keep it, in the change's own transaction, so no
 *   code path can forget and a change made by hand in SQL counts too. Every report request reads this row (a
 *   primary key lookup), so a committed execution is seen by the very next report call in every process
 *   (docs/decisions/0061-delivery.md). The roll-up's trigger fires AFTER its statements: the row is locked at the
 *   end of an execution's replacing transaction, as the explicit bump did, so executions of different ships do
 *   not wait on each other for longer than before; the configuration tables' fire BEFORE (as access_version's:
 *   the version row is locked before any row of the statement).
 * - The old version key in `settings` (written by code until now) goes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE executions ADD COLUMN counts jsonb;

    CREATE TABLE reports_version (
      singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      version bigint NOT NULL
    );
    INSERT INTO reports_version (singleton, version) VALUES (true, 1);

    CREATE FUNCTION bump_reports_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE reports_version SET version = version + 1;
      RETURN NULL;
    END $$;

    CREATE TRIGGER report_values_daily_reports_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON report_values_daily FOR EACH STATEMENT EXECUTE FUNCTION bump_reports_version();
    CREATE TRIGGER report_field_calculations_reports_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON report_field_calculations FOR EACH STATEMENT EXECUTE FUNCTION bump_reports_version();
    CREATE TRIGGER report_fields_reports_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON report_fields FOR EACH STATEMENT EXECUTE FUNCTION bump_reports_version();
    CREATE TRIGGER reports_reports_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE
      ON reports FOR EACH STATEMENT EXECUTE FUNCTION bump_reports_version();

    DELETE FROM settings WHERE key = 'report_values_version';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TRIGGER report_values_daily_reports_version ON report_values_daily;
    DROP TRIGGER report_field_calculations_reports_version ON report_field_calculations;
    DROP TRIGGER report_fields_reports_version ON report_fields;
    DROP TRIGGER reports_reports_version ON reports;
    DROP FUNCTION bump_reports_version();
    DROP TABLE reports_version;
    ALTER TABLE executions DROP COLUMN counts;
  `.execute(db);
}
