/**
 * One end-to-end import of the 100 MB bench CSV (for profiling: `node --cpu-prof --import tsx bench/ingest/once.ts`).
 * Run: npx tsx bench/ingest/once.ts [--postgres URL | --data-dir DIR] [--runs N] [--verify] [--smoke]; PGlite runs in
 * memory unless --data-dir names its directory (as `npm start` runs it: on disk, the originals as files beside it).
 * --smoke: the 3,000-row file (made when missing).
 */
import { readFileSync } from 'node:fs';
import { openDatabase } from '../../apps/api/src/storage/database';
import { migrateToLatest } from '../../apps/api/src/db/migrate';
import { startParseWorker, stopParseWorker } from '../../apps/api/src/features/files/parse-off-thread';
import { importUploadedFile } from '../../apps/api/src/features/files/import';
import { originalsCompressed } from '../../apps/api/src/storage';
import { readRawSamples } from '../../apps/api/src/storage';
import { parseDataFile } from '../../apps/api/src/readers/parse';
import {
  argument,
  BENCH_CSV_CONFIGURATION,
  BENCH_ROWS,
  deleteBenchFiles,
  ensureBenchCsv,
  prepareBenchShip,
} from './bench-file';

const configuration = BENCH_CSV_CONFIGURATION;
const content = readFileSync(await ensureBenchCsv(BENCH_ROWS));
const url = argument('--postgres');
if (url) {
  const reset = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolSize: 1 });
  await reset.db.schema.dropSchema('public').ifExists().cascade().execute();
  await reset.db.schema.createSchema('public').execute();
  await reset.close();
}
// PGlite as `npm start` runs it (a data directory on disk) with --data-dir, else in memory.
const database = await openDatabase(
  url ? { databaseUrl: url, dataDir: 'memory://' } : { dataDir: argument('--data-dir') ?? 'memory://' },
);
await migrateToLatest(database.db);
// As the API server does at start: the parse worker is ready before the first upload.
await startParseWorker();
const { facilityId, dataSourceId } = await prepareBenchShip(database);
/** Reads the import back: the original byte for byte and every sample bit for bit. */
async function verify(dataFileId: string): Promise<void> {
  const original = await database.originals.read(database.db, { facilityId, dataFileId });
  if (!original?.equals(content)) throw new Error('the original read back differs');
  const parsed = await parseDataFile(
    { fileName: 'bench.csv', content },
    { readerId: 'delimited-text', configuration },
    { utcTimezoneOffsetInMinutes: 0 },
  );
  const [stored] = await readRawSamples(database.db, facilityId, {
    from: parsed.timeStampMin,
    to: parsed.timeStampMax,
  });
  const same = (a: Float64Array, b: Float64Array | undefined) =>
    b !== undefined &&
    a.length === b.length &&
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
      Buffer.from(b.buffer, b.byteOffset, b.byteLength),
    );
  if (!stored || !same(parsed.timestamps, stored.timestamps)) throw new Error('timestamps read back differ');
  for (const c of parsed.channels)
    if (!same(c.values, stored.columns[c.channel])) throw new Error(`${c.channel} read back differs`);
  console.log(
    `verified: original and ${parsed.channels.length} channels x ${parsed.rowCount} samples read back exactly`,
  );
}

for (let i = 0; i < Number(argument('--runs') ?? 1); i++) {
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  // As the upload route does: the original is stored raw and compressed after the answer.
  const result = await importUploadedFile(database, {
    facilityId,
    dataSourceId,
    fileName: 'bench.csv',
    content,
    importedBy: null,
    timings,
  });
  const s = (performance.now() - t0) / 1000;
  if (result.ids.length !== 1) throw new Error(result.errorMessages.join('; '));
  console.log(
    `${url ? 'postgres' : 'pglite'}: ${s.toFixed(2)} s, ${(content.length / 1e6 / s).toFixed(0)} MB/s; ${Object.entries(
      timings,
    )
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', ')} ms`,
  );
  if (process.argv.includes('--verify')) await verify(result.ids[0]!);
  const c0 = performance.now();
  await originalsCompressed();
  console.log(
    `  then compressing the original after the answer: ${((performance.now() - c0) / 1000).toFixed(2)} s`,
  );
  if (process.argv.includes('--verify')) await verify(result.ids[0]!);
  await deleteBenchFiles(database, facilityId);
}
await database.close();
// The parse worker thread would keep the process alive.
await stopParseWorker();
