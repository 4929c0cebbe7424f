import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { openConnection } from '../src/db/connection';
import { migrateToLatest } from '../src/db/migrate';
import { openDatabase, type DatabaseHandle } from '../src/storage/database';

/**
 * The API tests' migrated template of the embedded database. Creating a PGlite cluster in memory and applying the
 * migrations took 5-9 s per test server on a busy 2-core machine (cluster 3-8 s, migrations 1-2 s), and the suite
 * makes well over a hundred; loading a dump of one made once per run takes about 1.5 s. The global setup (vitest.config.ts)
 * makes it at the start of every run from the migrations of the checkout, so it is never older than the code; a test
 * of a migration itself (or of an empty database) opens a fresh cluster as before.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** The file of the template's dump; '' against a PostgreSQL server (DATABASE_URL), where none is made. */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.DATABASE_URL) {
    project.provide('pgliteTemplate', '');
    return () => undefined;
  }
  const connection = await openConnection({ dataDir: 'memory://' });
  await migrateToLatest(connection.db);
  const dump = await connection.pglite!.dumpDataDir('none');
  await connection.close();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-pglite-template-'));
  const file = path.join(dir, 'migrated.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

let cached: Blob | undefined;

/** The migrated template for a new in-memory database; undefined against a PostgreSQL server. */
export function migratedTemplate(): Blob | undefined {
  // Outside vitest (the benches start test servers too) there is no template: a new cluster, migrated.
  if (process.env.DATABASE_URL || !process.env.VITEST) return undefined;
  const file = inject('pgliteTemplate');
  if (!file) return undefined;
  cached ??= new Blob([fs.readFileSync(file)]);
  return cached;
}

/** A new embedded database in memory with every migration applied, from the template. */
export async function migratedMemoryDatabase(): Promise<DatabaseHandle> {
  const database = await openDatabase({ dataDir: 'memory://', startFrom: migratedTemplate() });
  await migrateToLatest(database.db);
  return database;
}
