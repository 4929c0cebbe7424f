import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { readAfterArrival } from '../auth/read-after-arrival';

/**
 * Dashboards are read far more often than report values change, and many users look at the same fleet and
 * period. Answers are cached per process under a version that changes whenever report values, report field
 * calculations, report fields or report texts change, in any process: statement triggers bump the one row of
 * `reports_version` in the change's own transaction (migration 0012_execution_status). Every report request reads
 * that row (a primary key lookup of one row, well under a millisecond), so the very next call in every process
 * sees a committed execution's values (docs/decisions/0061-delivery.md).
 * REPORT_DATA_CACHE_ENTRIES=0 (config.ts) turns the answer cache off (the bench measures both).
 */

const versionReads = new WeakMap<Kysely<Database>, () => Promise<string>>();

/**
 * The current version of everything report answers depend on, read from the database for every call: one read shared
 * by the calls that arrive while it is made (auth/read-after-arrival.ts: each still sees every change committed
 * before it arrived). 50 users asking at once made 50 reads through a pool of 10 connections; sharing them doubled
 * the fleet CII card's answers at 50 users (docs/decisions/0138-fleet-cii-answers.md).
 */
export function reportsVersion(db: Kysely<Database>): Promise<string> {
  let read = versionReads.get(db);
  if (!read) {
    read = readAfterArrival(async () => {
      const row = await db.selectFrom('reports_version').select('version').executeTakeFirstOrThrow();
      return String(row.version);
    });
    versionReads.set(db, read);
  }
  return read();
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
