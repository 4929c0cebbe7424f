import type { DatabaseHandle } from '../src/storage/database';
import { migratedMemoryDatabase } from './database-template';
import { seedPlatform } from '../src/seed/platform';
import type { ComputeRequest } from '../src/features/executions/plan';
import type { EnginePorts } from '../src/features/executions/ports';
import { enginePorts } from '../src/features/engine-ports';
import { DAY, UNTIL, prepareShips } from './execution-fixtures';

/**
 * One demo ship with one day of logger files and the default calculations approved, on an embedded database in
 * memory: the ground for the engine steps' unit tests (src/features/executions/*.test.ts), with the engine's ports
 * as a worker wires them (alerts' outbox, data health), which the steps' folder does not import itself.
 */
export async function engineGround(): Promise<{
  database: DatabaseHandle;
  facilityId: string;
  request: (more?: Partial<ComputeRequest>) => ComputeRequest;
  ports: EnginePorts;
}> {
  const database = await migratedMemoryDatabase();
  const seed = await seedPlatform(database.db, { ships: 1 });
  const [key, facilityId] = Object.entries(seed.facilityIds)[0]!;
  await prepareShips(database, { [key]: facilityId }, 1);
  return {
    database,
    facilityId,
    ports: enginePorts(),
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
