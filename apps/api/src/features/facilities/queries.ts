import { sql, type Kysely, type Transaction } from 'kysely';
import type { Facility } from '@portal/contracts/facilities';
import type { Database } from '../../db/schema';
import type { Caller } from '../access/caller';
import { facilityVisibleTo } from '../access/policy';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The facility list query, already restricted to what the caller may see; narrow it further with `where`. */
export function facilitiesVisibleTo(db: Kysely<Database>, caller: Caller) {
  return db
    .selectFrom('facilities as f')
    .innerJoin('organizations as o', 'o.id', 'f.primary_organization_id')
    .selectAll('f')
    .select([
      'o.name as primary_organization_name',
      sql<
        string[]
      >`array(select ofa.organization_id::text from organization_facility_access ofa where ofa.facility_id = f.id order by ofa.organization_id)`.as(
        'shared_organization_ids',
      ),
      sql<number>`(select count(*) from facility_data_sources ds where ds.facility_id = f.id)`.as(
        'data_source_count',
      ),
    ])
    .where(facilityVisibleTo(db, caller, sql.ref('f.id')));
}

/**
 * The ship list: what the caller sees, narrowed to the ships of an organization (its own and those shared with it)
 * and to the ships assigned to a user, by name.
 */
export function listFacilities(
  db: Kysely<Database>,
  caller: Caller,
  filter: { organizationId?: string; userId?: string },
) {
  let query = facilitiesVisibleTo(db, caller);
  const { organizationId, userId } = filter;
  if (organizationId) {
    query = query.where((eb) =>
      eb.or([
        eb('f.primary_organization_id', '=', organizationId),
        eb(
          'f.id',
          'in',
          eb
            .selectFrom('organization_facility_access')
            .select('facility_id')
            .where('organization_id', '=', organizationId),
        ),
      ]),
    );
  }
  if (userId)
    query = query.where(
      'f.id',
      'in',
      db.selectFrom('user_facility_access').select('facility_id').where('user_id', '=', userId),
    );
  return query
    .orderBy(sql`lower(f.name)`)
    .orderBy('f.id')
    .execute();
}

/** A user and its organization, for the ship list of a user. */
export function findUser(db: Kysely<Database>, userId: string) {
  return db.selectFrom('users').select(['id', 'organization_id']).where('id', '=', userId).executeTakeFirst();
}

export async function organizationExists(db: Kysely<Database>, organizationId: string): Promise<boolean> {
  return Boolean(
    await db.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst(),
  );
}

export function insertFacility(trx: Transaction<Database>, ship: { name: string; organizationId: string }) {
  return trx
    .insertInto('facilities')
    .values({ name: ship.name, primary_organization_id: ship.organizationId })
    .returning('id')
    .executeTakeFirstOrThrow();
}

type FacilityRow = Awaited<ReturnType<ReturnType<typeof facilitiesVisibleTo>['executeTakeFirstOrThrow']>>;

export function toFacility(row: FacilityRow): Facility {
  return {
    id: row.id,
    name: row.name,
    imo: row.imo,
    primaryOrganizationId: row.primary_organization_id,
    primaryOrganizationName: row.primary_organization_name,
    scrubberSystemType: row.scrubber_system_type,
    numberOfScrubbers: row.number_of_scrubbers,
    systemManufacturer: row.system_manufacturer,
    totalEffectKW: row.total_effect_kw,
    startDate: iso(row.start_date),
    endDate: iso(row.end_date),
    dataTimeStampMin: iso(row.data_timestamp_min),
    dataTimeStampMax: iso(row.data_timestamp_max),
    dataCoverage: row.data_coverage,
    imageBase64: row.image_base64,
    dataSourceCount: Number(row.data_source_count),
    organizationIds: [row.primary_organization_id, ...(row.shared_organization_ids ?? [])],
    shipType: row.ship_type,
    deadweightTonnes: row.deadweight_tonnes,
    grossTonnage: row.gross_tonnage,
  };
}
