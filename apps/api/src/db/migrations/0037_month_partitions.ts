import { sql, type Kysely } from 'kysely';
import {
  ARCHIVE_SCHEMA,
  createMonthPartition,
  defaultPartitionName,
  monthsWithRows,
  storedColumns,
  type PartitionedTable,
} from '../partitions';

/**
 * Month partitions of the large tables and retention per organization
 * (docs/decisions/0125-partitions-and-retention.md).
 *
 * Each table is converted in place, its rows kept: renamed aside, made again as a table PARTITION BY RANGE of its
 * time column with the same columns, a DEFAULT partition and one partition per month that has rows, filled from the
 * old one, which is dropped; keys, indexes, references and triggers are made after the copy (one check, not one per
 * row). A partitioned table's primary key must hold its partition key: measurement_values, report_values,
 * report_values_daily, report_values_monthly and stream_samples already had it (their day, hour, month or source
 * time is in the key); compliance_events' key becomes (id, start_on) and raw_timestamps' (facility_id, data_file_id,
 * time_stamp_min). The one ON CONFLICT on these tables (stream_samples' key, storage/samples.ts) keeps working. The one foreign key that pointed at them (compliance_event_annotations.event_id -> compliance_events.id)
 * cannot point at (id) any more: it is kept by triggers, as migration 0009 keeps report_values' references.
 *
 * - `organizations.retention_months` (at least 18: the 2021 EGCS Guidelines, MEPC.340(77), 7.4 "Data should be
 *   retained for a period of not less than 18 months from the date of recording", as reproduced by imorules.com,
 *   a secondary source) and `retention_expired` ('archive' by default; 'delete' only when an administrator sets it).
 * - `archived_months`: the months whose partitions are detached into the schema `portal_archive`, with who and why.
 */

const TABLES: (PartitionedTable & {
  primaryKey: string;
  /** References, indexes and triggers, made after the copy. */
  after: string;
})[] = [
  {
    table: 'measurement_values',
    column: 'day',
    kind: 'date',
    primaryKey: 'facility_id, measurement_field_id, day',
    after: `
      ALTER TABLE measurement_values ADD FOREIGN KEY (facility_id) REFERENCES facilities(id) ON DELETE CASCADE;
      ALTER TABLE measurement_values ADD FOREIGN KEY (measurement_field_id) REFERENCES measurement_fields(id) ON DELETE CASCADE;`,
  },
  {
    table: 'report_values',
    column: 'span_start',
    kind: 'timestamptz',
    primaryKey: 'facility_id, report_field_id, span_start',
    after: `
      CREATE TRIGGER report_values_references_on_insert AFTER INSERT ON report_values
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_values_check_references();
      CREATE TRIGGER report_values_references_on_update AFTER UPDATE ON report_values
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION report_values_check_references();`,
  },
  {
    table: 'report_values_daily',
    column: 'day',
    kind: 'date',
    primaryKey: 'facility_id, report_field_id, day',
    after: `
      ALTER TABLE report_values_daily ADD FOREIGN KEY (facility_id) REFERENCES facilities(id) ON DELETE CASCADE;
      ALTER TABLE report_values_daily ADD FOREIGN KEY (report_field_id) REFERENCES report_fields(id) ON DELETE CASCADE;
      CREATE TRIGGER report_values_daily_reports_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON report_values_daily
        FOR EACH STATEMENT EXECUTE FUNCTION bump_reports_version();`,
  },
  {
    // The monthly roll-up (migration 0036): its month is its partition, so an archived month takes its rows along.
    // The yearly roll-up is not partitioned (a year spans twelve months): storage/partitions.ts recomputes a year's
    // rows from the monthly ones online when one of its months is archived or restored.
    table: 'report_values_monthly',
    column: 'month',
    kind: 'date',
    primaryKey: 'facility_id, report_field_id, month',
    after: `
      ALTER TABLE report_values_monthly ADD FOREIGN KEY (facility_id) REFERENCES facilities(id) ON DELETE CASCADE;
      ALTER TABLE report_values_monthly ADD FOREIGN KEY (report_field_id) REFERENCES report_fields(id) ON DELETE CASCADE;`,
  },
  {
    table: 'compliance_events',
    column: 'start_on',
    kind: 'timestamptz',
    primaryKey: 'id, start_on',
    after: `
      ALTER TABLE compliance_events ADD FOREIGN KEY (facility_id) REFERENCES facilities(id) ON DELETE CASCADE;
      ALTER TABLE compliance_events ADD FOREIGN KEY (acknowledged_by) REFERENCES users(id) ON DELETE SET NULL;
      ALTER TABLE compliance_events ADD FOREIGN KEY (closed_by) REFERENCES users(id) ON DELETE SET NULL;
      CREATE INDEX compliance_events_facility_start ON compliance_events (facility_id, start_on);
      CREATE INDEX compliance_events_attention ON compliance_events (attention, start_on DESC, id);
      CREATE INDEX compliance_events_needing_attention ON compliance_events (type, start_on) WHERE attention <= 1;
      CREATE INDEX compliance_events_by_id ON compliance_events (id);

      -- The annotations' reference to their event, kept by triggers: an annotation names an event that exists
      -- (online or archived), and an event deleted takes its annotations along. An archived month's events keep
      -- theirs (a detach deletes nothing), and find them again when restored.
      CREATE FUNCTION compliance_event_annotations_check_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM compliance_events e WHERE e.id = n.event_id)) THEN
          RAISE EXCEPTION 'insert or update on table "compliance_event_annotations" violates its reference to compliance_events'
            USING ERRCODE = 'foreign_key_violation';
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER compliance_event_annotations_event_on_insert AFTER INSERT ON compliance_event_annotations
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION compliance_event_annotations_check_event();
      CREATE TRIGGER compliance_event_annotations_event_on_update AFTER UPDATE ON compliance_event_annotations
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION compliance_event_annotations_check_event();
      CREATE FUNCTION compliance_events_delete_annotations() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM compliance_event_annotations a USING old_rows o
          WHERE a.event_id = o.id AND NOT EXISTS (SELECT 1 FROM compliance_events e WHERE e.id = o.id);
        RETURN NULL;
      END $$;
      CREATE TRIGGER compliance_events_delete_annotations AFTER DELETE ON compliance_events
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION compliance_events_delete_annotations();`,
  },
  {
    table: 'raw_timestamps',
    column: 'time_stamp_min',
    kind: 'timestamptz',
    primaryKey: 'facility_id, data_file_id, time_stamp_min',
    after: `
      ALTER TABLE raw_timestamps ADD FOREIGN KEY (data_file_id) REFERENCES data_files(id) ON DELETE CASCADE;
      CREATE INDEX raw_timestamps_range_idx ON raw_timestamps (facility_id, time_stamp_min, time_stamp_max);
      CREATE INDEX raw_timestamps_file ON raw_timestamps (data_file_id);`,
  },
  {
    // The stream's samples (migration 0033): one row per sample, the largest table of a streaming ship. Its key holds
    // the source time already (a replayed sample still inserts nothing: ON CONFLICT on that key).
    table: 'stream_samples',
    column: 'source_time',
    kind: 'timestamptz',
    primaryKey: 'facility_id, data_source_id, channel, source_time',
    after: `
      ALTER TABLE stream_samples ADD FOREIGN KEY (facility_id) REFERENCES facilities(id) ON DELETE CASCADE;
      ALTER TABLE stream_samples ADD FOREIGN KEY (data_source_id) REFERENCES facility_data_sources(id) ON DELETE CASCADE;
      CREATE INDEX stream_samples_time_idx ON stream_samples (facility_id, source_time);`,
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE compliance_event_annotations DROP CONSTRAINT compliance_event_annotations_event_id_fkey;
  `.execute(db);
  for (const spec of TABLES) {
    const old = `${spec.table}_unpartitioned`;
    const { rows: indexes } = await sql<{ name: string }>`
      SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public' AND tablename = ${spec.table}`.execute(
      db,
    );
    await sql`ALTER TABLE ${sql.id(spec.table)} RENAME TO ${sql.id(old)}`.execute(db);
    for (const { name } of indexes)
      await sql`ALTER INDEX ${sql.id(name)} RENAME TO ${sql.id(`${name}_old`)}`.execute(db);
    await sql`
      CREATE TABLE ${sql.id(spec.table)}
        (LIKE ${sql.id(old)} INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING CONSTRAINTS)
        PARTITION BY RANGE (${sql.id(spec.column)})`.execute(db);
    await sql`CREATE TABLE ${sql.id(defaultPartitionName(spec.table))} PARTITION OF ${sql.id(spec.table)} DEFAULT`.execute(
      db,
    );
    for (const month of await monthsWithRows(db, old, spec)) await createMonthPartition(db, spec, month);
    const columns = sql.join((await storedColumns(db, old)).map((c) => sql.id(c)));
    await sql`INSERT INTO ${sql.id(spec.table)} (${columns}) SELECT ${columns} FROM ${sql.id(old)}`.execute(
      db,
    );
    await sql`DROP TABLE ${sql.id(old)}`.execute(db);
    await sql`ALTER TABLE ${sql.id(spec.table)} ADD PRIMARY KEY (${sql.raw(spec.primaryKey)})`.execute(db);
    await sql.raw(spec.after).execute(db);
  }
  await sql`
    CREATE SCHEMA IF NOT EXISTS ${sql.id(ARCHIVE_SCHEMA)};

    ALTER TABLE organizations
      ADD COLUMN retention_months integer NOT NULL DEFAULT 36 CHECK (retention_months BETWEEN 18 AND 1200),
      ADD COLUMN retention_expired text NOT NULL DEFAULT 'archive' CHECK (retention_expired IN ('archive', 'delete'));

    CREATE TABLE archived_months (
      month text PRIMARY KEY CHECK (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
      archived_on timestamptz NOT NULL DEFAULT now(),
      archived_by uuid REFERENCES users(id) ON DELETE SET NULL,
      reason text NOT NULL CHECK (reason IN ('retention', 'administrator')),
      tables text[] NOT NULL
    );
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0037_month_partitions cannot be undone: restore a backup taken before it');
}
