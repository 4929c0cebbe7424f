import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** The files of a data source that are not removed, newest data first. */
export function listDataFiles(db: Kysely<Database>, dataSource: { id: string; facility_id: string }) {
  return db
    .selectFrom('data_files')
    .select([
      'id',
      'file_name',
      'time_stamp_min',
      'time_stamp_max',
      'imported_on',
      'row_count',
      'byte_size',
      'warnings',
    ])
    .where('facility_id', '=', dataSource.facility_id)
    .where('data_source_id', '=', dataSource.id)
    .where('removed_on', 'is', null)
    .orderBy('time_stamp_min', 'desc')
    .orderBy('file_name')
    .execute();
}

/** A data source of the ship an upload credential belongs to. */
export function findFacilityDataSource(db: Kysely<Database>, facilityId: string, dataSourceId: string) {
  return db
    .selectFrom('facility_data_sources')
    .select(['id', 'facility_id'])
    .where('id', '=', dataSourceId)
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
}

/** A file of a data source that is not removed. */
export function findDataFile(db: Kysely<Database>, dataSourceId: string, fileId: string) {
  return db
    .selectFrom('data_files')
    .select(['id', 'file_name', 'time_stamp_min', 'time_stamp_max'])
    .where('id', '=', fileId)
    .where('data_source_id', '=', dataSourceId)
    .where('removed_on', 'is', null)
    .executeTakeFirst();
}
