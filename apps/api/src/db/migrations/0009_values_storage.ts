import { sql, type Kysely } from 'kysely';

/**
 * Storage of computed values (docs/decisions/0050-storage-performance.md):
 *
 * - Measurement field day chunks are packed or plain doubles (storage/packed.ts), which pglz cannot shrink:
 *   EXTERNAL skips PostgreSQL's compression attempt on every chunk, as 0007 did for the raw columns.
 * - report_values: the two foreign keys checked every inserted row one by one (a ship-year is 359,160 rows; the
 *   checks took 85% of the insert: 7.1 s against 0.95 s without them). The same rules are now kept per statement:
 *   after an insert or update, the ships and report fields the new rows name are locked as a foreign key locks
 *   them (FOR KEY SHARE) and must exist (else SQLSTATE 23503, as a foreign key reports it); deleting a ship or a
 *   report field deletes its report values (the ON DELETE CASCADE they had).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE measurement_values ALTER COLUMN timestamps SET STORAGE EXTERNAL;
    ALTER TABLE measurement_values ALTER COLUMN "values" SET STORAGE EXTERNAL;

    CREATE FUNCTION report_values_check_references() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      missing text;
    BEGIN
      PERFORM 1 FROM facilities f WHERE f.id IN (SELECT DISTINCT facility_id FROM new_rows) FOR KEY SHARE;
      PERFORM 1 FROM report_fields r WHERE r.id IN (SELECT DISTINCT report_field_id FROM new_rows) FOR KEY SHARE;
      SELECT n.facility_id::text INTO missing FROM (SELECT DISTINCT facility_id FROM new_rows) n
        WHERE NOT EXISTS (SELECT 1 FROM facilities f WHERE f.id = n.facility_id) LIMIT 1;
      IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'report_values names facility % which does not exist', missing USING ERRCODE = '23503';
      END IF;
      SELECT n.report_field_id::text INTO missing FROM (SELECT DISTINCT report_field_id FROM new_rows) n
        WHERE NOT EXISTS (SELECT 1 FROM report_fields r WHERE r.id = n.report_field_id) LIMIT 1;
      IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'report_values names report field % which does not exist', missing USING ERRCODE = '23503';
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER report_values_references_on_insert AFTER INSERT ON report_values
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_values_check_references();
    CREATE TRIGGER report_values_references_on_update AFTER UPDATE ON report_values
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_values_check_references();

    CREATE FUNCTION report_values_delete_of_facilities() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM report_values WHERE facility_id IN (SELECT id FROM old_rows);
      RETURN NULL;
    END $$;
    CREATE TRIGGER facilities_delete_report_values AFTER DELETE ON facilities
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_values_delete_of_facilities();

    CREATE FUNCTION report_values_delete_of_report_fields() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM report_values WHERE report_field_id IN (SELECT id FROM old_rows);
      RETURN NULL;
    END $$;
    CREATE TRIGGER report_fields_delete_report_values AFTER DELETE ON report_fields
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION report_values_delete_of_report_fields();

    ALTER TABLE report_values DROP CONSTRAINT report_values_facility_id_fkey;
    ALTER TABLE report_values DROP CONSTRAINT report_values_report_field_id_fkey;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TRIGGER report_values_references_on_insert ON report_values;
    DROP TRIGGER report_values_references_on_update ON report_values;
    DROP TRIGGER facilities_delete_report_values ON facilities;
    DROP TRIGGER report_fields_delete_report_values ON report_fields;
    DROP FUNCTION report_values_check_references();
    DROP FUNCTION report_values_delete_of_facilities();
    DROP FUNCTION report_values_delete_of_report_fields();
    ALTER TABLE report_values ADD CONSTRAINT report_values_facility_id_fkey FOREIGN KEY (facility_id) REFERENCES facilities(id) ON DELETE CASCADE;
    ALTER TABLE report_values ADD CONSTRAINT report_values_report_field_id_fkey FOREIGN KEY (report_field_id) REFERENCES report_fields(id) ON DELETE CASCADE;
    ALTER TABLE measurement_values ALTER COLUMN timestamps SET STORAGE EXTENDED;
    ALTER TABLE measurement_values ALTER COLUMN "values" SET STORAGE EXTENDED;
  `.execute(db);
}
