import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';
import {
  ARCHIVE_SCHEMA,
  addMonths,
  boundOf,
  createMonthPartition,
  defaultPartitionName,
  monthBounds,
  monthOf,
  monthStart,
  monthsBetween,
  partitionName,
  storedColumns,
  type Month,
  type PartitionedTable,
} from '../db/partitions';
import { conflict, notFound } from '../errors';
import { EVENTS_MONTHS } from './events';
import { MEASUREMENT_VALUES_MONTHS } from './measurement-values';
import {
  REPORT_VALUES_DAILY_MONTHS,
  REPORT_VALUES_MONTHLY_MONTHS,
  refreshYearlyRollups,
} from './report-values-daily';
import { REPORT_VALUES_MONTHS } from './report-values';
import { SAMPLE_INDEX_MONTHS, STREAM_SAMPLES_MONTHS } from './samples';
import { readArchivedMonths } from './archived-months';

/**
 * The month partitions of the stored series (docs/decisions/0125-partitions-and-retention.md). Each series' module
 * declares its partitioned table and time column (`*_MONTHS`); this module makes their months, moves what landed in
 * the DEFAULT partition into its month, and archives (detaches into the schema `portal_archive`) and restores a
 * month of all of them together, so a month is either wholly online or wholly archived.
 *
 * The DDL runs in short transactions of its own (never inside an execution's or an upload's), serialized by an
 * advisory lock: a month made while another process makes it is found made.
 */

/** Every partitioned series, in the order a month is archived (the roll-up before what it sums). */
export const PARTITIONED_SERIES: readonly PartitionedTable[] = [
  REPORT_VALUES_MONTHLY_MONTHS,
  REPORT_VALUES_DAILY_MONTHS,
  REPORT_VALUES_MONTHS,
  MEASUREMENT_VALUES_MONTHS,
  EVENTS_MONTHS,
  SAMPLE_INDEX_MONTHS,
  STREAM_SAMPLES_MONTHS,
];

/** The calendar year of a month. */
const yearOf = (month: Month) => Number(month.slice(0, 4));

/** At most this many months are made before a write; a longer range gets its ends (ensureMonthPartitions). */
export const ON_DEMAND_MONTHS = 24;

/** Months made ahead of the current one by the periodic job. */
export const MONTHS_AHEAD = 3;

const LOCK_KEY = 7_020_037; // the advisory lock of the partitions' DDL (any number no other lock uses)

async function lockPartitions(trx: Kysely<Database>) {
  await sql`SELECT pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
}

/**
 * The partitions known to exist online, per database handle (a process has one; the tests open several) and table:
 * a live window's execution makes sure of its months before every store, and reading the catalog each time cost 8
 * queries (the archived months and each series' partitions). Filled from catalog reads that see committed state and
 * from partitions this process made once their transaction committed. Forgotten whole when this process archives or
 * restores a month. Knowing a partition that another process has since archived is harmless: an archived month is
 * left alone here anyway, and its writes are refused by `assertMonthsOnline`, which reads `archived_months` itself.
 * A partition detached or dropped by hand (not through `archiveMonth`) is not seen until the process restarts.
 */
let knownPartitions = new WeakMap<Kysely<Database>, Map<string, Set<Month>>>();

function knownOf(db: Kysely<Database>): Map<string, Set<Month>> {
  let known = knownPartitions.get(db);
  if (!known) {
    known = new Map();
    knownPartitions.set(db, known);
  }
  return known;
}

/** Forgets every known partition (of every database handle): a month was archived or restored. */
export function forgetKnownPartitions(): void {
  knownPartitions = new WeakMap();
}

/** The months that have a partition of the table online. */
async function onlineMonths(db: Kysely<Database>, spec: PartitionedTable): Promise<Set<Month>> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
    JOIN pg_namespace n ON n.oid = p.relnamespace
    WHERE n.nspname = 'public' AND p.relname = ${spec.table}`.execute(db);
  const prefix = `${spec.table}_y`;
  return new Set(
    rows
      .map((r) => r.name)
      .filter((name) => name.startsWith(prefix))
      .map((name) => `${name.slice(prefix.length, prefix.length + 4)}-${name.slice(-2)}`),
  );
}

const monthColumn = (spec: PartitionedTable) =>
  spec.kind === 'date'
    ? sql`to_char(${sql.id(spec.column)}, 'YYYY-MM')`
    : sql`to_char(${sql.id(spec.column)} AT TIME ZONE 'UTC', 'YYYY-MM')`;

/** The month's start as a literal of the column's type (UTC, whatever the session's time zone). */
const boundLiteral = (spec: PartitionedTable, month: Month) =>
  sql`${sql.lit(boundOf(spec.kind, month))}::${sql.raw(spec.kind)}`;

const inMonth = (spec: PartitionedTable, month: Month) =>
  sql`${sql.id(spec.column)} >= ${boundLiteral(spec, month)} AND ${sql.id(spec.column)} < ${boundLiteral(spec, addMonths(month, 1))}`;

/**
 * Makes the month's partition of a table, moving the rows of that month out of the default partition first (they
 * go into the new partition as they were: no trigger of the parent runs again). In the caller's transaction, which
 * holds the partitions' lock.
 */
async function makeMonth(trx: Transaction<Database>, spec: PartitionedTable, month: Month): Promise<void> {
  const fallback = sql.id(defaultPartitionName(spec.table));
  const held = sql.id(`moving_${spec.table}`);
  const columns = sql.join((await storedColumns(trx, spec.table)).map((c) => sql.id(c)));
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM ${fallback} WHERE ${inMonth(spec, month)}`.execute(trx);
  const moving = (rows[0]?.n ?? 0) > 0;
  if (moving) {
    await sql`CREATE TEMP TABLE ${held} ON COMMIT DROP AS
      SELECT ${columns} FROM ${fallback} WHERE ${inMonth(spec, month)}`.execute(trx);
    await sql`DELETE FROM ${fallback} WHERE ${inMonth(spec, month)}`.execute(trx);
  }
  await createMonthPartition(trx, spec, month);
  if (moving) {
    await sql`INSERT INTO ${sql.id(partitionName(spec.table, month))} (${columns}) SELECT ${columns} FROM ${held}`.execute(
      trx,
    );
    await sql`DROP TABLE ${held}`.execute(trx);
  }
}

/**
 * Makes the partitions of every month from `from` to `to` (instants, both included) that has none, in every
 * partitioned series, and moves what the default partition holds of them. Archived months are left alone (writes
 * into them are refused). Answers the partitions made.
 */
export async function ensureMonthPartitions(db: Kysely<Database>, from: Date, to: Date): Promise<string[]> {
  if (!(to.getTime() >= from.getTime())) return [];
  let wanted = monthsBetween(monthOf(from), monthOf(to));
  // A long range (a ship's whole history run again) gets its two ends; what lands in a default partition between
  // them is moved into its month by placeWaitingRows after the write, so no empty month is made for nothing.
  if (wanted.length > ON_DEMAND_MONTHS) wanted = [wanted[0]!, wanted.at(-1)!];
  const known = knownOf(db);
  if (PARTITIONED_SERIES.every((spec) => wanted.every((month) => known.get(spec.table)?.has(month))))
    return [];
  const missing = async (executor: Kysely<Database>) => {
    const archived = new Set((await readArchivedMonths(executor)).map((m) => m.month));
    const out: { spec: PartitionedTable; month: Month }[] = [];
    for (const spec of PARTITIONED_SERIES) {
      const online = await onlineMonths(executor, spec);
      // Read outside the DDL's transaction: committed partitions only.
      if (executor === db) known.set(spec.table, online);
      for (const month of wanted) if (!online.has(month) && !archived.has(month)) out.push({ spec, month });
    }
    return out;
  };
  if ((await missing(db)).length === 0) return [];
  for (let attempt = 1; ; attempt++) {
    try {
      const made = await db.transaction().execute(async (trx) => {
        await lockPartitions(trx);
        const made: { spec: PartitionedTable; month: Month }[] = [];
        for (const { spec, month } of await missing(trx)) {
          await makeMonth(trx, spec, month);
          made.push({ spec, month });
        }
        return made;
      });
      // Committed: these are known too (unless a month was archived meanwhile, which forgot them all).
      for (const { spec, month } of made) known.get(spec.table)?.add(month);
      return made.map(({ spec, month }) => partitionName(spec.table, month));
    } catch (error) {
      // The DDL takes each parent table's lock in turn; a writer that holds one of them and waits for another
      // (an execution storing values, an upload's data range) can close a cycle, and PostgreSQL ends one side
      // (40P01). This transaction is its own and made nothing when ended: it runs again, as the caller asked. Seen
      // in CI: an upload's months made after its commit, beside its ship's execution.
      if ((error as { code?: string }).code !== '40P01' || attempt === 3) throw error;
    }
  }
}

/**
 * The periodic work (the storage-months job): the months from the current one to MONTHS_AHEAD ahead, and the months
 * whose rows wait in a default partition (data of a month that had no partition when it was stored).
 */
export async function prepareMonthPartitions(db: Kysely<Database>, now = new Date()): Promise<string[]> {
  const made = await ensureMonthPartitions(db, now, monthStart(addMonths(monthOf(now), MONTHS_AHEAD)));
  return [...made, ...(await placeWaitingRows(db))];
}

/**
 * The rows waiting in a default partition (of a month that had no partition when they were written) moved into
 * their month's partition, made for them; an archived month's are left (its restore refuses until they are dealt
 * with). Reads only the default partitions, which hold little.
 */
export async function placeWaitingRows(db: Kysely<Database>): Promise<string[]> {
  const made: string[] = [];
  for (const spec of PARTITIONED_SERIES) {
    const { rows } = await sql<{ month: string }>`
      SELECT DISTINCT ${monthColumn(spec)} AS month FROM ${sql.id(defaultPartitionName(spec.table))}`.execute(
      db,
    );
    for (const { month } of rows)
      made.push(...(await ensureMonthPartitions(db, monthStart(month), monthStart(month))));
  }
  return made;
}

/** The months that have data online (a partition with rows), oldest first. */
export async function readOnlineMonths(db: Kysely<Database>): Promise<Month[]> {
  const months = new Set<Month>();
  for (const spec of PARTITIONED_SERIES)
    for (const month of await onlineMonths(db, spec)) {
      const { rows } = await sql<{ any: boolean }>`
        SELECT EXISTS (SELECT 1 FROM ${sql.id(partitionName(spec.table, month))}) AS any`.execute(db);
      if (rows[0]?.any) months.add(month);
    }
  return [...months].sort();
}

/**
 * Archives a month: its partitions of every series are detached and moved into the schema `portal_archive`
 * (nothing is deleted: an operator may dump that schema, and `restoreMonth` attaches them again). Rows of the
 * month still in a default partition go into its partition first. In the caller's transaction (with its audit
 * entry); the reports' answers cached under the reports version are refreshed.
 */
export async function archiveMonth(
  trx: Transaction<Database>,
  month: Month,
  by: { userId: string | null; reason: 'retention' | 'administrator' },
): Promise<{ tables: string[] }> {
  await lockPartitions(trx);
  forgetKnownPartitions();
  if (await trx.selectFrom('archived_months').select('month').where('month', '=', month).executeTakeFirst())
    throw conflict(`${month} is archived already`);
  if (month >= monthOf(new Date())) throw conflict('Only a month that has ended can be archived');
  const tables: string[] = [];
  for (const spec of PARTITIONED_SERIES) {
    const name = partitionName(spec.table, month);
    if (!(await onlineMonths(trx, spec)).has(month)) await makeMonth(trx, spec, month);
    await sql`ALTER TABLE ${sql.id(spec.table)} DETACH PARTITION ${sql.id(name)}`.execute(trx);
    await sql`ALTER TABLE ${sql.id(name)} SET SCHEMA ${sql.id(ARCHIVE_SCHEMA)}`.execute(trx);
    tables.push(name);
  }
  await trx
    .insertInto('archived_months')
    .values({ month, archived_by: by.userId, reason: by.reason, tables })
    .execute();
  // The month's monthly roll-up left with its partition; its year's rows now sum the months still online.
  await refreshYearlyRollups(trx, yearOf(month), yearOf(month));
  await bumpReportsVersion(trx);
  return { tables };
}

/**
 * Restores an archived month: its tables come back from `portal_archive` and are attached as the month's partitions.
 * Refused when a default partition holds rows of that month (they would be hidden): that cannot happen while writes
 * into an archived month are refused, but a restore never guesses which rows win.
 */
export async function restoreMonth(trx: Transaction<Database>, month: Month): Promise<{ tables: string[] }> {
  await lockPartitions(trx);
  forgetKnownPartitions();
  const archived = await trx
    .selectFrom('archived_months')
    .selectAll()
    .where('month', '=', month)
    .executeTakeFirst();
  if (!archived) throw notFound(`${month} is not archived`);
  const tables: string[] = [];
  for (const spec of PARTITIONED_SERIES) {
    const name = partitionName(spec.table, month);
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM ${sql.id(defaultPartitionName(spec.table))} WHERE ${inMonth(spec, month)}`.execute(
      trx,
    );
    if ((rows[0]?.n ?? 0) > 0)
      throw conflict(
        `${spec.table} holds rows of ${month} stored after it was archived: the month is not restored`,
      );
    const { rows: present } = await sql<{ any: boolean }>`
      SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = ${ARCHIVE_SCHEMA} AND tablename = ${name}) AS any`.execute(
      trx,
    );
    if (present[0]?.any) {
      await sql`ALTER TABLE ${sql.id(ARCHIVE_SCHEMA, name)} SET SCHEMA public`.execute(trx);
      await sql`ALTER TABLE ${sql.id(spec.table)} ATTACH PARTITION ${sql.id(name)} ${monthBounds(spec, month)}`.execute(
        trx,
      );
    } else {
      // An archive made before this series was partitioned, or removed by an operator: the month starts empty.
      await createMonthPartition(trx, spec, month);
    }
    tables.push(name);
  }
  await trx.deleteFrom('archived_months').where('month', '=', month).execute();
  // The month's monthly roll-up is back with its partition: its year's rows sum it again, as before the archive.
  await refreshYearlyRollups(trx, yearOf(month), yearOf(month));
  await bumpReportsVersion(trx);
  return { tables };
}

/**
 * Deletes a month's rows of some ships (an organization whose administrator chose deletion past its retention), in
 * the online partitions and in the month's archive alike. In the caller's transaction, with its audit entry.
 */
export async function deleteShipMonths(
  trx: Transaction<Database>,
  facilityIds: readonly string[],
  before: Month,
): Promise<number> {
  if (facilityIds.length === 0) return 0;
  let deleted = 0;
  for (const spec of PARTITIONED_SERIES) {
    const online = await sql`
      DELETE FROM ${sql.id(spec.table)} WHERE facility_id IN (${sql.join(facilityIds)})
        AND ${sql.id(spec.column)} < ${boundLiteral(spec, before)}`.execute(trx);
    deleted += Number(online.numAffectedRows ?? 0);
  }
  for (const archived of await readArchivedMonths(trx)) {
    if (archived.month >= before) continue;
    for (const table of archived.tables) {
      const { rows } = await sql<{ any: boolean }>`
        SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = ${ARCHIVE_SCHEMA} AND tablename = ${table}) AS any`.execute(
        trx,
      );
      if (!rows[0]?.any) continue;
      const result = await sql`
        DELETE FROM ${sql.id(ARCHIVE_SCHEMA, table)} WHERE facility_id IN (${sql.join(facilityIds)})`.execute(
        trx,
      );
      deleted += Number(result.numAffectedRows ?? 0);
    }
  }
  // The years the deleted months were in: their yearly roll-up from the monthly rows left.
  if (deleted > 0) {
    const { rows } = await sql<{ first: string | null }>`
      SELECT min(year)::text AS first FROM report_values_yearly WHERE facility_id IN (${sql.join(facilityIds)})`.execute(
      trx,
    );
    const first = rows[0]?.first ? Number(rows[0].first.slice(0, 4)) : yearOf(before);
    await refreshYearlyRollups(trx, Math.min(first, yearOf(before)), yearOf(before), facilityIds);
  }
  return deleted;
}

/**
 * The reports' answers are cached under this version (migration 0012), the fleet's partial sums under each ship's
 * (migration 0041): a detach or attach fires no trigger.
 */
async function bumpReportsVersion(trx: Transaction<Database>) {
  await sql`UPDATE reports_version SET version = version + 1`.execute(trx);
  await sql`UPDATE ship_values_versions SET version = version + 1`.execute(trx);
}
