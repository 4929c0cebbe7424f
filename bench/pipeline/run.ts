/**
 * Upload -> execute -> dashboard numbers, for 1, 2 and 4 ship-years of the demo fleet at one sample a minute
 * (the demo fleet's logged channels): the demo ships' daily logger files imported through importUploadedFile, then one execution per
 * ship through the queue and the real job (all default measurement and report calculations, daily roll-up). Seconds
 * and rows per second per stage, on PGlite and on PostgreSQL. Results: bench/results/pipeline.md.
 *
 * Run: npx tsx bench/pipeline/run.ts [--ships 1,2,4] [--days 365] [--kinds pglite,postgres]
 *        [--postgres postgres://postgres@127.0.0.1:5432/portal_executions_bench]   (its public schema is emptied)
 *        [--record "a title"]   (appends the run to the results as a section of that title; without it, printed only)
 *        [--upload batch,each]   (batch: each ship's files in one importUploads, the default; each: one
 *                                 importUploadedFile per file, as a caller sending them one by one; both: side by side)
 *        [--smoke]   (1 ship, 2 days; the same upload and execution, checked)
 * Every run fails when an upload or an execution fails or the execution stores no values.
 */
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resetPostgres } from '../../apps/api/test/harness';
import { openDatabase, type DatabaseHandle } from '../../apps/api/src/storage/database';
import { migrateToLatest } from '../../apps/api/src/db/migrate';
import { seedPlatform } from '../../apps/api/src/seed/platform';
import { seedDemoData } from '../../apps/api/src/features/files/demo';
import { seedDefaultMeasurementCalculations } from '../../apps/api/src/features/calculations/seed';
import { executeDemoFleet } from '../../apps/api/src/features/executions/demo';
import { startJobs } from '../../apps/api/src/features/jobs';
import { importUploadedFile, importUploads } from '../../apps/api/src/features/files/import';
import { demoShips, writeShipDayFile } from '@portal/demo-fleet';
import type { Services } from '../../apps/api/src/services';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';
const shipCounts = arg('--ships', smoke ? '1' : '1,2,4')
  .split(',')
  .map(Number);
const days = Number(arg('--days', smoke ? '2' : '365'));
const kinds = arg('--kinds', 'pglite,postgres').split(',');
const postgresUrl = arg('--postgres', 'postgres://postgres@127.0.0.1:5432/portal_executions_bench');
const record = arg('--record', '');
const uploadModes = arg('--upload', 'batch').split(',') as ('batch' | 'each')[];
const UNTIL = new Date('2025-01-01T00:00:00.000Z');

interface Row {
  kind: string;
  upload: 'batch' | 'each';
  ships: number;
  samples: number;
  generateS: number;
  uploadS: number;
  executeS: number;
  measurementRows: number;
  reportRows: number;
  channels: number;
  measurementCalculations: number;
  reportCalculations: number;
  stages: Record<string, number>;
}

async function open(kind: string): Promise<DatabaseHandle> {
  if (kind === 'pglite') return openDatabase({ dataDir: 'memory://' });
  await resetPostgres(postgresUrl);
  return openDatabase({ databaseUrl: postgresUrl, dataDir: 'memory://' });
}

async function runOnce(kind: string, ships: number, upload: 'batch' | 'each'): Promise<Row> {
  const database = await open(kind);
  await migrateToLatest(database.db);
  const seed = await seedPlatform(database.db, { ships: Math.max(6, ships) });
  const keys = Object.keys(seed.facilityIds).slice(0, ships);
  const facilityIds = Object.fromEntries(keys.map((k) => [k, seed.facilityIds[k]!]));
  const services = { database, config: {} } as unknown as Services;

  // The demo ships' data sources and channels (no files), then their logger files made up front: making them is the
  // demo fleet's work, not the portal's, so it is timed apart from the upload.
  const configured = await seedDemoData(database, { facilityIds, days: 0, until: UNTIL });
  if (configured.errors.length) throw new Error(configured.errors.slice(0, 3).join('\n'));
  let started = performance.now();
  const uploads: { facilityId: string; dataSourceId: string; fileName: string; content: Buffer }[] = [];
  for (const ship of demoShips(Math.max(6, ships)).filter((s) => facilityIds[s.key])) {
    const facilityId = facilityIds[ship.key]!;
    const source = await database.db
      .selectFrom('facility_data_sources')
      .select('id')
      .where('facility_id', '=', facilityId)
      .executeTakeFirstOrThrow();
    for (let d = days; d >= 1; d--) {
      const file = await writeShipDayFile(ship, new Date(UNTIL.getTime() - d * 86_400_000));
      uploads.push({ facilityId, dataSourceId: source.id, fileName: file.fileName, content: file.content });
    }
  }
  const generateS = (performance.now() - started) / 1000;
  started = performance.now();
  const errors: string[] = [];
  if (upload === 'each') {
    for (const [i, file] of uploads.entries()) {
      const imported = await importUploadedFile(database, { ...file, importedBy: null });
      errors.push(...imported.errorMessages);
      if ((i + 1) % 50 === 0)
        process.stdout.write(`\r  ${kind} ${ships} ship(s): ${i + 1}/${uploads.length} files imported`);
    }
  } else {
    // Each ship's files in one call, as a multi-file upload or the uploader's folder sends them.
    for (const facilityId of Object.values(facilityIds)) {
      const own = uploads.filter((u) => u.facilityId === facilityId);
      const imported = await importUploads(database, {
        facilityId,
        dataSourceId: own[0]!.dataSourceId,
        uploads: own,
        importedBy: null,
      });
      errors.push(...imported.errorMessages);
      process.stdout.write(`\r  ${kind} ${ships} ship(s): ${imported.ids.length} files imported`);
    }
  }
  const uploadS = (performance.now() - started) / 1000;
  process.stdout.write('\n');
  if (errors.length) throw new Error(errors.slice(0, 3).join('\n'));
  for (const id of Object.values(facilityIds))
    await seedDefaultMeasurementCalculations(database.db, id, new Date('2000-01-01T00:00:00.000Z'));
  const samples = Number(
    (
      await database.db
        .selectFrom('data_files')
        .select((eb) => eb.fn.sum<number>('row_count').as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

  const stages: Record<string, number> = {};
  const queue = await startJobs(services, {
    work: true,
    tuning: { QUEUE_POLLING_SECONDS: 0.5 },
    run: { timings: stages },
  });
  started = performance.now();
  const result = await executeDemoFleet(services, {
    facilityIds: Object.values(facilityIds),
    from: new Date(UNTIL.getTime() - days * 86_400_000),
    to: new Date(UNTIL.getTime() - 1),
    pollMs: 100,
  });
  const executeS = (performance.now() - started) / 1000;
  if (result.failed.length) throw new Error(JSON.stringify(result.failed));
  const count = async (
    table:
      | 'measurement_values'
      | 'report_values'
      | 'data_source_channels'
      | 'measurement_field_calculations'
      | 'report_field_calculations',
  ) =>
    Number(
      (
        await database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const measurementChunks = await count('measurement_values');
  const reportRows = await count('report_values');
  if (!measurementChunks || !reportRows)
    throw new Error(
      `the executions stored ${measurementChunks} measurement chunks and ${reportRows} report values`,
    );
  const measurementRows = Number(
    (
      await database.db
        .selectFrom('measurement_values')
        .select((eb) => eb.fn.sum<number>('row_count').as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  /** Per ship: every ship of the bench is configured alike. */
  const countOf = async (table: Parameters<typeof count>[0]) => (await count(table)) / ships;
  const channels = await countOf('data_source_channels');
  const measurementCalculations = await countOf('measurement_field_calculations');
  const reportCalculations = await countOf('report_field_calculations');
  await queue.stop();
  await database.close();
  console.log(
    `  ${kind} ${ships} ship(s): upload (${upload}) ${uploadS.toFixed(1)} s, execute ${executeS.toFixed(1)} s (${measurementChunks} day chunks, ${reportRows} report values)`,
  );
  return {
    kind,
    upload,
    ships,
    samples,
    generateS,
    uploadS,
    executeS,
    measurementRows,
    reportRows,
    channels,
    measurementCalculations,
    reportCalculations,
    stages: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, v / 1000])),
  };
}

const rows: Row[] = [];
for (const kind of kinds)
  for (const ships of shipCounts)
    for (const upload of uploadModes) rows.push(await runOnce(kind, ships, upload));

const f = (n: number, d = 1) => n.toFixed(d);
const first = rows[0]!;
const lines = [
  `## ${record || 'Pipeline: upload, execute, dashboard numbers'}`,
  '',
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}), Node ${process.version}. ` +
    `${days} days per ship, one sample a minute, the demo fleet's ${first.channels} logged channels per ship; ` +
    `all default calculations per ship: ${first.measurementCalculations} measurement fields, ${first.reportCalculations} report fields. ` +
    `Run: \`npx tsx bench/pipeline/run.ts ${process.argv.slice(2).join(' ')}\`. ` +
    `Load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}. ` +
    "Upload = the daily files through importUploads, each ship's in one call (batch), or importUploadedFile of every daily file (each) (making the files is the demo fleet's work and timed apart); execute = queue + job until the dashboard numbers (daily roll-up) are stored.",
  '',
  '| database | upload | ship-years | raw samples | (making the files s) | upload s | samples/s | execute s | measurement values/s | report values | total s | goal |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map((r) => {
    const total = r.uploadS + r.executeS;
    const goal =
      r.ships === 1 && !smoke
        ? r.kind === 'postgres'
          ? total < 20
            ? 'met (< 20 s)'
            : 'missed (< 20 s)'
          : total < 40
            ? 'met (< 40 s)'
            : 'missed (< 40 s)'
        : '';
    return `| ${r.kind} | ${r.upload} | ${(r.ships * days) / 365} | ${r.samples} | (${f(r.generateS)}) | ${f(r.uploadS)} | ${f(r.samples / r.uploadS, 0)} | ${f(r.executeS)} | ${f(r.measurementRows / r.executeS, 0)} | ${r.reportRows} | ${f(total)} | ${goal} |`;
  }),
  '',
  'Execution stages (seconds, summed over the ships; "commit" is the one replacing transaction: store + roll-up + done):',
  '',
  `| database | upload | ship-years | ${Object.keys(rows[0]?.stages ?? {}).join(' | ')} |`,
  `|---|---|---|${Object.keys(rows[0]?.stages ?? {})
    .map(() => '---')
    .join('|')}|`,
  ...rows.map(
    (r) =>
      `| ${r.kind} | ${r.upload} | ${(r.ships * days) / 365} | ${Object.values(r.stages)
        .map((v) => f(v, 2))
        .join(' | ')} |`,
  ),
  '',
];
if (record) {
  const out = path.join(here, '..', 'results', 'pipeline.md');
  if (!existsSync(path.dirname(out))) mkdirSync(path.dirname(out), { recursive: true });
  if (!existsSync(out)) writeFileSync(out, '# Pipeline: upload, execute, dashboard numbers\n\n');
  appendFileSync(out, `\n${lines.join('\n')}`);
}
console.log(lines.join('\n'));
