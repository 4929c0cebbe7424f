import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema';
import { configureDemoDataSource, seedDemoData } from '../src/features/files/demo';
import { importUploadedFile, type ImportTarget } from '../src/features/files/import';
import { seedDefaultMeasurementCalculations } from '../src/features/calculations/seed';
import { demoShips, generateShipDay, writeSamplesFile, type DaySamples } from '@portal/demo-fleet';
import type { TestServer } from './harness';
import { waitFor } from './wait';

/** Demo-like data for execution tests: the demo ships' logger files of `days` days before `until`, imported through the upload service, with the default calculations approved. */
export const UNTIL = new Date('2025-03-10T00:00:00.000Z');
export const DAY = 86_400_000;

export async function prepareShips(
  database: ImportTarget,
  facilityIds: Record<string, string>,
  days: number,
  until = UNTIL,
): Promise<void> {
  const result = await seedDemoData(database, { facilityIds, days, until });
  if (result.errors.length) throw new Error(result.errors.join('\n'));
  for (const id of Object.values(facilityIds))
    await seedDefaultMeasurementCalculations(database.db, id, new Date('2000-01-01T00:00:00.000Z'));
}

/** Everything stored for a ship, as comparable text: measurement chunks (hashed), report values and events. */
export async function snapshot(db: Kysely<Database>, facilityId: string) {
  const measurement = await db
    .selectFrom('measurement_values')
    .select(['measurement_field_id', 'day', 'row_count', 'timestamps', 'values'])
    .where('facility_id', '=', facilityId)
    .orderBy('measurement_field_id')
    .orderBy('day')
    .execute();
  const report = await db
    .selectFrom('report_values')
    .select(['report_field_id', 'span_start', 'value'])
    .where('facility_id', '=', facilityId)
    .orderBy('report_field_id')
    .orderBy('span_start')
    .execute();
  const daily = await db
    .selectFrom('report_values_daily')
    .selectAll()
    .where('facility_id', '=', facilityId)
    .orderBy('report_field_id')
    .orderBy('day')
    .execute();
  const events = await db
    .selectFrom('compliance_events')
    .select(['type', 'start_on', 'end_on', 'ongoing', 'classification', 'report_required', 'worst_value'])
    .where('facility_id', '=', facilityId)
    .orderBy('start_on')
    .orderBy('type')
    .execute();
  const hash = (b: Uint8Array) => createHash('sha1').update(b).digest('hex');
  return {
    measurement: measurement.map(
      (m) =>
        `${m.measurement_field_id} ${new Date(m.day).toISOString().slice(0, 10)} ${m.row_count} ${hash(m.timestamps)} ${hash(m.values)}`,
    ),
    report: report.map((r) => `${r.report_field_id} ${new Date(r.span_start).toISOString()} ${r.value}`),
    daily: daily.map(
      (d) =>
        `${d.report_field_id} ${new Date(d.day).toISOString().slice(0, 10)} ${d.value_sum} ${d.value_count} ${d.span_count}`,
    ),
    events: events.map(
      (e) =>
        `${e.type} ${new Date(e.start_on).toISOString()} ${new Date(e.end_on).toISOString()} ${e.ongoing} ${e.classification} ${e.report_required} ${e.worst_value}`,
    ),
  };
}

/** Waits until the executions are done or failed. */
export async function waitForExecutions(db: Kysely<Database>, ids: string[], timeoutMs = 60_000) {
  return waitFor(() => db.selectFrom('executions').selectAll().where('id', 'in', ids).execute(), {
    what: `executions ${ids.join(', ')} to finish`,
    until: (rows) =>
      rows.length === ids.length && rows.every((r) => r.state === 'done' || r.state === 'failed'),
    show: (rows) => rows.map((r) => `${r.id} ${r.state} ${r.error ?? ''}`).join(', '),
    timeoutMs,
    intervalMs: 200,
  });
}

export const FAST_QUEUE = {
  QUEUE_POLLING_SECONDS: 0.5,
  QUEUE_RETRY_DELAY_SECONDS: 1,
  QUEUE_HEARTBEAT_SECONDS: 10,
  QUEUE_SUPERVISE_SECONDS: 2,
};

/**
 * The correctness tests' real path for demo ships over `days` days from `start`: each ship's logger data source and
 * channels, its daily logger files made from the generated samples and uploaded, the approved default calculations
 * valid from `start`, and one execution per ship through the API on the server's job queue, waited for. Answers each
 * ship's facility and the samples generated, for the test to compute the KPIs again.
 */
export async function executeDemoDays(
  server: TestServer,
  options: { shipKeys: readonly string[]; start: number; days: number },
): Promise<{ facilityIdOf: Record<string, string>; samplesOf: Record<string, DaySamples[]> }> {
  const db = server.services.database.db;
  const from = new Date(options.start);
  const to = new Date(options.start + options.days * DAY - 1);
  const facilityIdOf: Record<string, string> = {};
  const samplesOf: Record<string, DaySamples[]> = {};
  const client = await server.as('admin');
  const executions: string[] = [];
  for (const ship of demoShips(6).filter((s) => options.shipKeys.includes(s.key))) {
    const facilityId = server.seed.facilityIds[ship.key]!;
    facilityIdOf[ship.key] = facilityId;
    const dataSourceId = await configureDemoDataSource(
      db,
      ship,
      facilityId,
      `Scrubber logger of ${ship.name}`,
    );
    const fileIds: string[] = [];
    samplesOf[ship.key] = [];
    for (let d = 0; d < options.days; d++) {
      const { samples } = generateShipDay(ship, new Date(options.start + d * DAY));
      samplesOf[ship.key]!.push(samples);
      const file = await writeSamplesFile(ship, samples);
      const imported = await importUploadedFile(server.services.database, {
        facilityId,
        dataSourceId,
        fileName: file.fileName,
        content: file.content,
        importedBy: null,
      });
      if (imported.errorMessages.length)
        throw new Error(`${file.fileName}: ${imported.errorMessages.join('; ')}`);
      fileIds.push(...imported.ids);
    }
    await seedDefaultMeasurementCalculations(db, facilityId, from);
    const response = await client.post('/api/algorithm/calculations/measurement-field/execute', {
      facilityId,
      from: from.toISOString(),
      to: to.toISOString(),
      facilityDataSourceFileIds: fileIds,
    });
    if (response.statusCode !== 202) throw new Error(`execution not queued: ${response.body}`);
    executions.push(response.json().id as string);
  }
  const done = await waitForExecutions(db, executions, 240_000);
  const failed = done.filter((e) => e.state !== 'done' || e.error !== null);
  if (failed.length) throw new Error(`executions failed: ${JSON.stringify(failed.map((e) => e.error))}`);
  return { facilityIdOf, samplesOf };
}
