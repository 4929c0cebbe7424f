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

/**
 * A small LRU. Whatever is kept under keys that carry a version ages out with it; answers are kept in
 * {@link VersionedAnswers} instead, which replaces an older version's answer rather than keeping it beside.
 */
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
  /** The entry without counting it as used. */
  peek(key: string): T | undefined {
    return this.entries.get(key);
  }
  get size(): number {
    return this.entries.size;
  }
  delete(key: string): void {
    this.entries.delete(key);
  }
  clear(): void {
    this.entries.clear();
  }
}

/**
 * Whether version `a` is older than `b`: versions are decimal counters, or several joined by `|` (the fleet CII
 * card's reports and access versions), compared part by part; older when no part is newer and one is older. A
 * version that is not made of counters is never older.
 */
export function isOlderVersion(a: string, b: string): boolean {
  const left = a.split('|');
  const right = b.split('|');
  if (left.length !== right.length || ![...left, ...right].every((part) => /^\d+$/.test(part))) return false;
  let older = false;
  for (let i = 0; i < left.length; i++) {
    const x = BigInt(left[i]!);
    const y = BigInt(right[i]!);
    if (x > y) return false;
    if (x < y) older = true;
  }
  return older;
}

/**
 * Answers kept one per question, each under the version of the data it was made of: the answer of a newer version
 * replaces the older one instead of sitting beside it until the LRU drops it (with data arriving every second, a
 * 1,000-ship fleet's answers of every version piled up in the count-bounded LRU: 1.4 GB of Buffers in 10 minutes,
 * bench/results/dashboard-memory.md). A computation in progress is shared by the callers who ask the same question
 * at the same version; one that fails is forgotten. An answer asked at an older version than the one kept (a read
 * replica behind the primary) is made for its caller and not kept.
 */
export class VersionedAnswers<T> {
  private readonly entries: AnswerCache<{ version: string; value: Promise<T> }>;
  constructor(max: number) {
    this.entries = new AnswerCache(max);
  }
  /** The answer to `key` at `version`: the kept one, or `make()`'s (kept unless older than the one kept). */
  get(key: string, version: string, make: () => Promise<T>): Promise<T> {
    const kept = this.entries.get(key);
    if (kept?.version === version) return kept.value;
    const value = make();
    if (!kept || !isOlderVersion(version, kept.version)) {
      const entry = { version, value };
      this.entries.set(key, entry);
      value.catch(() => {
        if (this.entries.peek(key) === entry) this.entries.delete(key);
      });
    }
    return value;
  }
  /** How many questions have an answer kept. */
  get size(): number {
    return this.entries.size;
  }
}
