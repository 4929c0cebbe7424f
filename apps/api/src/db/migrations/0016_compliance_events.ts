import { sql, type Kysely } from 'kysely';

/**
 * Compliance events and the EGCS record book (docs/decisions/0080-compliance-events.md).
 *
 * - `compliance_events`: the events the engine derives per ship, replaced period by period (a rerun matches the
 *   events it derives again to the stored ones by type and overlap, so ids and what people added stay), with the
 *   annotations people add (acknowledgement, cause, actions, comment, closure, the flag/port State report).
 * - `record_book_entries`: the ship's record book, append-only: a trigger refuses UPDATE and DELETE (only the
 *   removal of the ship itself takes its book with it); each entry's hash covers the entry and the previous hash.
 * - `organization_event_rules`: an organization's thresholds, where they differ from the defaults.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE compliance_events (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      type text NOT NULL,
      start_on timestamptz NOT NULL,
      end_on timestamptz NOT NULL,
      ongoing boolean NOT NULL DEFAULT false,
      worst_value double precision,
      limit_value double precision,
      start_latitude double precision,
      start_longitude double precision,
      end_latitude double precision,
      end_longitude double precision,
      classification text,
      report_required boolean NOT NULL DEFAULT false,
      channel text,
      fault text,
      rules jsonb NOT NULL,
      derived_on timestamptz NOT NULL DEFAULT now(),
      acknowledged_on timestamptz,
      acknowledged_by uuid REFERENCES users(id) ON DELETE SET NULL,
      cause text,
      actions_taken text,
      comment text,
      closed_on timestamptz,
      closed_by uuid REFERENCES users(id) ON DELETE SET NULL,
      report jsonb,
      report_sent_on date,
      -- The list's order (docs/decisions/0080): 0 report due, 1 open and needing attention (malfunction, repeated,
      -- data gap, sensor fault), 2 open and informational (transients, ECA entry and exit), 3 acknowledged, 4 closed.
      attention smallint GENERATED ALWAYS AS (
        CASE
          WHEN closed_on IS NOT NULL THEN 4
          WHEN report_required AND report_sent_on IS NULL THEN 0
          WHEN acknowledged_on IS NOT NULL THEN 3
          WHEN classification IN ('malfunction', 'repeated') OR type IN ('data-gap', 'sensor-fault') THEN 1
          ELSE 2
        END
      ) STORED
    );
    CREATE INDEX compliance_events_facility_start ON compliance_events (facility_id, start_on);
    CREATE INDEX compliance_events_attention ON compliance_events (attention, start_on DESC, id);
    CREATE INDEX compliance_events_needing_attention ON compliance_events (type, start_on) WHERE attention <= 1;

    CREATE TABLE record_book_entries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      sequence bigint NOT NULL,
      kind text NOT NULL,
      occurred_on timestamptz NOT NULL,
      recorded_on timestamptz NOT NULL,
      recorded_by uuid,
      recorded_by_name text NOT NULL,
      latitude double precision,
      longitude double precision,
      event_id uuid,
      corrects_id uuid REFERENCES record_book_entries(id),
      body jsonb NOT NULL,
      previous_hash text NOT NULL,
      hash text NOT NULL,
      UNIQUE (facility_id, sequence)
    );
    CREATE INDEX record_book_entries_event ON record_book_entries (event_id) WHERE event_id IS NOT NULL;

    CREATE FUNCTION record_book_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- The ship's removal cascades: its book goes with it. Anything else is refused.
      IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM facilities WHERE id = OLD.facility_id) THEN
        RETURN OLD;
      END IF;
      RAISE EXCEPTION 'The record book is append-only: a correction is a new entry';
    END $$;
    CREATE TRIGGER record_book_entries_append_only BEFORE UPDATE OR DELETE ON record_book_entries
      FOR EACH ROW EXECUTE FUNCTION record_book_append_only();

    CREATE TABLE organization_event_rules (
      organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
      rules jsonb NOT NULL,
      updated_on timestamptz NOT NULL DEFAULT now()
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE organization_event_rules;
    DROP TRIGGER record_book_entries_append_only ON record_book_entries;
    DROP TABLE record_book_entries;
    DROP FUNCTION record_book_append_only();
    DROP TABLE compliance_events;
  `.execute(db);
}
