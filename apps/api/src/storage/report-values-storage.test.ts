import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database';
import { migrateToLatest } from '../db/migrate';

// Report values keep their references per statement (migration 0009) instead of one foreign key check per row.
describe('report values storage', () => {
  let database: DatabaseHandle;
  let facilityId: string;
  let otherFacilityId: string;
  let fieldId: string;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    await migrateToLatest(database.db);
    const org = await database.db
      .insertInto('organizations')
      .values({ name: 'Storage test', link_key: 'STORE01', email: null, phone: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ships = await database.db
      .insertInto('facilities')
      .values([
        { name: 'Ship A', primary_organization_id: org.id },
        { name: 'Ship B', primary_organization_id: org.id },
      ])
      .returning('id')
      .execute();
    facilityId = ships[0]!.id;
    otherFacilityId = ships[1]!.id;
    await sql`insert into reports (id, name, target) values ('StorageTest', 'Storage test', 'Facility')`.execute(
      database.db,
    );
    fieldId = (
      await sql<{
        id: string;
      }>`insert into report_fields (report_id, name) values ('StorageTest', 'Value') returning id`.execute(
        database.db,
      )
    ).rows[0]!.id;
  });
  afterAll(() => database.close());

  const insert = (facility: string, field: string, hours: number) =>
    sql`insert into report_values (facility_id, report_field_id, span_start, value)
        select ${facility}::uuid, ${field}::uuid, to_timestamp(h * 3600), h from generate_series(1, ${hours}) as h`.execute(
      database.db,
    );
  const count = async () =>
    Number(
      (await sql<{ n: number }>`select count(*)::int as n from report_values`.execute(database.db)).rows[0]!
        .n,
    );

  it('takes values of existing ships and report fields', async () => {
    await insert(facilityId, fieldId, 1000);
    await insert(otherFacilityId, fieldId, 10);
    expect(await count()).toBe(1010);
  });

  it('refuses values of a ship or report field that does not exist, as a foreign key would', async () => {
    const nobody = '00000000-0000-4000-8000-000000000000';
    await expect(insert(nobody, fieldId, 3)).rejects.toMatchObject({ code: '23503' });
    await expect(insert(facilityId, nobody, 3)).rejects.toMatchObject({ code: '23503' });
    await expect(
      sql`update report_values set report_field_id = ${nobody}::uuid where facility_id = ${otherFacilityId}`.execute(
        database.db,
      ),
    ).rejects.toMatchObject({ code: '23503' });
    expect(await count()).toBe(1010);
  });

  it("deletes a ship's or a report field's values with it", async () => {
    await database.db.deleteFrom('facilities').where('id', '=', otherFacilityId).execute();
    expect(await count()).toBe(1000);
    await sql`delete from report_fields where id = ${fieldId}`.execute(database.db);
    expect(await count()).toBe(0);
  });
});
