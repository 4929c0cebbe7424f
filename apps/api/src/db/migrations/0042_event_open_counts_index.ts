import { sql, type Kysely } from 'kysely';

/**
 * Issue 34 (5,000 ships on one deployment): the events list's counts of the events needing attention (GET
 * /api/events: `openByType`, `reportsDue`, `openByFacility`, features/events/queries.ts) read every such event of
 * the visible fleet overlapping the period, through `compliance_events_needing_attention` (type, start_on) and then
 * the table, one heap page per event: about 29,000 events on 19,000 pages for a year of 1,000 ships (0.5 s, most of
 * the list's time). This index holds every column the counts read, so they are read from the index alone (an
 * index-only scan: the table is visited only for pages changed since the last vacuum). It is keyed on `end_on`: the
 * period's lower bound (`end_on >= from`) then bounds the scan in every month partition, the upper one
 * (`start_on < to`) prunes the partitions after the period, so a month partition before the period costs one
 * descent instead of all its events (the old key, on `start_on`, scanned every event since the first one). It
 * replaces `compliance_events_needing_attention`, which nothing else read (docs/decisions/0137-events-list-counts.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    DROP INDEX compliance_events_needing_attention;
    CREATE INDEX compliance_events_open_counts ON compliance_events (end_on)
      INCLUDE (start_on, facility_id, type, classification, report_required, report_sent_on)
      WHERE attention <= 1;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP INDEX compliance_events_open_counts;
    CREATE INDEX compliance_events_needing_attention ON compliance_events (type, start_on) WHERE attention <= 1;
  `.execute(db);
}
