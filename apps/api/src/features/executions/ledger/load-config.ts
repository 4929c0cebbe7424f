import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import { ledgerConfigOf } from './config';
import type { LedgerConfig } from './types';

/**
 * Sub-step "load the ledger configuration": reads the ship, the measurement fields, its approved calculations (the
 * latest valid first), its channels with their mapping and its primary data source, and builds the configuration
 * (config.ts). Null when the ship no longer exists.
 */
export async function loadLedgerConfig(
  db: Kysely<Database>,
  facilityId: string,
): Promise<LedgerConfig | null> {
  const facility = await db
    .selectFrom('facilities')
    .select(['primary_organization_id', 'data_timestamp_min', 'data_timestamp_max'])
    .where('id', '=', facilityId)
    .executeTakeFirst();
  if (!facility) return null;
  const fields = await db.selectFrom('measurement_fields').select(['id', 'name']).execute();
  const calculations = await db
    .selectFrom('measurement_field_calculations')
    .select(['measurement_field_id', 'input_ids'])
    .where('facility_id', '=', facilityId)
    .where('approved_on', 'is not', null)
    .orderBy('valid_from', 'desc')
    .execute();
  const channels = await db
    .selectFrom('data_source_channels')
    .select([
      'id',
      'data_source_id',
      'source',
      'name',
      'consumer',
      'fuel_type_source',
      'fuel_type',
      'fuel_type_channel_id',
    ])
    .where('facility_id', '=', facilityId)
    .execute();
  const primary = await db
    .selectFrom('facility_data_sources')
    .select('id')
    .where('facility_id', '=', facilityId)
    .where('is_primary', '=', true)
    .executeTakeFirst();
  return ledgerConfigOf({
    facilityId,
    organizationId: facility.primary_organization_id,
    dataFrom: facility.data_timestamp_min ? new Date(facility.data_timestamp_min).getTime() : null,
    dataTo: facility.data_timestamp_max ? new Date(facility.data_timestamp_max).getTime() : null,
    fields,
    calculations,
    channels,
    primaryDataSourceId: primary?.id,
  });
}
