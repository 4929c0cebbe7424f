import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/**
 * Dashboards are read far more often than report values change, and many users look at the same fleet and
 * period. Answers are cached per process under a version that changes whenever report values, calculations,
 * fields or report texts change — in any process: writes of report values go through refreshDailyRollup,
 * which bumps a version row in `settings`; calculations carry updated_on. The version is read at most every
 * VERSION_TTL_MS, so another process's change shows within that time.
 * REPORT_DATA_CACHE_ENTRIES=0 (config.ts) turns the answer cache off (the bench measures both).
 */
const VERSION_KEY = 'report_values_version';
const VERSION_TTL_MS = 500;

export async function bumpReportValuesVersion(db: Kysely<Database>): Promise<void> {
  const value = JSON.stringify(`${Date.now()}-${Math.random().toString(36).slice(2)}`);
  await sql`
    insert into settings (key, value, updated_on) values (${VERSION_KEY}, ${value}::jsonb, now())
    on conflict (key) do update set value = excluded.value, updated_on = excluded.updated_on`.execute(db);
  // `db` is usually a transaction (or a view of one), not the handle the report routes read through: the
  // version read so far is dropped for every handle of this process, now and once more after the commit.
  invalidateReportsVersion();
}

/**
 * The version read per database handle, with the generation it was read in. A change made by this process moves
 * the generation, whichever handle (transaction, view of one) it was made through.
 */
const versions = new WeakMap<object, { at: number; generation: number; value: Promise<string> }>();
let generation = 0;

/**
 * After a change made by this process: the next read, through any handle, sees it at once. Call it again once
 * the change's transaction has committed (a read between the bump and the commit still saw the old version).
 */
export function invalidateReportsVersion(): void {
  generation++;
}

/** The current version of everything report answers depend on (cached for VERSION_TTL_MS). */
export function reportsVersion(db: Kysely<Database>): Promise<string> {
  const now = Date.now();
  const cached = versions.get(db);
  if (cached && cached.generation === generation && now - cached.at < VERSION_TTL_MS) return cached.value;
  const value = sql<{ v: string }>`
    select coalesce((select value::text from settings where key = ${VERSION_KEY}), '0')
      || '|' || (select count(*) || ':' || coalesce(max(updated_on)::text, '') || ':' || count(approved_on) from report_field_calculations)
      || '|' || (select count(*) || ':' || coalesce(md5(string_agg(id::text || as_lifetime || as_series || by_facility || facility_aggregate_type || time_aggregate_type || coalesce(interface_type, ''), ',' order by id)), '') from report_fields)
      || '|' || (select coalesce(md5(string_agg(id || coalesce(information, ''), ',' order by id)), '') from reports) as v`
    .execute(db)
    .then((r) => r.rows[0]!.v);
  versions.set(db, { at: now, generation, value });
  value.catch(() => versions.delete(db));
  return value;
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
  clear(): void {
    this.entries.clear();
  }
}
