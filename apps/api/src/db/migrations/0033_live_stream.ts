import { sql, type Kysely } from 'kysely';

/**
 * Live data over MQTT Sparkplug B (issue 33, docs/decisions/0120-live-sparkplug-host.md).
 *
 * - `data_source_channels.local_id`: a channel's ISO 19848-style local id (e.g.
 *   `/dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-temperature`), set where channels are mapped, exported with them and
 *   matched against a DBIRTH metric's `localId` property. Checked by packages/contracts/src/local-id.ts.
 * - `stream_samples`: the samples that arrived over the stream, one row per ship, data source, raw channel and source
 *   time (the key: a replayed or duplicated sample inserts nothing), with `is_historical` as the edge node sent it.
 *   Written and read only by storage/samples.ts.
 * - `stream_findings`: the stream's data health findings (a sample from the future, the clock going backwards, a
 *   sequence gap and its rebirth request, a payload that could not be read).
 * - `stream_links`: per ship, whether its edge node is online (NBIRTH) or not (NDEATH/DDEATH), and since when.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE data_source_channels ADD COLUMN local_id text;
    CREATE INDEX data_source_channels_local_id_idx ON data_source_channels (data_source_id, local_id)
      WHERE local_id IS NOT NULL;

    CREATE TABLE stream_samples (
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      data_source_id uuid NOT NULL REFERENCES facility_data_sources(id) ON DELETE CASCADE,
      channel text NOT NULL,
      source_time timestamptz NOT NULL,
      value double precision,
      is_historical boolean NOT NULL DEFAULT false,
      received_on timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (facility_id, data_source_id, channel, source_time)
    );
    CREATE INDEX stream_samples_time_idx ON stream_samples (facility_id, source_time);

    CREATE TABLE stream_findings (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      data_source_id uuid REFERENCES facility_data_sources(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('future', 'clockBackwards', 'sequenceGap', 'malformed')),
      source_time timestamptz,
      detail jsonb NOT NULL DEFAULT '{}'::jsonb,
      found_on timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX stream_findings_facility_idx ON stream_findings (facility_id, found_on);

    CREATE TABLE stream_links (
      facility_id uuid PRIMARY KEY REFERENCES facilities(id) ON DELETE CASCADE,
      online boolean NOT NULL,
      changed_on timestamptz NOT NULL DEFAULT now(),
      last_message_on timestamptz
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE stream_links;
    DROP TABLE stream_findings;
    DROP TABLE stream_samples;
    DROP INDEX data_source_channels_local_id_idx;
    ALTER TABLE data_source_channels DROP COLUMN local_id;
  `.execute(db);
}
