/**
 * The inspection pack of one ship over a year (docs/decisions/0106-inspection-packs.md): the demo ship's daily logger
 * files uploaded through importUploadedFile and executed with all default calculations (the pipeline bench's set-up,
 * timed apart), then one pack of the whole period built by the job's function (buildInspectionPack): what the PDF says
 * read from the reports, events, record book, calculations and data health; every original read back from the store,
 * hashed and deflated into the zip stored in 8 MB parts; the PDF. Seconds per stage, the zip's size, the PDF's pages,
 * and the process's peak memory while it builds (a year of originals must never be in memory at once).
 * Goal: under 20 s for a year on PostgreSQL. Results: bench/results/inspection-pack.md.
 *
 * Run: npx tsx bench/inspection-pack/run.ts [--days 365 | --smoke] [--kinds postgres,pglite]
 *        [--postgres postgres://postgres@127.0.0.1:5432/h4]   (its public schema is emptied)
 *        [--level 1]   (deflate level of the originals; the build's default is 1)
 *        [--record "a title"]   (appends the run to the results as a section of that title)
 *        [--pdf /tmp/year.pdf]   (keeps the pack's PDF there, to look at)
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resetPostgres } from '../../apps/api/test/harness';
import { openDatabase, type DatabaseHandle } from '../../apps/api/src/storage/database';
import { originalsCompressed } from '../../apps/api/src/storage';
import { migrateToLatest } from '../../apps/api/src/db/migrate';
import { seedPlatform } from '../../apps/api/src/seed/platform';
import { seedDemoData } from '../../apps/api/src/features/files/demo';
import { seedDefaultMeasurementCalculations } from '../../apps/api/src/features/calculations/seed';
import { executeDemoFleet } from '../../apps/api/src/features/executions/demo';
import { startJobs } from '../../apps/api/src/features/jobs';
import { importUploadedFile } from '../../apps/api/src/features/files/import';
import { buildInspectionPack } from '../../apps/api/src/features/inspection-packs/build';
import { readPackParts } from '../../apps/api/src/features/inspection-packs/store';
import { demoShips, writeShipDayFile } from '@portal/demo-fleet';
import type { Services } from '../../apps/api/src/services';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const smoke = process.argv.includes('--smoke');
const days = Number(arg('--days', smoke ? '3' : '365'));
const kinds = arg('--kinds', 'postgres').split(',');
const postgresUrl = arg('--postgres', 'postgres://postgres@127.0.0.1:5432/h4');
const level = Number(arg('--level', '1'));
/** Builds on the database of the previous run when it holds the same days (no reset, no set-up): to compare options. */
const reuse = process.argv.includes('--reuse');
const keepPdf = arg('--pdf', '');
const record = arg('--record', '');
const UNTIL = new Date('2025-01-01T00:00:00.000Z');
const DAY_MS = 86_400_000;
const MB = 1024 * 1024;

interface Row {
  kind: string;
  days: number;
  files: number;
  originalBytes: number;
  setUpS: number;
  buildS: number;
  stages: Record<string, number>;
  zipBytes: number;
  pdfBytes: number;
  pdfPages: number | null;
  events: number;
  recordBookEntries: number;
  startRssMb: number;
  peakRssMb: number;
  peakHeapMb: number;
  /** Buffers (originals, zip parts) live outside the heap. */
  peakBuffersMb: number;
}

async function open(kind: string): Promise<DatabaseHandle> {
  if (kind === 'pglite') return openDatabase({ dataDir: 'memory://' });
  if (!reuse) await resetPostgres(postgresUrl);
  return openDatabase({ databaseUrl: postgresUrl, dataDir: 'memory://' });
}

function pdfPages(zipParts: Buffer[], pdfBytes: number): number | null {
  // The PDF is stored (not deflated) in the zip: its bytes are in the zip as they are; pdfinfo counts the pages.
  const zip = Buffer.concat(zipParts);
  const start = zip.indexOf('%PDF-');
  if (start < 0) return null;
  const file = keepPdf || path.join(os.tmpdir(), `inspection-pack-bench-${process.pid}.pdf`);
  writeFileSync(file, zip.subarray(start, start + pdfBytes));
  try {
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    return Number(/Pages:\s+(\d+)/.exec(info)?.[1] ?? NaN);
  } catch {
    return null;
  }
}

/** The ship's data sources, a year of its logger files uploaded, the default calculations, one execution. */
async function setUp(database: DatabaseHandle, services: Services, facilityId: string) {
  const ship = demoShips(6)[0]!;
  const configured = await seedDemoData(database, {
    facilityIds: { [ship.key]: facilityId },
    days: 0,
    until: UNTIL,
  });
  if (configured.errors.length) throw new Error(configured.errors.slice(0, 3).join('\n'));
  const source = await database.db
    .selectFrom('facility_data_sources')
    .select('id')
    .where('facility_id', '=', facilityId)
    .executeTakeFirstOrThrow();
  for (let d = days; d >= 1; d--) {
    const file = await writeShipDayFile(ship, new Date(UNTIL.getTime() - d * DAY_MS));
    const imported = await importUploadedFile(database, {
      facilityId,
      dataSourceId: source.id,
      fileName: file.fileName,
      content: file.content,
      importedBy: null,
    });
    if (imported.errorMessages.length) throw new Error(imported.errorMessages.join('\n'));
    if ((days - d + 1) % 50 === 0) process.stdout.write(`\r  ${days - d + 1}/${days} files imported`);
  }
  process.stdout.write('\n');
  await originalsCompressed();
  await seedDefaultMeasurementCalculations(database.db, facilityId, new Date('2000-01-01T00:00:00.000Z'));
  const queue = await startJobs(services, { work: true, tuning: { QUEUE_POLLING_SECONDS: 0.5 } });
  const executed = await executeDemoFleet(services, {
    facilityIds: [facilityId],
    from: new Date(UNTIL.getTime() - days * DAY_MS),
    to: new Date(UNTIL.getTime() - 1),
    pollMs: 100,
  });
  if (executed.failed.length) throw new Error(JSON.stringify(executed.failed));
  await queue.stop();
}

async function runOnce(kind: string): Promise<Row> {
  const setUpStarted = performance.now();
  const database = await open(kind);
  await migrateToLatest(database.db);
  const seed = await seedPlatform(database.db, { ships: 6 });
  const ship = demoShips(6)[0]!;
  const facilityId = seed.facilityIds[ship.key]!;
  const services = { database, config: {} } as unknown as Services;
  const stored = await database.db
    .selectFrom('data_files')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('facility_id', '=', facilityId)
    .executeTakeFirstOrThrow();
  if (!(reuse && Number(stored.n) === days)) await setUp(database, services, facilityId);
  const setUpS = (performance.now() - setUpStarted) / 1000;

  const files = await database.db
    .selectFrom('data_files')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('byte_size').as('bytes')])
    .where('facility_id', '=', facilityId)
    .executeTakeFirstOrThrow();
  const count = async (table: 'compliance_events' | 'record_book_entries') =>
    Number(
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('facility_id', '=', facilityId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  // The pack of the whole period, as a user asks for it: its first and last day.
  const pack = await database.db
    .insertInto('inspection_packs')
    .values({
      facility_id: facilityId,
      period_from: new Date(UNTIL.getTime() - days * DAY_MS),
      period_to: UNTIL,
      requested_by_name: 'bench',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  let peakRss = 0;
  let peakHeap = 0;
  let peakBuffers = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakBuffers = Math.max(peakBuffers, m.arrayBuffers);
  };
  global.gc?.();
  const startRss = process.memoryUsage().rss;
  sample();
  const sampler = setInterval(sample, 50);
  const stages: Record<string, number> = {};
  const started = performance.now();
  const outcome = await buildInspectionPack(
    services,
    { packId: pack.id },
    { jobId: 'bench', retryCount: 0, retryLimit: 0 },
    { level, timings: stages },
  );
  const buildS = (performance.now() - started) / 1000;
  clearInterval(sampler);
  sample();
  if (outcome.status !== 'done') throw new Error(JSON.stringify(outcome));
  const built = await database.db
    .selectFrom('inspection_packs')
    .selectAll()
    .where('id', '=', pack.id)
    .executeTakeFirstOrThrow();
  const parts: Buffer[] = [];
  for await (const part of readPackParts(database.db, pack.id)) parts.push(part);
  const row: Row = {
    kind,
    days,
    files: Number(files.n),
    originalBytes: Number(files.bytes),
    setUpS,
    buildS,
    stages,
    zipBytes: Number(built.zip_bytes),
    pdfBytes: Number(built.pdf_bytes),
    pdfPages: pdfPages(parts, Number(built.pdf_bytes)),
    events: await count('compliance_events'),
    recordBookEntries: await count('record_book_entries'),
    startRssMb: startRss / MB,
    peakRssMb: peakRss / MB,
    peakHeapMb: peakHeap / MB,
    peakBuffersMb: peakBuffers / MB,
  };
  await database.close();
  console.log(
    `  ${kind} ${days} days: pack built in ${buildS.toFixed(1)} s (${JSON.stringify(
      Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, Number(v.toFixed(2))])),
    )}), zip ${(row.zipBytes / MB).toFixed(1)} MB, PDF ${row.pdfPages} pages`,
  );
  return row;
}

const rows: Row[] = [];
for (const kind of kinds) rows.push(await runOnce(kind));

const cpuModel =
  /model name\s*:\s*(.+)/.exec(
    existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '',
  )?.[1] ??
  os.cpus()[0]?.model ??
  'cpu';
const uptime = (() => {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`;
  }
})();
const f = (n: number, d = 1) => n.toFixed(d);
const lines = [
  `## ${record || 'Inspection pack of one ship'}`,
  '',
  `Measured ${new Date().toISOString().slice(0, 10)}: \`nproc\` ${os.availableParallelism?.() ?? os.cpus().length}, ${cpuModel}, Node ${process.version}; \`uptime\` at the end: ${uptime}. ` +
    `Run: \`npx tsx bench/inspection-pack/run.ts ${process.argv
      .slice(2)
      .map((a) => (/\s/.test(a) ? `"${a}"` : a))
      .join(
        ' ',
      )}\`. One demo ship, ${days} days of daily logger files (one sample a minute, the demo fleet's channels), uploaded and executed with the default calculations first (set-up, not timed in the build); ` +
    "the build is buildInspectionPack, the job's function: content (reports, events, record book and its verification, calculations, data health a month at a time), originals (read back from the store, hashed, deflated into the zip, stored in 8 MB parts), PDF. Memory is sampled every 50 ms during the build (the set-up ran in the same process before it: the RSS at the start of the build is given).",
  '',
  '| database | days | original files | originals MB | set-up s | build s | content s | originals s | PDF s | finish s | zip MB | PDF pages | events | record book entries | RSS MB at the start, peak | peak heap MB | peak buffers MB | goal |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.kind} | ${r.days} | ${r.files} | ${f(r.originalBytes / MB)} | ${f(r.setUpS)} | ${f(r.buildS)} | ${f(r.stages.content ?? 0, 2)} | ${f(r.stages.originals ?? 0, 2)} | ${f(r.stages.pdf ?? 0, 2)} | ${f(r.stages.finish ?? 0, 2)} | ${f(r.zipBytes / MB)} | ${r.pdfPages ?? '?'} | ${r.events} | ${r.recordBookEntries} | ${f(r.startRssMb, 0)}, ${f(r.peakRssMb, 0)} | ${f(r.peakHeapMb, 0)} | ${f(r.peakBuffersMb, 0)} | ${
        r.kind === 'postgres' && r.days >= 365 ? (r.buildS < 20 ? 'met (< 20 s)' : 'missed (< 20 s)') : ''
      } |`,
  ),
  '',
];
if (record) {
  const out = path.join(here, '..', 'results', 'inspection-pack.md');
  if (!existsSync(out)) writeFileSync(out, '# Inspection pack: a year of one ship\n');
  appendFileSync(out, `\n${lines.join('\n')}`);
}
console.log(lines.join('\n'));
