import {
  openConnection,
  type DatabaseConnection,
  type OpenDatabaseOptions as ConnectionOptions,
} from '../db/connection';
import { databaseOriginalStore, embeddedOriginalStore, type OriginalStore } from './originals';
import type { ObjectStoreSettings } from '../config';
import { s3OriginalStore } from './originals-s3';
import { primaryReads, replicaReads, type ReadRouting, type ReadRoutingLog } from './read-routing';

export type { ReadRouting, ReadRoutingLog } from './read-routing';

export interface OpenDatabaseOptions extends ConnectionOptions {
  /** ORIGINALS_URL read (config.ts): the originals in this bucket instead of the database's own store. */
  originalsBucket?: ObjectStoreSettings | null;
}

/**
 * What the app runs on: the database connection (db/connection.ts, the primary: writes and every read but the
 * dashboards' and lists'), where dashboard and list reads go (read-routing.ts) and the store of originals beside it.
 */
export interface DatabaseHandle extends DatabaseConnection {
  /**
   * Where uploaded files' originals are kept (storage/originals.ts): in the bucket of ORIGINALS_URL when set, else in
   * the database on PostgreSQL and in the data directory beside PGlite.
   */
  originals: OriginalStore;
  /** Where a reader's dashboard and list reads go: the read replica of DATABASE_READ_URL, or the primary. */
  reads: ReadRouting;
}

export interface OpenHandleOptions extends OpenDatabaseOptions {
  /** A PostgreSQL streaming replica of `databaseUrl` for dashboard and list reads (DATABASE_READ_URL). */
  readUrl?: string;
  /** Where the read routing says that the replica stopped or came back (the process's logger). */
  log?: ReadRoutingLog;
}

const consoleLog: ReadRoutingLog = {
  warn: (message) => console.warn(message),
  info: (message) => console.info(message),
};

export async function openDatabase(options: OpenHandleOptions): Promise<DatabaseHandle> {
  const connection = await openConnection(options);
  const originals = options.originalsBucket
    ? s3OriginalStore(options.originalsBucket)
    : connection.kind === 'postgres'
      ? databaseOriginalStore()
      : embeddedOriginalStore(options.dataDir);
  if (options.readUrl && !(connection.pool && connection.connectionString))
    throw new Error('A read replica (DATABASE_READ_URL) needs a PostgreSQL primary (DATABASE_URL)');
  const reads =
    options.readUrl && connection.pool && connection.connectionString
      ? await replicaReads({
          primary: connection.db,
          primaryPool: connection.pool,
          primaryUrl: connection.connectionString,
          replicaUrl: options.readUrl,
          log: options.log ?? consoleLog,
          poolSize: options.poolSize,
        })
      : primaryReads(connection.db);
  return {
    ...connection,
    originals,
    reads,
    // Compressions under way finish first: they write to the database.
    close: async () => {
      await originals.close();
      await reads.close();
      await connection.close();
    },
  };
}
