import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Dashboards are read far more often than report values change, and many users look at the same fleet and
 * period. Answers are cached per process under a version that changes whenever report values, report field
 * calculations, report fields or report texts change, in any process: statement triggers bump the one row of
 * `reports_version` in the change's own transaction (migration 0012_execution_status). Every report request reads
 * that row (a primary key lookup of one row, well under a millisecond), so the very next call in every process
 * sees a committed execution's values (docs/decisions/0061-delivery.md).
 * REPORT_DATA_CACHE_ENTRIES=0 (config.ts) turns the answer cache off (the bench measures both).
 */

/** The current version of everything report answers depend on, read from the database on every call. */
export async function reportsVersion(db: Kysely<Database>): Promise<string> {
  const row = await db.selectFrom('reports_version').select('version').executeTakeFirstOrThrow();
  return String(row.version);
}

/** A small LRU of answers; keys carry the version, so stale entries simply age out. */
export class AnswerCache<T> {
  private readonly entries = new Map<string, T>();
  constructor(private readonly max: number) {}
  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }
  set(key: string, value: T): void {
    if (this.max <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
  delete(key: string): void {
    this.entries.delete(key);
  }
  clear(): void {
    this.entries.clear();
  }
}
