import { openDatabase, type DatabaseHandle } from '../src/storage/database';
import { migrateToLatest } from '../src/db/migrate';
import { seedPlatform } from '../src/seed/platform';
import type { ComputeRequest } from '../src/features/executions/plan';
import { DAY, UNTIL, prepareShips } from './execution-fixtures';

/**
 * One demo ship with one day of logger files and the default calculations approved, on an embedded database in
 * memory: the ground for the engine steps' unit tests (src/features/executions/*.test.ts).
 */
export async function engineGround(): Promise<{
  database: DatabaseHandle;
  facilityId: string;
  request: (more?: Partial<ComputeRequest>) => ComputeRequest;
}> {
  const database = await openDatabase({ dataDir: 'memory://' });
  await migrateToLatest(database.db);
  const seed = await seedPlatform(database.db, { ships: 1 });
  const [key, facilityId] = Object.entries(seed.facilityIds)[0]!;
  await prepareShips(database, { [key]: facilityId }, 1);
  return {
    database,
    facilityId,
    request: (more = {}) => ({
      facilityId,
      from: UNTIL.getTime() - DAY,
      to: UNTIL.getTime(),
      measurementFieldIds: 'all',
      reportFieldIds: 'all',
      ...more,
    }),
  };
}
