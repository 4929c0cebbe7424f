import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations';

/**
 * Applies the migrations of db/migrations that have not run yet. Several processes may start at once
 * against one PostgreSQL: Kysely's migrator takes a lock.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
