import { sql, type Kysely } from 'kysely';

/**
 * The flag/port State report as sent (docs/decisions/0104-sent-reports.md): each revision of an event's report, with
 * the fields as made and, once marked sent, the fields, the PDF and its SHA-256 as sent. A sent revision is never
 * changed or removed (a trigger refuses it; only the removal of the ship takes its revisions with it): a correction
 * is the next revision. `event_id` has no foreign key, so a report sent for an event the engine later withdraws
 * stays; `created_by` and `sent_by` none either (a person's name is kept beside the id, as in the record book).
 *
 * Reports marked sent before this migration become revision 1, sent, without a PDF (none was kept).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE event_report_revisions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      event_id uuid NOT NULL,
      revision integer NOT NULL CHECK (revision >= 1),
      reason text,
      report jsonb NOT NULL,
      created_on timestamptz NOT NULL DEFAULT now(),
      created_by uuid,
      created_by_name text,
      sent_on date,
      sent_by uuid,
      sent_by_name text,
      sent_recorded_on timestamptz,
      pdf bytea,
      sha256 text,
      UNIQUE (event_id, revision),
      CHECK ((pdf IS NULL) = (sha256 IS NULL)),
      CHECK (sent_on IS NOT NULL OR pdf IS NULL)
    );
    CREATE INDEX event_report_revisions_facility ON event_report_revisions (facility_id);

    CREATE FUNCTION event_report_revisions_sent_stays() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.sent_on IS NULL THEN
        RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
      END IF;
      -- The ship's removal cascades: its reports go with it. Anything else is refused.
      IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM facilities WHERE id = OLD.facility_id) THEN
        RETURN OLD;
      END IF;
      RAISE EXCEPTION 'A sent report is kept as it was sent: a correction is a new revision';
    END $$;
    CREATE TRIGGER event_report_revisions_sent_stays BEFORE UPDATE OR DELETE ON event_report_revisions
      FOR EACH ROW EXECUTE FUNCTION event_report_revisions_sent_stays();

    INSERT INTO event_report_revisions
      (facility_id, event_id, revision, report, created_on, created_by, created_by_name,
       sent_on, sent_by, sent_by_name, sent_recorded_on)
    SELECT e.facility_id, e.id, 1, coalesce(e.report, '{}'::jsonb),
           coalesce(b.recorded_on, e.report_sent_on::timestamptz), b.recorded_by, b.recorded_by_name,
           e.report_sent_on, b.recorded_by, b.recorded_by_name, b.recorded_on
    FROM compliance_events e
    LEFT JOIN LATERAL (
      SELECT r.recorded_on, r.recorded_by, r.recorded_by_name FROM record_book_entries r
      WHERE r.event_id = e.id AND r.kind = 'report-sent' ORDER BY r.sequence DESC LIMIT 1
    ) b ON true
    WHERE e.report_sent_on IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TRIGGER event_report_revisions_sent_stays ON event_report_revisions;
    DROP TABLE event_report_revisions;
    DROP FUNCTION event_report_revisions_sent_stays();
  `.execute(db);
}
