import { loadConfig } from '../config';
import { openDatabase } from './connection';
import { migrateToLatest } from './migrate';
import { seedPlatform } from './seed';

const command = process.argv[2];
const config = loadConfig(process.env, []);
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
try {
  const applied = await migrateToLatest(database.db);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'The database is up to date.');
  if (command === 'seed') {
    const result = await seedPlatform(database.db, { ships: config.DEMO_SHIPS });
    console.log(
      result.created ? 'Demo organizations, users and ships created.' : 'The demo data was already there.',
    );
  } else if (command !== 'migrate') {
    console.error('Usage: cli.ts migrate|seed');
    process.exitCode = 2;
  }
} finally {
  await database.close();
}
