import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './harness';
import { DAY, FAST_QUEUE, UNTIL, prepareShips, snapshot, waitForExecutions } from './execution-fixtures';
import type { Queue } from '../src/jobs';
import { startJobs } from '../src/features/jobs';
import { deleteDerivedValues, requestRecalculation } from '../src/features/executions/derived';
import { computePeriod, storeComputed } from '../src/features/executions/engine';
import { enginePorts } from '../src/features/engine-ports';
import { readMeasurementValues } from '../src/storage';
import { seedDefaultMeasurementCalculations } from '../src/features/calculations/seed';
import { createCsvDataSource, csvFile, sendFile } from './upload-helpers';
import { waitFor } from './wait';

// Two demo ships of North (visible to north.anna) and one of South; two days of logger files each.
let server: TestServer;
let queue: Queue;
let north: string;
let south: string;
/** A North ship without data or configuration of its own. */
let spare: string;
const FROM = new Date(UNTIL.getTime() - 2 * DAY);
const TO = new Date(UNTIL.getTime() - 1);
const FIELDS = 35;

const fieldId = async (name: string) =>
  (
    await server.services.database.db
      .selectFrom('measurement_fields')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirstOrThrow()
  ).id;
const fileIds = async (facilityId: string) =>
  (
    await server.services.database.db
      .selectFrom('data_files')
      .select('id')
      .where('facility_id', '=', facilityId)
      .execute()
  ).map((f) => f.id);

async function execute(username: string, facilityId: string, from = FROM, to = TO) {
  const client = await server.as(username);
  return client.post('/api/algorithm/calculations/measurement-field/execute', {
    facilityId,
    from: from.toISOString(),
    to: to.toISOString(),
    facilityDataSourceFileIds: await fileIds(facilityId),
  });
}

async function executeAndWait(facilityId: string, from = FROM, to = TO) {
  const response = await execute('admin', facilityId, from, to);
  expect(response.statusCode).toBe(202);
  const [row] = await waitForExecutions(server.services.database.db, [response.json().id]);
  return row!;
}

beforeAll(async () => {
  server = await startTestServer({ jobs: 'none' });
  const keys = Object.keys(server.seed.facilityIds);
  const { db } = server.services.database;
  const orgOf = async (id: string) =>
    (
      await db
        .selectFrom('facilities')
        .select('primary_organization_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).primary_organization_id;
  const northKeys: string[] = [];
  const southKeys: string[] = [];
  for (const key of keys)
    ((await orgOf(server.seed.facilityIds[key]!)) === server.seed.organizationIds.north
      ? northKeys
      : southKeys
    ).push(key);
  north = server.seed.facilityIds[northKeys[0]!]!;
  south = server.seed.facilityIds[southKeys[southKeys.length - 1]!]!;
  spare = server.seed.facilityIds[northKeys[1]!]!;
  await prepareShips(
    server.services.database,
    { [northKeys[0]!]: north, [southKeys[southKeys.length - 1]!]: south },
    2,
  );
  queue = await startJobs(server.services, { work: true, tuning: FAST_QUEUE });
}, 120_000);

afterAll(async () => {
  await queue?.stop();
  await server?.close();
});

describe('execute', () => {
  it('answers at once, runs in the background and stores every field per day and the hourly report values', async () => {
    const response = await execute('north.anna', north);
    expect(response.statusCode).toBe(202);
    expect(response.json().state).toBe('queued');
    const [row] = await waitForExecutions(server.services.database.db, [response.json().id]);
    expect(row!.state).toBe('done');
    expect(row!.started_on).not.toBeNull();
    expect(row!.finished_on).not.toBeNull();
    const stored = await snapshot(server.services.database.db, north);
    expect(stored.measurement).toHaveLength(FIELDS * 2);
    // 48 hours of each report field that has a calculation.
    const hours = new Set(stored.report.map((r) => r.split(' ')[1]));
    expect(hours.size).toBe(48);
    expect(stored.daily.length).toBeGreaterThan(0);
    const ratio = await readMeasurementValues(
      server.services.database.db,
      north,
      await fieldId('SO2_CO2_RATIO'),
      FROM.getTime(),
      UNTIL.getTime(),
    );
    expect(ratio.timestamps.length).toBe(2 * 1440);
    expect(Array.from(ratio.values).some((v) => Number.isFinite(v) && v > 0)).toBe(true);
    // Nothing left running on the ship list.
    const status = await (await server.as('north.anna')).get('/api/algorithm/calculations');
    expect(status.json().items.filter((i: { facilityId: string }) => i.facilityId === north)).toEqual([]);
  });

  it('gives the same values when run again, for the period or a part of it, with nothing doubled', async () => {
    const before = await snapshot(server.services.database.db, north);
    await executeAndWait(north);
    expect(await snapshot(server.services.database.db, north)).toEqual(before);
    // One hour of the second day: the whole day is recomputed from all its samples, the same values again.
    await executeAndWait(
      north,
      new Date(UNTIL.getTime() - DAY + 3_600_000),
      new Date(UNTIL.getTime() - DAY + 2 * 3_600_000 - 1),
    );
    expect(await snapshot(server.services.database.db, north)).toEqual(before);
  });

  it('refuses bad input with field messages', async () => {
    const client = await server.as('north.anna');
    const files = await fileIds(north);
    const url = '/api/algorithm/calculations/measurement-field/execute';
    const noFiles = await client.post(url, {
      facilityId: north,
      from: FROM.toISOString(),
      to: TO.toISOString(),
      facilityDataSourceFileIds: [],
    });
    expect(noFiles.statusCode).toBe(400);
    expect(noFiles.json().fields.facilityDataSourceFileIds).toBeDefined();
    const reversed = await client.post(url, {
      facilityId: north,
      from: TO.toISOString(),
      to: FROM.toISOString(),
      facilityDataSourceFileIds: files,
    });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().fields.from).toBeDefined();
    const notADate = await client.post(url, {
      facilityId: north,
      from: 'yesterday',
      to: TO.toISOString(),
      facilityDataSourceFileIds: files,
    });
    expect(notADate.statusCode).toBe(400);
    const foreignFile = await client.post(url, {
      facilityId: north,
      from: FROM.toISOString(),
      to: TO.toISOString(),
      facilityDataSourceFileIds: await fileIds(south),
    });
    expect(foreignFile.statusCode).toBe(400);
    expect(foreignFile.json().fields.facilityDataSourceFileIds).toBe(
      'A selected file does not belong to the ship',
    );
    const tooLong = await client.post(url, {
      facilityId: north,
      from: '2015-01-01T00:00:00.000Z',
      to: TO.toISOString(),
      facilityDataSourceFileIds: files,
    });
    expect(tooLong.statusCode).toBe(400);
  });

  it("does not reveal another organization's ship", async () => {
    const response = await execute('north.anna', south);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Ship not found');
    const client = await server.as('north.anna');
    const unknown = await client.post('/api/algorithm/calculations/measurement-field/execute', {
      facilityId: '00000000-0000-0000-0000-000000000000',
      from: FROM.toISOString(),
      to: TO.toISOString(),
      facilityDataSourceFileIds: await fileIds(north),
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('following an execution by its id', () => {
  it('answers queued or running, then done with what the run did', async () => {
    const response = await execute('north.anna', north);
    const { id } = response.json();
    const anna = await server.as('north.anna');
    const first = (await anna.get(`/api/executions/${id}`)).json();
    expect(['queued', 'running']).toContain(first.state);
    expect(first).toMatchObject({ id, facilityId: north, kind: 'execute', counts: null, error: null });
    const body = await waitFor(async () => (await anna.get(`/api/executions/${id}`)).json(), {
      what: `execution ${id} to finish`,
      until: (b) => b.state === 'done' || b.state === 'failed',
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    expect(body).toMatchObject({
      state: 'done',
      period: { from: FROM.toISOString(), to: TO.toISOString() },
      attempts: 1,
      error: null,
    });
    expect(Date.parse(body.requestedOn)).toBeLessThanOrEqual(Date.parse(body.startedOn));
    expect(Date.parse(body.startedOn)).toBeLessThanOrEqual(Date.parse(body.finishedOn));
    const files = (await fileIds(north)).length;
    expect(body.counts).toMatchObject({ files, targets: 2 * 1440, measurementFields: FIELDS });
    expect(body.counts.samples).toBeGreaterThan(2 * 1440);
    expect(body.counts.measurementValues).toBeGreaterThanOrEqual(2 * 1440);
    expect(body.counts.reportFields).toBeGreaterThan(0);
    expect(body.counts.reportValues).toBe((await snapshot(server.services.database.db, north)).report.length);
  });

  it("answers another organization's execution, an unknown and a malformed id as missing", async () => {
    const response = await execute('admin', south);
    const { id } = response.json();
    const anna = await server.as('north.anna');
    for (const url of [
      `/api/executions/${id}`,
      '/api/executions/00000000-0000-4000-8000-000000000000',
      '/api/executions/not-an-id',
    ]) {
      const answer = await anna.get(url);
      expect(answer.statusCode, url).toBe(404);
      expect(answer.json().message, url).toBe('Execution not found');
    }
    await waitForExecutions(server.services.database.db, [id]);
  });

  it('fails with a reason when the file matches none of the mapped channels', async () => {
    const { db } = server.services.database;
    // The ship's logger is mapped as the demo's (SO2_PPM from column SO2, CO2_PCT from CO2); its file says otherwise.
    const dataSourceId = await createCsvDataSource(server, spare, { name: 'StackLogger' });
    await db
      .insertInto('data_source_channels')
      .values(
        [
          ['SO2', 'SO2_PPM'],
          ['CO2', 'CO2_PCT'],
          ['Running', 'SCRUBBER_RUNNING'],
        ].map(([source, name]) => ({
          facility_id: spare,
          data_source_id: dataSourceId,
          source: source!,
          name: name!,
          data_type: name === 'SCRUBBER_RUNNING' ? 'Boolean' : 'Double',
          quality_score: 5,
        })),
      )
      .execute();
    await seedDefaultMeasurementCalculations(db, spare, new Date('2000-01-01T00:00:00.000Z'));
    const upload = await sendFile(
      server,
      'admin',
      'POST',
      `/api/algorithm/facilitydatasource/${dataSourceId}/file`,
      'stack.csv',
      csvFile({ start: '2025-03-08 00:00:00', rows: 120, channels: ['SO2 Outlet [ppm]', 'CO2 Outlet [%]'] }),
    );
    expect(upload.statusCode).toBe(200);
    const response = await (
      await server.as('admin')
    ).post('/api/algorithm/calculations/measurement-field/execute', {
      facilityId: spare,
      from: '2025-03-08T00:00:00.000Z',
      to: '2025-03-08T01:59:59.999Z',
      facilityDataSourceFileIds: await fileIds(spare),
    });
    expect(response.statusCode).toBe(202);
    const [row] = await waitForExecutions(db, [response.json().id]);
    const followed = (await (await server.as('admin')).get(`/api/executions/${row!.id}`)).json();
    expect(followed).toMatchObject({
      state: 'failed',
      attempts: 1,
      error:
        'None of the mapped channels (CO2_PCT, SCRUBBER_RUNNING, SO2_PPM) has a value between 2025.03.08 00:00 and ' +
        '2025.03.09 00:00 (UTC); check the channel mappings of data source StackLogger',
    });
    // A permanent failure: the job is not retried.
    const job = await sql<{
      state: string;
      retry_count: number;
    }>`select state, retry_count from pgboss.job where id = ${row!.job_id}::uuid`.execute(db);
    expect(job.rows[0]).toMatchObject({ state: 'failed', retry_count: 0 });
    // Whoever may upload to the ship sees the failure in the status.
    const status = (await (await server.as('north.admin')).get('/api/algorithm/calculations/base')).json();
    expect(status.failed).toContainEqual(expect.objectContaining({ id: row!.id, error: followed.error }));
  });
});

describe('failing calculations', () => {
  async function approve(
    facilityId: string,
    field: string,
    algorithm: string,
    inputNames: string[],
    outputType = 'Double',
  ) {
    const { db } = server.services.database;
    const inputs = await db
      .selectFrom('measurement_fields')
      .select(['id', 'name'])
      .where('name', 'in', inputNames.length ? inputNames : [''])
      .execute();
    return db
      .insertInto('measurement_field_calculations')
      .values({
        facility_id: facilityId,
        measurement_field_id: await fieldId(field),
        version: 9,
        revision: 0,
        input_ids: JSON.stringify(inputNames.map((n) => inputs.find((i) => i.name === n)!.id)),
        transform_algorithm: algorithm,
        output_type: outputType as 'Double',
        approved_on: new Date(),
        valid_from: new Date('2001-01-01T00:00:00.000Z'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  }

  it('fails the job with a readable error on a runtime error and leaves the earlier values as they were', async () => {
    const { db } = server.services.database;
    const before = await snapshot(db, north);
    const calc = await approve(north, 'SCRUBBER_FUEL', 'return "a text";', [], 'String');
    try {
      const row = await executeAndWait(north);
      expect(row.state).toBe('failed');
      expect(row.error).toMatch(/^Measurement field SCRUBBER_FUEL, calculation 9\.0: .*String output/);
      expect(await snapshot(db, north)).toEqual(before);
      // Followed by its id: failed, with the error, after one attempt.
      const followed = await (await server.as('north.anna')).get(`/api/executions/${row.id}`);
      expect(followed.json()).toMatchObject({
        id: row.id,
        state: 'failed',
        error: row.error,
        attempts: 1,
        counts: null,
        finishedOn: expect.any(String),
      });
      // The queue's job is failed at once (no retries of an error that would repeat).
      const job = await sql<{
        state: string;
        retry_count: number;
      }>`select state, retry_count from pgboss.job where id = ${row.job_id}::uuid`.execute(db);
      expect(job.rows[0]).toMatchObject({ state: 'failed', retry_count: 0 });
      const status = await (await server.as('admin')).get('/api/algorithm/calculations');
      expect(
        status
          .json()
          .failed.some((f: { id: string; error: string }) => f.id === row.id && f.error === row.error),
      ).toBe(true);
    } finally {
      await db.deleteFrom('measurement_field_calculations').where('id', '=', calc.id).execute();
    }
  });

  it('fails the job when a calculation exceeds its time budget', async () => {
    const { db } = server.services.database;
    const before = await snapshot(db, north);
    const field = await db.selectFrom('report_fields').select('id').limit(1).executeTakeFirstOrThrow();
    const calc = await db
      .insertInto('report_field_calculations')
      .values({
        report_field_id: field.id,
        version: 9,
        revision: 0,
        algorithm_seconds_span: 2 * 86_400,
        input_ids: JSON.stringify([await fieldId('SCRUBBER_FUEL')]),
        // Quadratic in the samples of the span: far over a 5 ms budget for two days at one a minute.
        transform_algorithm: 'return SCRUBBER_FUEL.Where(v => v > SCRUBBER_FUEL.Average()).Count();',
        approved_on: new Date(),
        valid_from: new Date('2001-01-01T00:00:00.000Z'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // config.ts EXECUTION_BUDGET_MS, as a worker started with EXECUTION_BUDGET_MS=5 reads it.
    server.services.config.EXECUTION_BUDGET_MS = 5;
    try {
      const row = await executeAndWait(north);
      expect(row.state).toBe('failed');
      expect(row.error).toMatch(/calculation 9\.0: Calculation stopped: it exceeded its time budget of 5 ms/);
      expect(await snapshot(db, north)).toEqual(before);
    } finally {
      delete server.services.config.EXECUTION_BUDGET_MS;
      await db.deleteFrom('report_field_calculations').where('id', '=', calc.id).execute();
    }
  });

  it('fails on measurement fields that read each other in a cycle', async () => {
    const { db } = server.services.database;
    const a = await approve(north, 'WASHWATER_PH', 'return WASHWATER_PAH;', ['WASHWATER_PAH']);
    const b = await approve(north, 'WASHWATER_PAH', 'return WASHWATER_PH;', ['WASHWATER_PH']);
    try {
      const row = await executeAndWait(north);
      expect(row.state).toBe('failed');
      expect(row.error).toMatch(/cycle: WASHWATER_P(H|AH) -> WASHWATER_P(AH|H) -> WASHWATER_P(H|AH)/);
    } finally {
      await db.deleteFrom('measurement_field_calculations').where('id', 'in', [a.id, b.id]).execute();
    }
  });
});

describe('recalculation queue', () => {
  it('lists, removes, queues, cancels and executes with the state rules', async () => {
    const { db } = server.services.database;
    await executeAndWait(north);
    const before = await readMeasurementValues(
      db,
      north,
      await fieldId('SCRUBBER_FUEL'),
      FROM.getTime(),
      UNTIL.getTime(),
    );
    const reportBefore = await snapshot(db, north);
    // A new version of SCRUBBER_FUEL (300 g/kWh) valid from the second day, saved with "recalculate".
    const v2 = await db
      .insertInto('measurement_field_calculations')
      .values({
        facility_id: north,
        measurement_field_id: await fieldId('SCRUBBER_FUEL'),
        version: 2,
        revision: 1,
        input_ids: JSON.stringify([await fieldId('SCRUBBER_POWER')]),
        transform_algorithm: 'return SCRUBBER_POWER * 300 / 1000;',
        approved_on: new Date(),
        valid_from: new Date(UNTIL.getTime() - DAY),
        recalculation_requested_on: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const admin = await server.as('admin');
    const list = await admin.get(
      `/api/algorithm/calculations/measurement-fields?recalculationRequested=true&facilityId=${north}`,
    );
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({
        id: v2.id,
        fieldName: 'SCRUBBER_FUEL',
        reportName: null,
        version: 2,
        revision: 1,
        recalculationQueuedOn: null,
      }),
    ]);
    expect(
      (
        await (
          await server.as('north.anna')
        ).get(
          `/api/algorithm/calculations/measurement-fields?recalculationRequested=true&facilityId=${north}`,
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (await admin.get('/api/algorithm/calculations/measurement-fields?recalculationRequested=true'))
        .statusCode,
    ).toBe(400);

    // Requested, not queued: cancel is refused; unknown ids are 404.
    expect(
      (
        await admin.post('/api/algorithm/calculations/measurement-fields/recalculation/cancel', {
          ids: [v2.id],
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await admin.post('/api/algorithm/calculations/measurement-fields/recalculation/execute', {
          ids: ['00000000-0000-0000-0000-000000000000'],
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await (
          await server.as('north.anna')
        ).post('/api/algorithm/calculations/measurement-fields/recalculation/execute', { ids: [v2.id] })
      ).statusCode,
    ).toBe(403);

    // Queue it, cancel it (back to requested), queue it again and let it run.
    await queue.boss.offWork('recalculation');
    const queued = await admin.post('/api/algorithm/calculations/measurement-fields/recalculation/execute', {
      ids: [v2.id],
    });
    expect(queued.json()).toEqual({ count: 1 });
    // Queued from the moment it is requested: the status lists the ship's recalculation before its job runs.
    const recalculations = () =>
      db
        .selectFrom('executions')
        .select(['id', 'state'])
        .where('facility_id', '=', north)
        .where('kind', '=', 'recalculation')
        .execute();
    const [pendingRow] = await recalculations();
    expect(pendingRow).toMatchObject({ state: 'queued' });
    const listed = (await (await server.as('north.anna')).get('/api/algorithm/calculations/base')).json();
    expect(listed.items).toContainEqual(
      expect.objectContaining({ id: pendingRow!.id, facilityId: north, state: 'queued' }),
    );
    expect((await admin.get(`/api/executions/${pendingRow!.id}`)).json()).toMatchObject({
      kind: 'recalculation',
      state: 'queued',
      startedOn: null,
    });
    expect(
      (await admin.delete('/api/algorithm/calculations/measurement-fields/recalculation', { ids: [v2.id] }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await admin.post('/api/algorithm/calculations/measurement-fields/recalculation/cancel', {
          ids: [v2.id],
        })
      ).json(),
    ).toEqual({ count: 1 });
    const afterCancel = (
      await admin.get(
        `/api/algorithm/calculations/measurement-fields?recalculationRequested=true&facilityId=${north}`,
      )
    ).json();
    expect(afterCancel[0].recalculationQueuedOn).toBeNull();
    expect(afterCancel[0].recalculationRequestedOn).not.toBeNull();
    // Cancelled: its execution will not run, so it is no longer listed.
    expect(await recalculations()).toEqual([]);
    expect(
      (
        await admin.post('/api/algorithm/calculations/measurement-fields/recalculation/execute', {
          ids: [v2.id],
        })
      ).json(),
    ).toEqual({ count: 1 });
    await startRecalculationWorker();

    await waitFor(
      async () =>
        (
          await admin.get(
            `/api/algorithm/calculations/measurement-fields?recalculationRequested=true&facilityId=${north}`,
          )
        ).json() as unknown[],
      { what: 'the recalculation to finish', until: (left) => left.length === 0, timeoutMs: 60_000 },
    );
    const after = await readMeasurementValues(
      db,
      north,
      await fieldId('SCRUBBER_FUEL'),
      FROM.getTime(),
      UNTIL.getTime(),
    );
    const secondDay = UNTIL.getTime() - DAY;
    for (let i = 0; i < after.timestamps.length; i += 97) {
      const expected = after.timestamps[i]! >= secondDay ? before.values[i]! * 1.5 : before.values[i]!;
      if (Number.isNaN(expected)) expect(after.values[i]).toBeNaN();
      else expect(after.values[i]).toBeCloseTo(expected, 9);
    }
    // The report values that read SCRUBBER_FUEL changed; a recalculation execution row is done.
    expect((await snapshot(db, north)).report).not.toEqual(reportBefore.report);
    const rows = await db
      .selectFrom('executions')
      .select(['state', 'kind'])
      .where('facility_id', '=', north)
      .where('kind', '=', 'recalculation')
      .execute();
    expect(rows).toEqual([{ state: 'done', kind: 'recalculation' }]);
    await db.deleteFrom('measurement_field_calculations').where('id', '=', v2.id).execute();
    await executeAndWait(north);
  });

  it('removes requested report field recalculations from the queue', async () => {
    const { db } = server.services.database;
    const calc = await db
      .selectFrom('report_field_calculations')
      .innerJoin('report_fields', 'report_fields.id', 'report_field_calculations.report_field_id')
      .select(['report_field_calculations.id', 'report_fields.name'])
      .limit(1)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('report_field_calculations')
      .set({ recalculation_requested_on: new Date() })
      .where('id', '=', calc.id)
      .execute();
    const admin = await server.as('admin');
    const list = (
      await admin.get('/api/algorithm/calculations/report-fields?recalculationRequested=true')
    ).json();
    expect(list).toEqual([
      expect.objectContaining({ id: calc.id, fieldName: calc.name, reportName: expect.any(String) }),
    ]);
    expect(
      (
        await admin.delete('/api/algorithm/calculations/report-fields/recalculation', { ids: [calc.id] })
      ).json(),
    ).toEqual({ count: 1 });
    expect(
      (await admin.get('/api/algorithm/calculations/report-fields?recalculationRequested=true')).json(),
    ).toEqual([]);
    expect(
      (await admin.delete('/api/algorithm/calculations/report-fields/recalculation', { ids: [] })).statusCode,
    ).toBe(400);
  });
});

// The recalculation worker is stopped in the queue test while the states are checked; this starts it again.
async function startRecalculationWorker() {
  const { runRecalculation } = await import('../src/features/executions/run');
  const { enginePortsOf } = await import('../src/features/engine-ports');
  const ports = enginePortsOf(server.services);
  await queue.boss.work(
    'recalculation',
    { pollingIntervalSeconds: 0.5, includeMetadata: true, perJobResults: true },
    async (jobs) => {
      const results = [];
      for (const job of jobs) {
        const outcome = await runRecalculation(server.services, ports, job.data as never, {
          jobId: job.id,
          retryCount: job.retryCount,
          retryLimit: job.retryLimit,
        });
        results.push({
          id: job.id,
          status: outcome.status === 'failed' ? ('failed' as const) : ('completed' as const),
        });
      }
      return results;
    },
  );
}

describe('deleting values', () => {
  it('deletes measurement field values of a range, keeping the rest of a day it cuts (SystemAdmin only)', async () => {
    const { db } = server.services.database;
    await executeAndWait(north);
    const field = await fieldId('FUEL_FLOW');
    const before = await readMeasurementValues(db, north, field, FROM.getTime(), UNTIL.getTime());
    const from = new Date(FROM.getTime() + 6 * 3_600_000);
    const to = new Date(FROM.getTime() + 12 * 3_600_000);
    const url = `/api/algorithm/measurement-fields/values?facilityId=${north}&from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
    expect((await (await server.as('north.anna')).delete(url)).statusCode).toBe(403);
    const response = await (await server.as('admin')).delete(url);
    expect(response.statusCode).toBe(200);
    const after = await readMeasurementValues(db, north, field, FROM.getTime(), UNTIL.getTime());
    const removed = Array.from(before.timestamps).filter(
      (t) => t >= from.getTime() && t <= to.getTime(),
    ).length;
    expect(removed).toBe(361);
    expect(after.timestamps.length).toBe(before.timestamps.length - removed);
    expect(Array.from(after.timestamps).some((t) => t >= from.getTime() && t <= to.getTime())).toBe(false);
    const bad = await (
      await server.as('admin')
    ).delete(
      `/api/algorithm/measurement-fields/values?facilityId=${north}&from=${encodeURIComponent(to.toISOString())}&to=${encodeURIComponent(from.toISOString())}`,
    );
    expect(bad.statusCode).toBe(400);
  });

  it("deletes a file's derived values and recalculates the range from the remaining samples", async () => {
    const { db } = server.services.database;
    await executeAndWait(north);
    const complete = await snapshot(db, north);
    const removed = await deleteDerivedValues(db, north, FROM, new Date(FROM.getTime() + DAY - 1));
    expect(removed.measurementChunks).toBe(FIELDS);
    expect(removed.reportValues).toBeGreaterThan(0);
    expect((await snapshot(db, north)).measurement).toHaveLength(FIELDS);
    const id = await requestRecalculation(server.services, north, FROM, new Date(FROM.getTime() + DAY - 1));
    const [row] = await waitForExecutions(db, [id]);
    expect(row!.state).toBe('done');
    expect(await snapshot(db, north)).toEqual(complete);
  });
});

describe.skipIf(!process.env.DATABASE_URL)(
  "two executions of a ship's period at once, on two workers (PostgreSQL: the embedded database has one connection)",
  () => {
    it('the second waits for the first to commit and replaces its values: both done, nothing doubled or refused', async () => {
      const { db } = server.services.database;
      await executeAndWait(north);
      const expected = await snapshot(db, north);
      const book = async () =>
        (
          await db
            .selectFrom('record_book_entries')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('facility_id', '=', north)
            .executeTakeFirstOrThrow()
        ).n;
      const entries = await book();
      const request = {
        facilityId: north,
        from: FROM.getTime(),
        to: UNTIL.getTime(),
        measurementFieldIds: 'all' as const,
        reportFieldIds: 'all' as const,
      };
      // Both computed from the same committed state, as two workers taking two requests for the same days do.
      const [first, second] = await Promise.all([
        computePeriod(db, request, enginePorts()),
        computePeriod(db, request, enginePorts()),
      ]);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let firstStored!: () => void;
      const storedByFirst = new Promise<void>((resolve) => (firstStored = resolve));
      const one = db.transaction().execute(async (trx) => {
        await storeComputed(trx, first!, enginePorts());
        firstStored();
        await released;
      });
      await storedByFirst;
      const two = db.transaction().execute(async (trx) => {
        await storeComputed(trx, second!, enginePorts());
      });
      // The second is under way, waiting for a lock the first holds with its uncommitted rows.
      await waitFor(
        async () =>
          (
            await sql<{ n: number }>`
              select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`.execute(db)
          ).rows[0]!.n > 0,
        { what: 'the second store to wait for the first' },
      );
      release();
      const outcomes = await Promise.allSettled([one, two]);
      expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : o.status))).toEqual([
        'fulfilled',
        'fulfilled',
      ]);
      expect(await snapshot(db, north)).toEqual(expected);
      // Unchanged data: neither rerun wrote to the record book.
      expect(await book()).toBe(entries);
    });
  },
);
