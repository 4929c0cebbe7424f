import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoShips, writeShipDayFile } from '@portal/demo-fleet';
import { startTestServer, type TestServer } from './harness';
import { DAY, FAST_QUEUE, UNTIL, prepareShips, waitForExecutions } from './execution-fixtures';
import { multipartFile, sendFile } from './upload-helpers';
import { waitFor } from './wait';
import type { Queue } from '../src/jobs';
import { startJobs } from '../src/features/jobs';
import { runExecution, runRecalculation } from '../src/features/executions/run';
import { enginePortsOf } from '../src/features/engine-ports';
import { queueUploadExecution } from '../src/features/executions/upload';

/**
 * Data that arrives is executed (issue 19): an upload queues the execution of its range, and uploads that arrive
 * while it waits join it. The first part runs with no worker, so what is queued stays queued and the tests see the
 * coalescing as it is; then a worker starts and the queued executions run, until the dashboards show the data.
 */
let server: TestServer;
let queue: Queue;
const SHIPS = [
  'baltic_tern',
  'atlantic_meridian',
  'straits_pioneer',
  'gulf_horizon',
  'pacific_kestrel',
] as const;
type ShipKey = (typeof SHIPS)[number];
const ids = {} as Record<ShipKey, string>;
const dataSources = {} as Record<ShipKey, string>;
/** A run the worker holds after marking it running, until the test lets it go. */
let hold: Promise<void> | null = null;

const db = () => server.services.database.db;
const day = (n: number) => new Date(UNTIL.getTime() + n * DAY);
const iso = (d: Date | number) => new Date(d).toISOString();

/** The demo logger file of a ship for UNTIL + n days. */
const dayFile = (key: ShipKey, n: number) =>
  writeShipDayFile(
    demoShips().find((s) => s.key === key)!,
    day(n),
  );

async function upload(key: ShipKey, n: number, options: { query?: string; username?: string } = {}) {
  const file = await dayFile(key, n);
  const response = await sendFile(
    server,
    options.username ?? 'north.admin',
    'POST',
    `/api/algorithm/facilitydatasource/${dataSources[key]}/file${options.query ?? ''}`,
    file.fileName,
    file.content,
  );
  expect(response.statusCode, response.body).toBe(200);
  const answer = response.json() as {
    ids: string[];
    errorMessages: string[];
    execution: { id: string; joined: boolean } | null;
  };
  expect(answer.errorMessages).toEqual([]);
  return answer;
}

const executionsOf = (key: ShipKey) =>
  db()
    .selectFrom('executions')
    .selectAll()
    .where('facility_id', '=', ids[key])
    .orderBy('requested_on')
    .execute();

async function reportValuesOn(key: ShipKey, n: number) {
  const rows = await db()
    .selectFrom('report_values')
    .select('span_start')
    .where('facility_id', '=', ids[key])
    .where('span_start', '>=', day(n))
    .where('span_start', '<', day(n + 1))
    .execute();
  return new Set(rows.map((r) => iso(r.span_start))).size;
}

beforeAll(async () => {
  server = await startTestServer({ jobs: 'none' });
  for (const key of SHIPS) ids[key] = server.seed.facilityIds[key]!;
  // A day of data, mappings and approved calculations on each ship, imported by the service (nothing executed).
  await prepareShips(server.services.database, { ...ids }, 1);
  for (const key of SHIPS)
    dataSources[key] = (
      await db()
        .selectFrom('facility_data_sources')
        .select('id')
        .where('facility_id', '=', ids[key])
        .executeTakeFirstOrThrow()
    ).id;
  // The queue, without workers for now: what the uploads queue waits.
  queue = await startJobs(server.services, { work: false, tuning: FAST_QUEUE });
}, 180_000);

afterAll(async () => {
  await queue?.stop();
  await server?.close();
});

describe('an upload queues the execution of its range', () => {
  it('queues one execution of the uploaded day, named in the answer, followed by GET /api/executions/{id}, shown as processing on the ship list, and audited', async () => {
    expect(await executionsOf('baltic_tern')).toEqual([]);
    const answer = await upload('baltic_tern', 0);
    expect(answer.ids).toHaveLength(1);
    expect(answer.execution).toEqual({ id: expect.any(String), joined: false });
    const id = answer.execution!.id;

    const admin = await server.as('north.admin');
    const execution = (await admin.get(`/api/executions/${id}`)).json();
    expect(execution).toMatchObject({
      id,
      facilityId: ids.baltic_tern,
      kind: 'execute',
      origin: 'upload',
      uploads: 1,
      dataFileIds: answer.ids,
      state: 'queued',
      period: { from: iso(day(0)), to: iso(day(1).getTime() - 1) },
      startedOn: null,
    });
    // The ship list's processing status (the same call as for Run) lists it, for every user who sees the ship.
    const status = (await admin.get('/api/algorithm/calculations/base')).json();
    expect(status.items).toContainEqual({
      id,
      facilityId: ids.baltic_tern,
      state: 'queued',
      startedOn: expect.any(String),
    });
    const entry = await db()
      .selectFrom('audit_log')
      .select(['user_id', 'organization_id', 'detail'])
      .where('action', '=', 'execution.request')
      .where('subject', '=', id)
      .executeTakeFirstOrThrow();
    expect(entry.user_id).toBe(server.seed.userIds['north.admin']);
    expect(entry.detail).toMatchObject({
      by: 'upload',
      joined: false,
      files: 1,
      facilityId: ids.baltic_tern,
    });
    expect(await reportValuesOn('baltic_tern', 0)).toBe(0);
  });

  it('coalesces three uploads in a row while it waits into one execution of the union of their ranges', async () => {
    const first = await upload('atlantic_meridian', 2);
    const second = await upload('atlantic_meridian', 0);
    const third = await upload('atlantic_meridian', 1);
    expect(first.execution!.joined).toBe(false);
    expect(second.execution).toEqual({ id: first.execution!.id, joined: true });
    expect(third.execution).toEqual({ id: first.execution!.id, joined: true });
    const rows = await executionsOf('atlantic_meridian');
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({ origin: 'upload', state: 'queued', uploads: 3, attempts: 0 });
    expect(iso(row!.period_from)).toBe(iso(day(0)));
    expect(iso(row!.period_to)).toBe(iso(day(3).getTime() - 1));
    expect([...row!.data_file_ids].sort()).toEqual([...first.ids, ...second.ids, ...third.ids].sort());
    const execution = (await (await server.as('admin')).get(`/api/executions/${row!.id}`)).json();
    expect(execution.period).toEqual({ from: iso(day(0)), to: iso(day(3).getTime() - 1) });
    // Each upload's request is in the audit log: one queued, two joined.
    const entries = await db()
      .selectFrom('audit_log')
      .select('detail')
      .where('action', '=', 'execution.request')
      .where('subject', '=', row!.id)
      .execute();
    expect(entries.map((e) => (e.detail as { joined: boolean }).joined).sort()).toEqual([false, true, true]);
  });

  it('queues nothing with execute=false, and refuses an execute that is not a boolean', async () => {
    const answer = await upload('straits_pioneer', 0, { query: '?execute=false' });
    expect(answer.ids).toHaveLength(1);
    expect(answer.execution).toBeNull();
    expect(await executionsOf('straits_pioneer')).toEqual([]);
    const file = await dayFile('straits_pioneer', 1);
    const refused = await sendFile(
      server,
      'north.admin',
      'POST',
      `/api/algorithm/facilitydatasource/${dataSources.straits_pioneer}/file?execute=perhaps`,
      file.fileName,
      file.content,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^execute: /);
    expect(await executionsOf('straits_pioneer')).toEqual([]);
  });

  it("queues one for the onboard uploader's upload", async () => {
    const admin = await server.as('admin');
    const { token } = (await admin.post(`/api/facilities/${ids.straits_pioneer}/upload-credentials`)).json();
    const file = await dayFile('straits_pioneer', 1);
    const { payload, headers } = multipartFile(file.fileName, file.content);
    const response = await server.app.inject({
      method: 'POST',
      url: `/api/algorithm/facilitydatasource/${dataSources.straits_pioneer}/file`,
      payload,
      headers: { ...headers, authorization: `Bearer ${token}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { execution } = response.json();
    expect(execution).toEqual({ id: expect.any(String), joined: false });
    const rows = await executionsOf('straits_pioneer');
    expect(rows.map((r) => [r.id, r.origin, r.state, r.requested_by])).toEqual([
      [execution.id, 'upload', 'queued', null],
    ]);
    const entry = await db()
      .selectFrom('audit_log')
      .select(['user_id', 'detail'])
      .where('action', '=', 'execution.request')
      .where('subject', '=', execution.id)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ user_id: null, detail: { by: 'uploader', joined: false } });
  });

  it('gives two concurrent uploads of one ship one execution', async () => {
    const [a, b] = await Promise.all([
      upload('gulf_horizon', 0, { username: 'admin' }),
      upload('gulf_horizon', 1, { username: 'admin' }),
    ]);
    expect(a.execution!.id).toBe(b.execution!.id);
    expect([a.execution!.joined, b.execution!.joined].sort()).toEqual([false, true]);
    const rows = await executionsOf('gulf_horizon');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ uploads: 2 });
    expect([...rows[0]!.data_file_ids].sort()).toEqual([...a.ids, ...b.ids].sort());
  });

  it('makes one waiting execution of many requests at once for a ship with none (the unique index decides on PostgreSQL), and counts each', async () => {
    const [file] = await db()
      .selectFrom('data_files')
      .select('id')
      .where('facility_id', '=', ids.pacific_kestrel)
      .execute();
    expect(await executionsOf('pacific_kestrel')).toEqual([]);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        queueUploadExecution(server.services, {
          facilityId: ids.pacific_kestrel,
          dataFileIds: [file!.id],
          requestedBy: null,
          actor: { userId: null, organizationId: null },
        }),
      ),
    );
    const rows = await executionsOf('pacific_kestrel');
    expect(rows).toHaveLength(1);
    expect(answers.map((a) => a!.id)).toEqual(answers.map(() => rows[0]!.id));
    expect(answers.filter((a) => !a!.joined)).toHaveLength(1);
    expect(rows[0]).toMatchObject({ uploads: 8, data_file_ids: [file!.id], state: 'queued' });
  });
});

describe('an execution that cannot be queued', () => {
  it('leaves the files imported and says so, with no execution', async () => {
    const { db: database } = server.services.database;
    await sql`
      CREATE FUNCTION refuse_execution_request() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.action = 'execution.request' THEN RAISE EXCEPTION 'refused for the test'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_execution_request BEFORE INSERT ON audit_log
        FOR EACH ROW EXECUTE FUNCTION refuse_execution_request();
    `.execute(database);
    try {
      const before = await executionsOf('straits_pioneer');
      const file = await dayFile('straits_pioneer', 3);
      const response = await sendFile(
        server,
        'north.admin',
        'POST',
        `/api/algorithm/facilitydatasource/${dataSources.straits_pioneer}/file`,
        file.fileName,
        file.content,
      );
      expect(response.statusCode).toBe(200);
      const answer = response.json();
      expect(answer.ids).toHaveLength(1);
      expect(answer.execution).toBeNull();
      expect(answer.errorMessages).toEqual([
        'The files were imported, but their calculation could not be queued. Select them and press Run.',
      ]);
      expect(await executionsOf('straits_pioneer')).toEqual(before);
      expect(
        await db().selectFrom('data_files').select('id').where('id', '=', answer.ids[0]).executeTakeFirst(),
      ).toBeDefined();
    } finally {
      await sql`DROP TRIGGER refuse_execution_request ON audit_log; DROP FUNCTION refuse_execution_request();`.execute(
        database,
      );
    }
  });
});

describe('the queued executions run', () => {
  beforeAll(async () => {
    const { services } = server;
    const ports = enginePortsOf(services);
    await queue.work({
      execution: (data, meta) =>
        runExecution(services, ports, data, meta, { hooks: { afterClaim: () => hold ?? Promise.resolve() } }),
      recalculation: (data, meta) => runRecalculation(services, ports, data, meta),
      'window-execution': async () => ({ status: 'done' }),
      'compress-originals': async () => ({ status: 'done' }),
      // Alerts and webhooks are not this test's concern: their jobs are taken and left undelivered.
      'webhook-delivery': async () => ({ status: 'done' }),
      'alert-fan-out': async () => ({ status: 'done' }),
      'alert-email': async () => ({ status: 'done' }),
      'alert-digest': async () => ({ status: 'done' }),
      'alert-sweep': async () => ({ status: 'done' }),
      'inspection-pack': async () => ({ status: 'done' }),
      'inspection-pack-schedule': async () => ({ status: 'done' }),
      'carbon-ledger': async () => ({ status: 'done' }),
      'carbon-ledger-ports': async () => ({ status: 'done' }),
      'uk-ets-mets-send': async () => ({ status: 'done' }),
      'compliance-reminders': async () => ({ status: 'done' }),
      'storage-months': async () => ({ status: 'done' }),
    });
  });

  it("runs them, and the dashboard's report data of the uploaded days appears", async () => {
    const anna = await server.as('north.admin');
    const query = new URLSearchParams({
      from: iso(day(0)),
      to: iso(day(1).getTime() - 1),
      facilityId: ids.baltic_tern,
    });
    const before = (await anna.get(`/api/reports/FacilityCO2reduction/data?${query}`)).json();
    // The five ships' upload executions (the worker may have claimed one already).
    const queued = await db()
      .selectFrom('executions')
      .select('id')
      .where('state', 'in', ['queued', 'running'])
      .execute();
    expect(queued.length).toBe(SHIPS.length);
    const rows = await waitForExecutions(
      db(),
      queued.map((r) => r.id),
      120_000,
    );
    expect(rows.map((r) => [r.state, r.error])).toEqual(rows.map(() => ['done', null]));
    expect(await reportValuesOn('baltic_tern', 0)).toBe(24);
    for (const n of [0, 1, 2]) expect(await reportValuesOn('atlantic_meridian', n)).toBe(24);
    const after = (await anna.get(`/api/reports/FacilityCO2reduction/data?${query}`)).json();
    expect(after).not.toEqual(before);
    const status = (await anna.get('/api/algorithm/calculations/base')).json();
    expect(status.items).toEqual([]);
  }, 180_000);

  it('queues a new execution when the waiting one has started, which later uploads join', async () => {
    let release!: () => void;
    hold = new Promise<void>((resolve) => (release = resolve));
    try {
      const first = await upload('baltic_tern', 1);
      expect(first.execution!.joined).toBe(false);
      // The worker claims it and holds it, running.
      await waitFor(
        async () =>
          (
            await db()
              .selectFrom('executions')
              .select('state')
              .where('id', '=', first.execution!.id)
              .executeTakeFirstOrThrow()
          ).state,
        { what: 'the execution to start', until: (state) => state === 'running' },
      );
      const second = await upload('baltic_tern', 2);
      const third = await upload('baltic_tern', 3);
      expect(second.execution!.joined).toBe(false);
      expect(second.execution!.id).not.toBe(first.execution!.id);
      expect(third.execution).toEqual({ id: second.execution!.id, joined: true });
      release();
      hold = null;
      const rows = await waitForExecutions(db(), [first.execution!.id, second.execution!.id], 120_000);
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(first.execution!.id)).toMatchObject({ state: 'done', uploads: 1 });
      expect(byId.get(second.execution!.id)).toMatchObject({ state: 'done', uploads: 2 });
      expect(iso(byId.get(first.execution!.id)!.period_from)).toBe(iso(day(1)));
      expect(iso(byId.get(second.execution!.id)!.period_from)).toBe(iso(day(2)));
      expect(iso(byId.get(second.execution!.id)!.period_to)).toBe(iso(day(4).getTime() - 1));
      for (const n of [1, 2, 3]) expect(await reportValuesOn('baltic_tern', n)).toBe(24);
    } finally {
      release();
      hold = null;
    }
  }, 180_000);
});
