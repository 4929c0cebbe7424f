/**
 * Peak memory while importing a ~1 GB zip of demo logger CSV files through importUploadedFile (the upload service
 * behind POST /api/algorithm/facilitydatasource/{id}/file), streamed from disk as the HTTP route streams a request.
 * The archive (stored entries, git-ignored under bench/.work/) is made on the first run from writeBigCsv files of
 * consecutive days, so no two files have the same content.
 *
 * Run: npx tsx bench/ingest/zip-memory.ts [--files 10] [--megabytes 100] [--postgres postgres://postgres@127.0.0.1:5432/<own database>] [--smoke]
 * --smoke: 2 files of 1 MB. Every run fails when a file of the archive is not imported.
 * Without --postgres, PGlite with its data directory on disk under bench/.work/ (an in-memory PGlite would hold the
 * imported gigabyte in this process and measure the database, not the import). The database's public schema is emptied.
 */
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Zip, ZipPassThrough } from 'fflate';
import { demoShips, writeBigCsv } from '@portal/demo-fleet';
import { openDatabase } from '../../apps/api/src/storage/database';
import { migrateToLatest } from '../../apps/api/src/db/migrate';
import { createDataSource } from '../../apps/api/src/features/datasources/service';
import { importUploadedFile } from '../../apps/api/src/features/files/import';
import { originalsCompressed } from '../../apps/api/src/storage';
import { startParseWorker, stopParseWorker } from '../../apps/api/src/features/files/parse-off-thread';

const here = path.dirname(fileURLToPath(import.meta.url));
const work = path.join(here, '..', '.work');
const argument = (name: string, fallback?: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const fileCount = Number(argument('--files', smoke ? '2' : '10'));
const megabytes = Number(argument('--megabytes', smoke ? '1' : '100'));
const postgresUrl = argument('--postgres');
const zipPath = path.join(work, `zip-${fileCount}x${megabytes}mb.zip`);

async function makeArchive(): Promise<Awaited<ReturnType<typeof writeBigCsv>>['dataSource']> {
  mkdirSync(work, { recursive: true });
  const ship = demoShips(6)[0]!;
  let dataSource: Awaited<ReturnType<typeof writeBigCsv>>['dataSource'] | null = null;
  const csvPaths: string[] = [];
  let from = Date.UTC(2016, 0, 1);
  for (let i = 0; i < fileCount; i++) {
    const csv = path.join(work, `zip-part-${megabytes}mb-${i}.csv`);
    const written = await writeBigCsv(csv, { megabytes, channels: 50, ship, from: new Date(from) });
    dataSource = written.dataSource;
    from += written.days * 86_400_000;
    csvPaths.push(csv);
    process.stdout.write(`\r  wrote ${i + 1}/${fileCount} CSV files`);
  }
  process.stdout.write('\n');
  if (!existsSync(zipPath)) {
    const out = createWriteStream(zipPath);
    let pending = Promise.resolve();
    const zip = new Zip((error, chunk) => {
      if (error) throw error;
      pending = pending.then(async () => {
        if (!out.write(chunk)) await once(out, 'drain');
      });
    });
    for (const csv of csvPaths) {
      const entry = new ZipPassThrough(`logs/${path.basename(csv)}`);
      zip.add(entry);
      for await (const chunk of createReadStream(csv)) {
        entry.push(chunk as Uint8Array);
        await pending;
      }
      entry.push(new Uint8Array(0), true);
      await pending;
    }
    zip.end();
    await pending;
    out.end();
    await once(out, 'finish');
  }
  for (const csv of csvPaths) rmSync(csv);
  return dataSource!;
}

async function main(): Promise<void> {
  const dataSource = await makeArchive();
  const pgliteDir = path.join(work, smoke ? 'zip-memory-pglite-smoke' : 'zip-memory-pglite');
  if (!postgresUrl) rmSync(pgliteDir, { recursive: true, force: true });
  if (postgresUrl) {
    const reset = await openDatabase({ databaseUrl: postgresUrl, dataDir: 'memory://', poolSize: 1 });
    await reset.db.schema.dropSchema('public').ifExists().cascade().execute();
    await reset.db.schema.createSchema('public').execute();
    await reset.close();
  }
  const database = await openDatabase(
    postgresUrl ? { databaseUrl: postgresUrl, dataDir: 'memory://' } : { dataDir: pgliteDir },
  );
  await migrateToLatest(database.db);
  const org = await database.db
    .insertInto('organizations')
    .values({ name: 'Bench', link_key: 'BENCH01', email: null, phone: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const facility = await database.db
    .insertInto('facilities')
    .values({ name: 'Bench ship', primary_organization_id: org.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  const dataSourceId = await createDataSource(database.db, facility.id, {
    name: dataSource.name,
    dataSourceReaderId: dataSource.dataSourceReaderId,
    dataSourceReaderConfiguration: dataSource.dataSourceReaderConfiguration,
    measureFrequencyInSeconds: dataSource.measureFrequencyInSeconds,
    utcTimezoneOffsetInMinutes: dataSource.utcTimezoneOffsetInMinutes,
    note: '',
    isPrimary: true,
  });

  // As the API server: the parse worker is running, and originals are compressed after each file's commit.
  await startParseWorker();
  let peak = process.memoryUsage().rss;
  const rssBefore = peak;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const t0 = performance.now();
  const result = await importUploadedFile(database, {
    facilityId: facility.id,
    dataSourceId,
    fileName: 'logs.zip',
    content: createReadStream(zipPath),
    importedBy: null,
    rules: {
      maxUploadBytes: 4 * 1024 ** 3,
      maxTotalUncompressedBytes: 4 * 1024 ** 3,
      maxEntryBytes: 1024 ** 3,
    },
  });
  await originalsCompressed();
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  await database.close();
  const zipMb = statSync(zipPath).size / 1e6;
  console.log(
    JSON.stringify({
      database: postgresUrl ? 'postgres' : 'pglite (on disk)',
      files: result.ids.length,
      errors: result.errorMessages,
      zipMb: Math.round(zipMb),
      seconds: Number(seconds.toFixed(1)),
      mbPerSecond: Number((zipMb / seconds).toFixed(1)),
      rssBeforeMb: Math.round(rssBefore / 1e6),
      peakRssMb: Math.round(peak / 1e6),
      maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      machine: `${os.cpus()[0]?.model} x${os.cpus().length}`,
      load: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
      date: new Date().toISOString(),
    }),
  );
  if (result.ids.length !== fileCount || result.errorMessages.length) {
    console.error(`FAILED: ${result.ids.length} of ${fileCount} files imported`);
    process.exit(1);
  }
}

await main();
// The parse worker thread would keep the process alive.
await stopParseWorker();
