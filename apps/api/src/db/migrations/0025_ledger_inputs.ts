import { sql, type Kysely } from 'kysely';

/**
 * The carbon ledger's inputs (issue 31; docs/decisions/0109-ledger-inputs.md):
 *
 * - `facilities`: the particulars the CII needs, each null until someone gives it: the MEPC.353(78) ship type
 *   (packages/contracts/src/ship-particulars.ts), the deadweight in tonnes and the gross tonnage.
 * - `data_source_channels`: a fuel flow channel's consumer and where its fuel type comes from: a fixed fuel, a fuel
 *   type channel of the same ship, or the record book's fuel change-overs (packages/contracts/src/fuel-channels.ts);
 *   an LNG consumer's engine kind. A channel without a consumer has none of them (the check). The codes are checked
 *   by the API, not here, so that a fuel or a consumer type added later needs no migration.
 *
 * The fuel type channel is a reference checked at commit (DEFERRABLE INITIALLY DEFERRED): a data source's mappings
 * are replaced by deleting and inserting them again with their ids in one transaction (PUT facilitydatasourcechannels),
 * which a reference checked at once would refuse. The API refuses to remove a channel another reads its fuel type
 * from, with a message naming both, before the database would.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE facilities
      ADD COLUMN ship_type text,
      ADD COLUMN deadweight_tonnes double precision CHECK (deadweight_tonnes > 0),
      ADD COLUMN gross_tonnage double precision CHECK (gross_tonnage > 0);

    ALTER TABLE data_source_channels
      ADD COLUMN consumer text,
      ADD COLUMN fuel_type_source text CHECK (fuel_type_source IN ('fixed', 'channel', 'change-overs')),
      ADD COLUMN fuel_type text,
      ADD COLUMN fuel_type_channel_id uuid
        REFERENCES data_source_channels(id) DEFERRABLE INITIALLY DEFERRED,
      ADD COLUMN lng_engine text,
      ADD CONSTRAINT data_source_channels_fuel_attributes CHECK (
        (consumer IS NULL AND fuel_type_source IS NULL AND fuel_type IS NULL AND fuel_type_channel_id IS NULL
          AND lng_engine IS NULL)
        OR (consumer IS NOT NULL AND fuel_type_source IS NOT NULL
          AND (fuel_type_source = 'fixed') = (fuel_type IS NOT NULL)
          AND (fuel_type_source = 'channel') = (fuel_type_channel_id IS NOT NULL))
      );
    CREATE INDEX data_source_channels_fuel_type_channel_idx ON data_source_channels (fuel_type_channel_id)
      WHERE fuel_type_channel_id IS NOT NULL;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP INDEX data_source_channels_fuel_type_channel_idx;
    ALTER TABLE data_source_channels
      DROP CONSTRAINT data_source_channels_fuel_attributes,
      DROP COLUMN lng_engine,
      DROP COLUMN fuel_type_channel_id,
      DROP COLUMN fuel_type,
      DROP COLUMN fuel_type_source,
      DROP COLUMN consumer;
    ALTER TABLE facilities DROP COLUMN gross_tonnage, DROP COLUMN deadweight_tonnes, DROP COLUMN ship_type;
  `.execute(db);
}
