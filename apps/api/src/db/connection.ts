import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type Dialect } from 'kysely';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import pg from 'pg';
import type { Database } from './schema';

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * The connection to the database, the lowest layer. What the app runs on is the `DatabaseHandle` of
 * storage/database.ts: this connection and the store of uploaded files' originals beside it.
 */
export interface DatabaseConnection {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** The embedded database, when running on PGlite (pg-boss shares it). */
  pglite?: PGlite;
  /** The connection string, when running on a PostgreSQL server (pg-boss opens its own pool). */
  connectionString?: string;
  /** The pool behind `db`, when running on a PostgreSQL server (storage/read-routing.ts falls back to it). */
  pool?: pg.Pool;
  close(): Promise<void>;
}

// Counts and sums come back as numbers, not strings: our values stay far below 2^53.
const INT8 = 20;
const NUMERIC = 1700;
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(NUMERIC, (v) => Number(v));

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  /** Directory of the embedded database; `memory://` for a throwaway one (tests). */
  dataDir: string;
  poolSize?: number;
  /**
   * A dump of an embedded database (PGlite's dumpDataDir) that a new one in memory starts from instead of an empty
   * cluster: the API tests' migrated template (test/database-template.ts), which spares each test server the
   * cluster's creation and the migrations (about 5 s on a busy 2-core machine). Only with `memory://`.
   */
  startFrom?: Blob;
}

export async function openConnection(options: OpenDatabaseOptions): Promise<DatabaseConnection> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    // A connection ended by the server (restart, failover, pg_terminate_backend) emits 'error'; unhandled, that
    // would end the process (faults.test.ts). An idle one is already dropped from the pool and the next query opens
    // a new one; one in use fails its query (and so its transaction) and is dropped when released.
    pool.on('error', (error) => console.warn(`database connection lost while idle: ${error.message}`));
    pool.on('connect', (client) => client.on('error', () => undefined));
    const dialect: Dialect = new PostgresDialect({ pool });
    const db = new Kysely<Database>({ dialect });
    return {
      db,
      kind: 'postgres',
      connectionString: options.databaseUrl,
      pool,
      close: () => db.destroy(),
    };
  }
  const dir = options.dataDir === 'memory://' ? 'memory://' : path.join(options.dataDir, 'pglite');
  if (dir !== 'memory://') fs.mkdirSync(dir, { recursive: true });
  const pglite = await PGlite.create(
    dir,
    dir === 'memory://' && options.startFrom ? { loadDataDir: options.startFrom } : {},
  );
  // PGlite's node-postgres adapter: the same driver and type parsing as on a PostgreSQL server. One connection,
  // so a transaction holds it and other queries wait their turn.
  const pool = new pg.Pool(createPgConfig(pglite) as unknown as pg.PoolConfig);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'pglite',
    pglite,
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}
