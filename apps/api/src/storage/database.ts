import { openConnection, type DatabaseConnection, type OpenDatabaseOptions } from '../db/connection';
import { databaseOriginalStore, embeddedOriginalStore, type OriginalStore } from './originals';

export type { OpenDatabaseOptions } from '../db/connection';

/** What the app runs on: the database connection (db/connection.ts) and the store of originals beside it. */
export interface DatabaseHandle extends DatabaseConnection {
  /** Where uploaded files' originals are kept (storage/originals.ts): in the database on PostgreSQL, in the data directory beside PGlite. */
  originals: OriginalStore;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const connection = await openConnection(options);
  const originals =
    connection.kind === 'postgres' ? databaseOriginalStore() : embeddedOriginalStore(options.dataDir);
  return {
    ...connection,
    originals,
    // Compressions under way finish first: they write to the database.
    close: async () => {
      await originals.close();
      await connection.close();
    },
  };
}
