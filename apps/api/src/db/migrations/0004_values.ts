import { sql, type Kysely } from 'kysely';

/**
 * Computed values and the executions that compute them. Measurement field values are columnar chunks per
 * facility, field and UTC day; report values are one row per facility, report field and span, with a daily
 * roll-up for long periods.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE measurement_values (
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      measurement_field_id uuid NOT NULL REFERENCES measurement_fields(id) ON DELETE CASCADE,
      day date NOT NULL,
      row_count integer NOT NULL,
      timestamps bytea NOT NULL,
      "values" bytea NOT NULL,
      PRIMARY KEY (facility_id, measurement_field_id, day)
    );

    CREATE TABLE report_values (
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      report_field_id uuid NOT NULL REFERENCES report_fields(id) ON DELETE CASCADE,
      span_start timestamptz NOT NULL,
      value double precision,
      PRIMARY KEY (facility_id, report_field_id, span_start)
    );

    -- Daily roll-up of report_values (UTC days): sum and count of the non-null span values.
    CREATE TABLE report_values_daily (
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      report_field_id uuid NOT NULL REFERENCES report_fields(id) ON DELETE CASCADE,
      day date NOT NULL,
      value_sum double precision NOT NULL,
      value_count integer NOT NULL,
      value_min double precision,
      value_max double precision,
      span_count integer NOT NULL,
      PRIMARY KEY (facility_id, report_field_id, day)
    );

    CREATE TABLE executions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('execute', 'recalculation')),
      period_from timestamptz NOT NULL,
      period_to timestamptz NOT NULL,
      data_file_ids jsonb NOT NULL DEFAULT '[]',
      detail jsonb,
      state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
      requested_by uuid,
      requested_on timestamptz NOT NULL DEFAULT now(),
      started_on timestamptz,
      finished_on timestamptz,
      attempts integer NOT NULL DEFAULT 0,
      error text,
      job_id text
    );
    CREATE INDEX executions_state_idx ON executions (state, facility_id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE executions, report_values_daily, report_values, measurement_values CASCADE`.execute(
    db,
  );
}
