import type { Kysely } from 'kysely';
import type { FacilityConstants } from '@portal/formula';
import type { Database } from '../../../db/schema';
import { ExecutionError } from '../calculations';
import type { Channel } from './types';

export interface ShipConfiguration {
  organizationId: string;
  constants: FacilityConstants;
  /** The end of the ship's data (ms), null without any. */
  dataEnd: number | null;
  dataSources: { id: string; name: string; is_primary: boolean }[];
  channels: Channel[];
  /** Measurement field id -> name (every field of the catalogue). */
  fieldName: Map<string, string>;
}

/**
 * Sub-step "ship": the ship's constants for the calculations, its data sources and channels, and the catalogue's
 * measurement fields; a ship that no longer exists fails the execution.
 */
export async function loadShip(db: Kysely<Database>, facilityId: string): Promise<ShipConfiguration> {
  const facility = await db
    .selectFrom('facilities')
    .select([
      'id',
      'name',
      'imo',
      'number_of_scrubbers',
      'scrubber_system_type',
      'total_effect_kw',
      'primary_organization_id',
      'data_timestamp_max',
    ])
    .where('id', '=', facilityId)
    .executeTakeFirst();
  if (!facility) throw new ExecutionError('The ship no longer exists');
  const dataSources = await db
    .selectFrom('facility_data_sources')
    .select(['id', 'name', 'is_primary'])
    .where('facility_id', '=', facilityId)
    .execute();
  const channels = await db
    .selectFrom('data_source_channels')
    .select(['id', 'data_source_id', 'source', 'name'])
    .where('facility_id', '=', facilityId)
    .execute();
  const fields = await db.selectFrom('measurement_fields').select(['id', 'name']).execute();
  return {
    organizationId: facility.primary_organization_id,
    constants: {
      Facility_IMO: facility.imo ?? '',
      Facility_NumberOfScrubbers: facility.number_of_scrubbers ?? 0,
      Facility_ScrubberSystemType: facility.scrubber_system_type ?? '',
      Facility_TotalEffectKW: facility.total_effect_kw ?? 0,
    },
    dataEnd: facility.data_timestamp_max ? new Date(facility.data_timestamp_max).getTime() : null,
    dataSources,
    channels,
    fieldName: new Map(fields.map((f) => [f.id, f.name])),
  };
}
