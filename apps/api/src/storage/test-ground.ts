import { sql } from 'kysely';
import { migrateToLatest } from '../db/migrate';
import { openDatabase, type DatabaseHandle } from './database';

/**
 * The ground of the storage modules' unit tests: an embedded database in memory with one ship, a data source and a
 * data file, two measurement fields and two report fields, and nothing stored for them yet.
 */
export async function storageGround(): Promise<{
  database: DatabaseHandle;
  facilityId: string;
  dataSourceId: string;
  dataFileId: string;
  measurementFieldIds: [string, string];
  reportFieldIds: [string, string];
}> {
  const database = await openDatabase({ dataDir: 'memory://' });
  const { db } = database;
  await migrateToLatest(db);
  const organization = await db
    .insertInto('organizations')
    .values({ name: 'Storage ground', link_key: 'GROUND1', email: null, phone: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ship = await db
    .insertInto('facilities')
    .values({ name: 'Ground ship', primary_organization_id: organization.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const source = await db
    .insertInto('facility_data_sources')
    .values({
      facility_id: ship.id,
      name: 'Logger',
      reader_id: 'csv',
      reader_configuration: '{}',
      measure_frequency_seconds: 60,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const file = await db
    .insertInto('data_files')
    .values({
      facility_id: ship.id,
      data_source_id: source.id,
      file_name: 'day.csv',
      content_sha256: 'ground',
      byte_size: 1,
      row_count: 0,
      time_stamp_min: new Date(0),
      time_stamp_max: new Date(0),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const fields = await db
    .insertInto('measurement_fields')
    .values([
      { name: 'GROUND_A', data_type: 'Double' },
      { name: 'GROUND_B', data_type: 'Double' },
    ])
    .returning('id')
    .execute();
  await sql`insert into reports (id, name, target) values ('GroundReport', 'Ground report', 'Facility')`.execute(
    db,
  );
  const reportFields = await sql<{ id: string }>`
    insert into report_fields (report_id, name, position) values ('GroundReport', 'A', 1), ('GroundReport', 'B', 2)
    returning id`.execute(db);
  return {
    database,
    facilityId: ship.id,
    dataSourceId: source.id,
    dataFileId: file.id,
    measurementFieldIds: [fields[0]!.id, fields[1]!.id],
    reportFieldIds: [reportFields.rows[0]!.id, reportFields.rows[1]!.id],
  };
}
