import { sql, type Kysely } from 'kysely';

/**
 * Acknowledgement revisions (docs/decisions/0080-compliance-events.md, "What people add"): each acknowledgement of
 * an event, the first and every change after it, is kept as a revision numbered from 1 with its cause, actions taken,
 * comment, who and when. The event's own columns keep showing the latest. The revisions go with their event when the
 * engine withdraws it.
 *
 * The events acknowledged before get their revisions from the record book's "event-acknowledged" entries (each
 * acknowledgement was entered there, in order); an acknowledged event without such an entry gets its current
 * annotation as revision 1.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE compliance_event_annotations (
      event_id uuid NOT NULL REFERENCES compliance_events(id) ON DELETE CASCADE,
      revision integer NOT NULL CHECK (revision >= 1),
      cause text NOT NULL,
      actions_taken text NOT NULL,
      comment text NOT NULL,
      acknowledged_on timestamptz NOT NULL,
      acknowledged_by uuid REFERENCES users(id) ON DELETE SET NULL,
      PRIMARY KEY (event_id, revision)
    );

    INSERT INTO compliance_event_annotations
      (event_id, revision, cause, actions_taken, comment, acknowledged_on, acknowledged_by)
    SELECT r.event_id,
           row_number() OVER (PARTITION BY r.event_id ORDER BY r.sequence),
           r.body->>'cause',
           coalesce(r.body->>'actionsTaken', ''),
           coalesce(r.body->>'comment', ''),
           r.recorded_on,
           u.id
    FROM record_book_entries r
    JOIN compliance_events e ON e.id = r.event_id
    LEFT JOIN users u ON u.id = r.recorded_by
    WHERE r.kind = 'event-acknowledged' AND r.body->>'cause' IS NOT NULL;

    INSERT INTO compliance_event_annotations
      (event_id, revision, cause, actions_taken, comment, acknowledged_on, acknowledged_by)
    SELECT e.id, 1, e.cause, coalesce(e.actions_taken, ''), coalesce(e.comment, ''), e.acknowledged_on,
           e.acknowledged_by
    FROM compliance_events e
    WHERE e.acknowledged_on IS NOT NULL AND e.cause IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM compliance_event_annotations a WHERE a.event_id = e.id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE compliance_event_annotations`.execute(db);
}
