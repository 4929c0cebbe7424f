/**
 * End-to-end ingest throughput: importUploadedFile (sha256, parse and pack in the parse workers, the original, columnar inserts, ship
 * range update) of the ~100 MB, 50-channel CSV of bench/ingest/parse.ts, on PGlite and on PostgreSQL, with the
 * parse-only throughput of udsv and papaparse measured in the same run. Memory while importing a big zip:
 * bench/ingest/zip-memory.ts; one import with stage timings and an exact read-back check: bench/ingest/once.ts.
 *
 * Run: npx tsx bench/ingest/pipeline.ts [--postgres postgres://postgres@127.0.0.1:5432/portal_datasources_bench]
 * (the PostgreSQL database's public schema is emptied). Makes bench/.work/ingest-50ch-300000rows.csv when missing.
 * --smoke: the 3,000-row file, one run of each.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { constants as zlibConstants, gzip } from 'node:zlib';
import Papa from 'papaparse';
import { inferSchema, initParser } from 'udsv';
import { openDatabase, type DatabaseHandle } from '../../apps/api/src/storage/database';
import { migrateToLatest } from '../../apps/api/src/db/migrate';
import { startParseWorker, stopParseWorker } from '../../apps/api/src/features/files/parse-off-thread';
import { importUploadedFile } from '../../apps/api/src/features/files/import';
import { originalsCompressed } from '../../apps/api/src/storage';
import { parseDataFile } from '../../apps/api/src/readers/parse';
import {
  argument,
  BENCH_CSV_CONFIGURATION,
  BENCH_ROWS,
  deleteBenchFiles,
  ensureBenchCsv,
  prepareBenchShip,
  SMOKE,
} from './bench-file';

const configuration = BENCH_CSV_CONFIGURATION;
const RUNS = SMOKE ? 1 : 3;

const best = (times: number[]) => Math.min(...times);
const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

async function timeIt(run: () => Promise<unknown>, after?: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    times.push((performance.now() - t0) / 1000);
    await after?.();
  }
  return times;
}

/** Seconds from each import's answer until its original is stored compressed (after the answer). */
const compressionAfter: Record<string, number[]> = { pglite: [], postgres: [] };

async function endToEnd(database: DatabaseHandle, content: Buffer): Promise<number[]> {
  await migrateToLatest(database.db);
  const { facilityId, dataSourceId } = await prepareBenchShip(database);
  // As the upload route does: the original is stored raw and compressed after the answer by this process.
  return timeIt(
    async () => {
      const result = await importUploadedFile(database, {
        facilityId,
        dataSourceId,
        fileName: 'bench.csv',
        content,
        importedBy: null,
      });
      if (result.ids.length !== 1) throw new Error(`import failed: ${result.errorMessages.join('; ')}`);
    },
    async () => {
      const t0 = performance.now();
      await originalsCompressed();
      compressionAfter[database.kind]!.push((performance.now() - t0) / 1000);
      await deleteBenchFiles(database, facilityId);
    },
  );
}

async function main(): Promise<void> {
  const content = readFileSync(await ensureBenchCsv(BENCH_ROWS));
  const mb = content.length / 1e6;
  const lines: string[] = [];
  const row = (name: string, what: string, times: number[]) =>
    lines.push(
      `| ${name} | ${what} | ${best(times).toFixed(2)} | ${median(times).toFixed(2)} | ${(mb / best(times)).toFixed(0)} | ${(mb / median(times)).toFixed(0)} |`,
    );
  console.log(
    `File: ${mb.toFixed(1)} MB; machine: ${os.cpus()[0]?.model} x${os.cpus().length}, Node ${process.version}, ${new Date().toISOString()}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  // As the API server does at start: the parse worker is ready before the first upload.
  await startParseWorker();
  // End to end first, in a fresh process: the parse-only runs of udsv and papaparse leave gigabytes of garbage behind.
  // PGlite as `npm start` runs it: a data directory on disk, the originals beside the database.
  const pgliteDir = mkdtempSync(path.join(os.tmpdir(), 'portal-ingest-bench-'));
  const pglite = await openDatabase({ dataDir: pgliteDir });
  const onPglite = await endToEnd(pglite, content);
  await pglite.close();
  rmSync(pgliteDir, { recursive: true, force: true });
  let onPostgres: number[] | null = null;
  const postgresUrl = argument('--postgres');
  if (postgresUrl) {
    const reset = await openDatabase({ databaseUrl: postgresUrl, dataDir: 'memory://', poolSize: 1 });
    await reset.db.schema.dropSchema('public').ifExists().cascade().execute();
    await reset.db.schema.createSchema('public').execute();
    await reset.close();
    const postgres = await openDatabase({ databaseUrl: postgresUrl, dataDir: 'memory://' });
    onPostgres = await endToEnd(postgres, content);
    await postgres.close();
  }

  const udsv = await timeIt(async () => {
    const text = content.toString('utf8');
    initParser(inferSchema(text)).typedCols(text);
  });
  const papa = await timeIt(async () => {
    Papa.parse<unknown[]>(content.toString('utf8'), {
      delimiter: ',',
      dynamicTyping: true,
      fastMode: true,
      skipEmptyLines: true,
    });
  });
  const ours = await timeIt(() =>
    parseDataFile(
      { fileName: 'bench.csv', content },
      { readerId: 'delimited-text', configuration },
      { utcTimezoneOffsetInMinutes: 0 },
    ),
  );
  const gzipOnly = await timeIt(() =>
    promisify(gzip)(content, { level: 1, strategy: zlibConstants.Z_HUFFMAN_ONLY }),
  );

  lines.push(
    '| what | measures | best s | median s | MB/s (best) | MB/s (median) |',
    '|---|---|---|---|---|---|',
  );
  row(
    'end to end, PGlite (data directory on disk)',
    'importUploadedFile: sha256 (event loop, in slices), parse (two worker threads, a half each) and pack, original raw (a file beside the database), store columns, update range, commit',
    onPglite,
  );
  if (onPostgres) row('end to end, PostgreSQL 15', 'the same, the original raw in the database', onPostgres);
  row('parse only: ours', 'parseDataFile', ours);
  row('parse only: udsv 0.7.3', 'inferSchema + typedCols (timestamps left as text)', udsv);
  row('parse only: papaparse 5.7.1', 'dynamicTyping, fastMode', papa);
  row(
    'then the original compressed, PGlite',
    'after each answer, in the same process: gzip the raw file (thread pool) into a .gz beside it (not part of the upload)',
    compressionAfter.pglite!,
  );
  if (onPostgres)
    row(
      'then the original compressed, PostgreSQL',
      'after each answer, in the same process: gzip the raw parts (thread pool) and rewrite them (not part of the upload)',
      compressionAfter.postgres!,
    );
  row(
    'gzip (Huffman only) alone',
    'of the whole original in one piece (the import does 8 MB parts in the thread pool, overlapped with parsing)',
    gzipOnly,
  );
  const ratio = (times: number[]) => (median(udsv) / median(times)).toFixed(2);
  lines.push(
    '',
    `Ratio end-to-end / udsv parse-only (median): PGlite ${ratio(onPglite)}x${onPostgres ? `, PostgreSQL ${ratio(onPostgres)}x` : ''} (goal >= 1.5x).`,
  );

  lines.push(
    '',
    `Load average after the run: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(lines.join('\n'));
}

await main();
// The parse worker thread would keep the process alive.
await stopParseWorker();
