/**
 * What the ingest benchmarks share: the delimited-reader configuration of the generated bench CSV
 * (bench/ingest/parse.ts writes it), the command-line argument reader, and a bench ship with its data source.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import {
  DEFAULT_DELIMITED_CONFIGURATION,
  type DelimitedReaderConfiguration,
} from '@portal/contracts/readers';
import type { DatabaseHandle } from '../../apps/api/src/storage/database';
import { createDataSource } from '../../apps/api/src/features/datasources/service';

export const WORK_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.work');
/** The 100 MB, 50-channel bench file (made by `npx tsx bench/ingest/parse.ts`). */
export const BENCH_CSV = path.join(WORK_DIR, 'ingest-50ch-300000rows.csv');

/** The bench CSV is written in the delimited reader's default form. */
export const BENCH_CSV_CONFIGURATION: DelimitedReaderConfiguration = {
  ...DEFAULT_DELIMITED_CONFIGURATION,
  // The pattern the results were measured with (the default became ISO 8601, a regular expression per row).
  timestampFormat: 'YYYY-MM-DD HH:mm:ss',
};

/** The value after `--name` on the command line. */
export function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

/**
 * Deletes the bench ship's imported files with their samples and originals (between runs, not timed), and vacuums
 * their tables: otherwise PostgreSQL's autovacuum cleans the last run's 130 MB during the next one, and PGlite
 * (which has no autovacuum) keeps growing its files.
 */
export async function deleteBenchFiles(database: DatabaseHandle, facilityId: string): Promise<void> {
  const deleted = await database.db
    .deleteFrom('data_files')
    .where('facility_id', '=', facilityId)
    .returning('id')
    .execute();
  await database.originals.removeDeleted(deleted.map((f) => ({ facilityId, dataFileId: f.id })));
  await sql`vacuum data_files, data_file_originals, raw_timestamps, raw_values`.execute(database.db);
}

/** An organization, a ship and its primary data source reading the bench CSV (one sample a second). */
export async function prepareBenchShip(
  database: DatabaseHandle,
): Promise<{ facilityId: string; dataSourceId: string }> {
  const org = await database.db
    .insertInto('organizations')
    .values({ name: `Bench ${Date.now()}`, link_key: 'BENCH01', email: null, phone: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const facility = await database.db
    .insertInto('facilities')
    .values({ name: 'Bench ship', primary_organization_id: org.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const dataSourceId = await createDataSource(database.db, facility.id, {
    name: 'Bench',
    dataSourceReaderId: 'delimited-text',
    dataSourceReaderConfiguration: JSON.stringify(BENCH_CSV_CONFIGURATION),
    measureFrequencyInSeconds: 1,
    utcTimezoneOffsetInMinutes: 0,
    note: '',
    isPrimary: true,
  });
  return { facilityId: facility.id, dataSourceId };
}
