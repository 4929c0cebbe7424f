/**
 * What the ingest benchmarks share: the generated bench CSV and its delimited-reader configuration, the
 * command-line argument reader, the smoke flag, and a bench ship with its data source.
 */
import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
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
/** --smoke (or BENCH_SMOKE=1): a bench's smoke size, seconds instead of minutes. */
export const SMOKE = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
export const CHANNELS = 50;
/** Rows of the bench file: 300,000 (about 100 MB); 3,000 in a smoke run. */
export const BENCH_ROWS = SMOKE ? 3_000 : 300_000;
/** The bench file of `rows` rows (ensureBenchCsv makes it). */
export const benchCsv = (rows: number) => path.join(WORK_DIR, `ingest-${CHANNELS}ch-${rows}rows.csv`);
/** The 100 MB, 50-channel bench file (its 3,000 rows in a smoke run). */
export const BENCH_CSV = benchCsv(BENCH_ROWS);

/** Deterministic pseudo-random numbers so every run parses the same file. */
function generator(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Writes the bench file of `rows` rows (one a second from 2026-01-01, 50 numeric channels) unless it is there; into
 * a file of its own first, so a bench started beside another never reads a half-written one. Returns its path.
 */
export async function ensureBenchCsv(rows: number): Promise<string> {
  const file = benchCsv(rows);
  if (existsSync(file)) return file;
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  const out = createWriteStream(partial);
  const random = generator(42);
  const header = [
    'Timestamp',
    ...Array.from({ length: CHANNELS }, (_, i) => `CH${String(i + 1).padStart(2, '0')}`),
  ].join(',');
  out.write(header + '\n');
  const start = Date.UTC(2026, 0, 1);
  let chunk = '';
  for (let r = 0; r < rows; r++) {
    const t = new Date(start + r * 1000).toISOString();
    let line = `${t.slice(0, 10)} ${t.slice(11, 19)}`;
    for (let c = 0; c < CHANNELS; c++) {
      const base = (c + 1) * 10;
      const v = base + (random() - 0.5) * base;
      line += ',' + (c % 5 === 0 ? Math.round(v).toString() : v.toFixed(1 + (c % 3)));
    }
    chunk += line + '\n';
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      chunk = '';
    }
  }
  out.write(chunk);
  await new Promise<void>((resolve, reject) =>
    out.end((err?: Error | null) => (err ? reject(err) : resolve())),
  );
  renameSync(partial, file);
  return file;
}

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
