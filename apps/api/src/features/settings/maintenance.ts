import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Maintenance } from '@portal/contracts/settings';

const KEY = 'maintenance';

/** The maintenance flag lives in the database, so every API process agrees and a flip needs no restart. */
export async function readMaintenance(db: Kysely<Database>): Promise<Maintenance> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
  const value = (
    row ? (typeof row.value === 'string' ? JSON.parse(row.value) : row.value) : null
  ) as Maintenance | null;
  return { maintenance: value?.maintenance ?? false };
}

export async function writeMaintenance(db: Kysely<Database>, value: Maintenance): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: KEY, value: JSON.stringify(value) })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_on: new Date() }),
    )
    .execute();
}
