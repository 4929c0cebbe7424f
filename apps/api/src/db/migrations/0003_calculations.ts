import { sql, type Kysely } from 'kysely';

/**
 * Measurement fields (a catalogue shared by all ships) and their calculations per ship; reports, report
 * fields and their calculations (shared by all ships). A calculation is versioned: version.revision.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE measurement_fields (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      data_type text NOT NULL CHECK (data_type IN ('Double', 'Integer', 'UTCDateTime', 'Boolean', 'String')),
      unit text,
      documentation text,
      required_sample_interval_seconds integer NOT NULL DEFAULT 60,
      position integer NOT NULL DEFAULT 0,
      created_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX measurement_fields_name_key ON measurement_fields (lower(name));

    CREATE TABLE measurement_field_calculations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      measurement_field_id uuid NOT NULL REFERENCES measurement_fields(id) ON DELETE CASCADE,
      version integer NOT NULL DEFAULT 1,
      revision integer NOT NULL DEFAULT 0,
      comment text,
      documentation text,
      required_sample_interval_seconds integer NOT NULL DEFAULT 60,
      preload_interval_seconds integer NOT NULL DEFAULT 300,
      -- ids of the inputs: data source channels (data_source_channels.id) or measurement fields (measurement_fields.id)
      input_ids jsonb NOT NULL DEFAULT '[]',
      transform_algorithm text NOT NULL DEFAULT '',
      output_type text NOT NULL DEFAULT 'Double',
      quality_score integer NOT NULL DEFAULT 0,
      approved_on timestamptz,
      approved_by uuid,
      valid_from timestamptz,
      valid_to timestamptz,
      recalculation_requested_on timestamptz,
      recalculation_queued_on timestamptz,
      created_on timestamptz NOT NULL DEFAULT now(),
      updated_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX measurement_field_calculations_field_idx ON measurement_field_calculations (facility_id, measurement_field_id);

    -- A report; its id is its code (e.g. FacilityMarpolcompliance), used in reports/{id}/data.
    CREATE TABLE reports (
      id text PRIMARY KEY,
      name text NOT NULL,
      target text NOT NULL CHECK (target IN ('Facility', 'FacilityGroup')),
      documentation text,
      information text,
      position integer NOT NULL DEFAULT 0
    );

    CREATE TABLE report_fields (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      report_id text NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
      name text NOT NULL,
      position integer NOT NULL DEFAULT 0,
      as_lifetime boolean NOT NULL DEFAULT false,
      as_series boolean NOT NULL DEFAULT false,
      by_facility boolean NOT NULL DEFAULT false,
      facility_aggregate_type text NOT NULL DEFAULT 'Average',
      time_aggregate_type text NOT NULL DEFAULT 'Average',
      format text,
      format_note text,
      interface_type text,
      unit text,
      note text,
      documentation text
    );
    CREATE UNIQUE INDEX report_fields_name_key ON report_fields (report_id, name);

    CREATE TABLE report_field_calculations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      report_field_id uuid NOT NULL REFERENCES report_fields(id) ON DELETE CASCADE,
      version integer NOT NULL DEFAULT 1,
      revision integer NOT NULL DEFAULT 0,
      comment text,
      documentation text,
      algorithm_seconds_span integer NOT NULL DEFAULT 3600,
      -- ids of the measurement fields it reads
      input_ids jsonb NOT NULL DEFAULT '[]',
      transform_algorithm text NOT NULL DEFAULT '',
      quality_score integer NOT NULL DEFAULT 0,
      approved_on timestamptz,
      approved_by uuid,
      valid_from timestamptz,
      valid_to timestamptz,
      recalculation_requested_on timestamptz,
      recalculation_queued_on timestamptz,
      created_on timestamptz NOT NULL DEFAULT now(),
      updated_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX report_field_calculations_field_idx ON report_field_calculations (report_field_id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE report_field_calculations, report_fields, reports, measurement_field_calculations, measurement_fields CASCADE`.execute(
    db,
  );
}
