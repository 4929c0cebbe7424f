/**
 * How long migration 0037 (month partitions, docs/decisions/0125-partitions-and-retention.md) takes on a deployment's
 * database, and what a month's archive and restore then take: PostgreSQL migrated to 0036, seeded with --ships N
 * ships (100 by default) and a year (2025) of hourly report values written with COPY (bench/shared/synthetic-values.ts:
 * the hourly rows of the first --hourly-ships ships, 10 by default, the daily, monthly and yearly roll-ups of every
 * ship), then 0037 applied and timed; then June 2025 archived and restored through storage/partitions.ts, timed.
 *
 * Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/<own db> npx tsx bench/partitions/migration.ts [--ships 100]
 *        [--hourly-ships 10] [--smoke: 3 ships, 1 with hourly rows, for npm run bench:smoke]
 * The database is emptied first. Results: bench/results/partitions.md.
 */
import { cpus, loadavg } from 'node:os';
// kysely is a dependency of apps/api only (bench/package.json stays as it is).
import { Migrator, sql } from 'kysely';
import { migrations } from '../../apps/api/src/db/migrations';
import { openDatabase } from '../../apps/api/src/storage/database';
import { seedPlatform } from '../../apps/api/src/seed/platform';
import { archiveMonth, restoreMonth } from '../../apps/api/src/storage';
import { resetPostgres } from '../../apps/api/test/harness';
import { fillSyntheticReportValues } from '../shared/synthetic-values';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const SMOKE = process.argv.includes('--smoke');
const SHIPS = Number(arg('--ships') ?? (SMOKE ? 3 : 100));
const HOURLY_SHIPS = Number(arg('--hourly-ships') ?? (SMOKE ? 1 : 10));
const YEAR = { from: '2025-01-01T00:00:00.000Z', to: '2025-12-31T23:59:59.999Z' };
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('Set DATABASE_URL to a PostgreSQL database of your own');

async function counts(db: Parameters<typeof seedPlatform>[0]) {
  const { rows } = await sql<Record<string, number | string>>`
    select (select count(*) from report_values)::int as hourly, (select count(*) from report_values_daily)::int as daily,
      (select count(*) from report_values_monthly)::int as monthly, (select count(*) from report_values_yearly)::int as yearly,
      pg_size_pretty(pg_database_size(current_database())) as size`.execute(db);
  return rows[0]!;
}

async function main() {
  await resetPostgres(databaseUrl!);
  const database = await openDatabase({ databaseUrl, dataDir: 'memory://', poolSize: 4 });
  const db = database.db;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const to36 = await migrator.migrateTo('0036_report_rollups');
  if (to36.error) throw to36.error;
  await seedPlatform(db, { ships: SHIPS });
  const ships = await db.selectFrom('facilities').select(['id', 'name']).orderBy('name').execute();
  const fill = await fillSyntheticReportValues(db, ships, YEAR, {
    hourlyShips: Math.min(HOURLY_SHIPS, ships.length),
  });
  const before = await counts(db);
  console.log(`filled in ${fill.seconds.toFixed(1)} s:`, before);

  const started = performance.now();
  const to37 = await migrator.migrateTo('0037_month_partitions');
  if (to37.error) throw to37.error;
  const migrationSeconds = (performance.now() - started) / 1000;
  const after = await counts(db);
  console.log(`migration 0037: ${migrationSeconds.toFixed(1)} s`, after);
  // The archive and restore are today's (storage/partitions.ts): the later migrations they rely on (0041's ships'
  // values versions, which an archive bumps) go in first, untimed.
  const latest = await migrator.migrateToLatest();
  if (latest.error) throw latest.error;

  const archiveStarted = performance.now();
  await db
    .transaction()
    .execute((trx) => archiveMonth(trx, '2025-06', { userId: null, reason: 'administrator' }));
  const archiveSeconds = (performance.now() - archiveStarted) / 1000;
  const restoreStarted = performance.now();
  await db.transaction().execute((trx) => restoreMonth(trx, '2025-06'));
  const restoreSeconds = (performance.now() - restoreStarted) / 1000;
  // The restored month is back whole: every count as it was after the migration (a wrong result fails the run).
  const restored = await counts(db);
  for (const key of ['hourly', 'daily', 'monthly', 'yearly'] as const)
    if (restored[key] !== after[key])
      throw new Error(`${key} rows after the restore ${restored[key]}, before ${after[key]}`);
  console.log(
    `archive of 2025-06: ${archiveSeconds.toFixed(2)} s, restore: ${restoreSeconds.toFixed(2)} s ` +
      `(${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
  );
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
