/**
 * Time of the demo seed: the demo ships' data sources and their daily logger files imported through the upload
 * service, on an in-memory PGlite (or DATABASE_URL). Run: npx tsx bench/ingest/seed.ts [--ships 6] [--days 60]
 * --smoke: 1 ship, 1 day. Fails when a file was refused or none imported.
 */
import { loadConfig } from '../../apps/api/src/config';
import { openDatabase } from '../../apps/api/src/storage/database';
import { migrateToLatest } from '../../apps/api/src/db/migrate';
import { seedPlatform } from '../../apps/api/src/seed/platform';
import { seedDemoData } from '../../apps/api/src/features/files/demo';

const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const ships = Number(argument('--ships') ?? (smoke ? 1 : 6));
const days = Number(argument('--days') ?? (smoke ? 1 : 60));
const config = loadConfig(
  {
    DATA_DIR: 'memory://',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  } as NodeJS.ProcessEnv,
  [],
);
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: 'memory://' });
await migrateToLatest(database.db);
const seeded = await seedPlatform(database.db, { ships });
const started = performance.now();
const perShip = new Map<string, number>();
let last = started;
const result = await seedDemoData(database, {
  facilityIds: seeded.facilityIds,
  days,
  onProgress: ({ ship }) => {
    const now = performance.now();
    perShip.set(ship, (perShip.get(ship) ?? 0) + (now - last));
    last = now;
  },
});
const seconds = (performance.now() - started) / 1000;
console.log(
  JSON.stringify({
    database: database.kind,
    shipCount: ships,
    days,
    seconds: Number(seconds.toFixed(1)),
    ...result,
    errors: result.errors.slice(0, 5),
    perShipSeconds: Object.fromEntries([...perShip].map(([k, v]) => [k, Number((v / 1000).toFixed(1))])),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
const stored = await database.db
  .selectFrom('data_files')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
await database.close();
if (result.errors.length || result.files === 0 || Number(stored.n) !== result.files) {
  console.error(
    `FAILED: ${result.files} files imported, ${stored.n} stored, errors: ${result.errors.slice(0, 5).join('; ')}`,
  );
  process.exit(1);
}
