import { sql, type Kysely } from 'kysely';

/**
 * Data sources, channel mappings, data files and the raw samples. Samples are columnar chunks
 * (ARCHITECTURE section 4): per file its timestamps once, per file and channel the values, as
 * little-endian Float64Array bytes (NaN = missing). Every time-series table starts its key with facility_id.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE facility_data_sources (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      name text NOT NULL,
      note text,
      is_primary boolean NOT NULL DEFAULT false,
      reader_id text NOT NULL,
      reader_configuration text NOT NULL,
      measure_frequency_seconds integer NOT NULL CHECK (measure_frequency_seconds > 0),
      utc_offset_minutes integer NOT NULL DEFAULT 0,
      sample_file_name text,
      sample_file bytea,
      -- Raw channels parsed from the sample file (channel, description, dataType, unit, decimals, min/max, minscale/maxscale).
      sample_channels jsonb,
      created_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX facility_data_sources_name_key ON facility_data_sources (facility_id, lower(name));
    CREATE UNIQUE INDEX facility_data_sources_one_primary ON facility_data_sources (facility_id) WHERE is_primary;

    -- A raw channel mapped to a name the calculations use, or a custom channel (is_custom).
    CREATE TABLE data_source_channels (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      data_source_id uuid NOT NULL REFERENCES facility_data_sources(id) ON DELETE CASCADE,
      source text NOT NULL,
      name text NOT NULL,
      data_type text NOT NULL CHECK (data_type IN ('Double', 'Integer', 'UTCDateTime', 'Boolean', 'String')),
      unit text,
      description text,
      quality_score integer NOT NULL DEFAULT 0 CHECK (quality_score BETWEEN 0 AND 5),
      is_custom boolean NOT NULL DEFAULT false,
      created_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX data_source_channels_name_key ON data_source_channels (data_source_id, lower(name));
    CREATE INDEX data_source_channels_facility_idx ON data_source_channels (facility_id);

    CREATE TABLE data_files (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      data_source_id uuid NOT NULL REFERENCES facility_data_sources(id) ON DELETE CASCADE,
      file_name text NOT NULL,
      content_sha256 text NOT NULL,
      byte_size bigint NOT NULL,
      row_count integer NOT NULL,
      time_stamp_min timestamptz NOT NULL,
      time_stamp_max timestamptz NOT NULL,
      imported_on timestamptz NOT NULL DEFAULT now(),
      imported_by uuid,
      -- false once the file's samples were deleted ("Also delete associated data" keeps nothing; plain delete removes the file row).
      has_samples boolean NOT NULL DEFAULT true
    );
    CREATE UNIQUE INDEX data_files_content_key ON data_files (data_source_id, content_sha256);
    CREATE INDEX data_files_facility_time_idx ON data_files (facility_id, time_stamp_min, time_stamp_max);

    -- The original upload, kept for re-parsing and audit (gzip when compression = 'gzip').
    CREATE TABLE data_file_originals (
      facility_id uuid NOT NULL,
      data_file_id uuid NOT NULL REFERENCES data_files(id) ON DELETE CASCADE,
      compression text NOT NULL DEFAULT 'none',
      content bytea NOT NULL,
      PRIMARY KEY (facility_id, data_file_id)
    );

    CREATE TABLE raw_timestamps (
      facility_id uuid NOT NULL,
      data_file_id uuid NOT NULL REFERENCES data_files(id) ON DELETE CASCADE,
      time_stamp_min timestamptz NOT NULL,
      time_stamp_max timestamptz NOT NULL,
      row_count integer NOT NULL,
      timestamps bytea NOT NULL,
      PRIMARY KEY (facility_id, data_file_id)
    );
    CREATE INDEX raw_timestamps_range_idx ON raw_timestamps (facility_id, time_stamp_min, time_stamp_max);

    CREATE TABLE raw_values (
      facility_id uuid NOT NULL,
      data_file_id uuid NOT NULL REFERENCES data_files(id) ON DELETE CASCADE,
      channel text NOT NULL,
      data_type text NOT NULL,
      "values" bytea NOT NULL,
      PRIMARY KEY (facility_id, data_file_id, channel)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE raw_values, raw_timestamps, data_file_originals, data_files, data_source_channels, facility_data_sources CASCADE`.execute(
    db,
  );
}
