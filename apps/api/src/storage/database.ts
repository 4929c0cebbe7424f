import type { ObjectStoreSettings } from '../config';
import {
  openConnection,
  type DatabaseConnection,
  type OpenDatabaseOptions as ConnectionOptions,
} from '../db/connection';
import { databaseOriginalStore, embeddedOriginalStore, type OriginalStore } from './originals';
import { s3OriginalStore } from './originals-s3';

export interface OpenDatabaseOptions extends ConnectionOptions {
  /** ORIGINALS_URL read (config.ts): the originals in this bucket instead of the database's own store. */
  originalsBucket?: ObjectStoreSettings | null;
}

/** What the app runs on: the database connection (db/connection.ts) and the store of originals beside it. */
export interface DatabaseHandle extends DatabaseConnection {
  /**
   * Where uploaded files' originals are kept (storage/originals.ts): in the bucket of ORIGINALS_URL when set, else in
   * the database on PostgreSQL and in the data directory beside PGlite.
   */
  originals: OriginalStore;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  const connection = await openConnection(options);
  const originals = options.originalsBucket
    ? s3OriginalStore(options.originalsBucket)
    : connection.kind === 'postgres'
      ? databaseOriginalStore()
      : embeddedOriginalStore(options.dataDir);
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
