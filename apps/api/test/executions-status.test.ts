import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  server = await startTestServer();
  const db = server.services.database.db;
  const f = server.seed.facilityIds;
  const base = {
    kind: 'execute' as const,
    period_from: at('2025-01-01T00:00:00Z'),
    period_to: at('2025-01-31T23:59:59.999Z'),
  };
  await db
    .insertInto('executions')
    .values([
      {
        ...base,
        facility_id: f.baltic_tern!,
        state: 'running',
        requested_on: at('2025-02-01T09:00:00Z'),
        started_on: at('2025-02-01T09:00:05Z'),
      },
      { ...base, facility_id: f.straits_pioneer!, state: 'queued', requested_on: at('2025-02-01T09:30:00Z') },
      {
        ...base,
        facility_id: f.gulf_horizon!,
        state: 'running',
        requested_on: at('2025-02-01T08:00:00Z'),
        started_on: at('2025-02-01T08:01:00Z'),
      },
      {
        ...base,
        facility_id: f.atlantic_meridian!,
        state: 'done',
        requested_on: at('2025-02-01T07:00:00Z'),
        started_on: at('2025-02-01T07:00:01Z'),
        finished_on: at('2025-02-01T07:02:00Z'),
      },
      {
        ...base,
        facility_id: f.pacific_kestrel!,
        state: 'failed',
        requested_on: at('2025-02-01T06:00:00Z'),
        started_on: at('2025-02-01T06:00:01Z'),
        finished_on: at('2025-02-01T06:00:30Z'),
        error: 'Division by zero in SO2/CO2 ratio',
      },
    ])
    .execute();
});
afterAll(async () => {
  await server?.close();
});

const facilityIds = (body: { items: { facilityId: string }[] }) => body.items.map((i) => i.facilityId).sort();

describe('GET /api/algorithm/calculations/base', () => {
  it("answers at the spec's path, and the same at the earlier one", async () => {
    const client = await server.as('north.anna');
    const base = await client.get('/api/algorithm/calculations/base');
    expect(base.statusCode).toBe(200);
    expect(base.json().items.length).toBeGreaterThan(0);
    expect((await client.get('/api/algorithm/calculations')).json()).toEqual(base.json());
    // Both, and the execution by id, are described in the OpenAPI document.
    const paths = Object.keys((await server.app.inject({ url: '/api/docs/json' })).json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/algorithm/calculations/base',
        '/api/algorithm/calculations',
        '/api/executions/{id}',
      ]),
    );
  });

  it('answers one execution by its id to whoever sees the ship, with its times and error', async () => {
    const f = server.seed.facilityIds;
    const db = server.services.database.db;
    const failed = await db
      .selectFrom('executions')
      .select('id')
      .where('facility_id', '=', f.pacific_kestrel!)
      .executeTakeFirstOrThrow();
    const response = await (await server.as('admin')).get(`/api/executions/${failed.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: failed.id,
      facilityId: f.pacific_kestrel,
      kind: 'execute',
      origin: 'request',
      uploads: 0,
      dataFileIds: [],
      state: 'failed',
      period: { from: '2025-01-01T00:00:00.000Z', to: '2025-01-31T23:59:59.999Z' },
      requestedOn: '2025-02-01T06:00:00.000Z',
      startedOn: '2025-02-01T06:00:01.000Z',
      finishedOn: '2025-02-01T06:00:30.000Z',
      attempts: 0,
      counts: null,
      error: 'Division by zero in SO2/CO2 ratio',
    });
    // Anna does not see Pacific Kestrel: as if it did not exist.
    const hidden = await (await server.as('north.anna')).get(`/api/executions/${failed.id}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().message).toBe('Execution not found');
  });

  it('lists the running and queued executions of the ships the caller sees, with their start time', async () => {
    const f = server.seed.facilityIds;
    const response = await (await server.as('north.anna')).get('/api/algorithm/calculations');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(facilityIds(body)).toEqual([f.baltic_tern!, f.straits_pioneer!].sort());
    expect(body.items.find((i: { facilityId: string }) => i.facilityId === f.baltic_tern)).toMatchObject({
      startedOn: '2025-02-01T09:00:05.000Z',
      state: 'running',
    });
    // Still waiting in the queue: the request time stands in for the start.
    expect(body.items.find((i: { facilityId: string }) => i.facilityId === f.straits_pioneer)).toMatchObject({
      startedOn: '2025-02-01T09:30:00.000Z',
      state: 'queued',
    });
    // Failed executions are reported to everyone who sees the ship: Anna does not see Pacific Kestrel.
    expect(body.failed).toEqual([]);
  });

  it("never shows another organization's ships, nor ships not assigned to a user", async () => {
    const f = server.seed.facilityIds;
    expect(
      facilityIds((await (await server.as('north.olav')).get('/api/algorithm/calculations')).json()),
    ).toEqual([f.baltic_tern!]);
    expect(
      facilityIds((await (await server.as('south.lee')).get('/api/algorithm/calculations')).json()),
    ).toEqual([f.gulf_horizon!]);
    // South sees the ship North shares with it, not North's others.
    expect(
      facilityIds((await (await server.as('south.admin')).get('/api/algorithm/calculations')).json()),
    ).toEqual([f.baltic_tern!, f.gulf_horizon!].sort());
    expect(
      facilityIds((await (await server.as('north.admin')).get('/api/algorithm/calculations')).json()),
    ).toEqual([f.baltic_tern!, f.straits_pioneer!].sort());
  });

  it("reports a ship's last execution when it failed, to anyone who sees the ship, until a later run succeeds", async () => {
    const f = server.seed.facilityIds;
    const db = server.services.database.db;
    const base = {
      kind: 'execute' as const,
      period_from: at('2025-01-01T00:00:00Z'),
      period_to: at('2025-01-31T23:59:59.999Z'),
    };
    // Baltic Tern (North, shared with South): done, then failed; Straits Pioneer: failed, then done.
    const rows = await db
      .insertInto('executions')
      .values([
        {
          ...base,
          facility_id: f.baltic_tern!,
          state: 'done',
          requested_on: at('2025-01-10T09:00:00Z'),
          finished_on: at('2025-01-10T09:01:00Z'),
        },
        {
          ...base,
          facility_id: f.baltic_tern!,
          state: 'failed',
          requested_on: at('2025-01-11T09:00:00Z'),
          started_on: at('2025-01-11T09:00:01Z'),
          finished_on: at('2025-01-11T09:00:40Z'),
          error: 'Measurement field SO2_CO2_RATIO, calculation 2.0: unknown name X (line 1, character 8)',
        },
        {
          ...base,
          facility_id: f.straits_pioneer!,
          state: 'failed',
          requested_on: at('2025-01-10T09:00:00Z'),
          finished_on: at('2025-01-10T09:00:30Z'),
          error: 'An older failure',
        },
        {
          ...base,
          facility_id: f.straits_pioneer!,
          state: 'done',
          requested_on: at('2025-01-11T09:00:00Z'),
          finished_on: at('2025-01-11T09:02:00Z'),
        },
      ])
      .returning('id')
      .execute();
    try {
      const expected = expect.objectContaining({
        facilityId: f.baltic_tern,
        finishedOn: '2025-01-11T09:00:40.000Z',
        error: 'Measurement field SO2_CO2_RATIO, calculation 2.0: unknown name X (line 1, character 8)',
      });
      // A User assigned to the ship, the other organization it is shared with, the owner's administrator.
      for (const username of ['north.olav', 'south.admin', 'north.admin', 'north.anna']) {
        const body = (await (await server.as(username)).get('/api/algorithm/calculations')).json();
        expect(body.failed, username).toContainEqual(expected);
        // Straits Pioneer's failure was followed by a successful run: no longer reported.
        expect(
          body.failed.some((e: { facilityId: string }) => e.facilityId === f.straits_pioneer),
          username,
        ).toBe(false);
      }
      // South's User does not see Baltic Tern: nothing about it.
      const lee = (await (await server.as('south.lee')).get('/api/algorithm/calculations')).json();
      expect(lee.failed).toEqual([]);
    } finally {
      await db
        .deleteFrom('executions')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    }
  });

  it('gives a SystemAdmin every ship and the failed executions with their error', async () => {
    const f = server.seed.facilityIds;
    const body = (await (await server.as('admin')).get('/api/algorithm/calculations')).json();
    expect(facilityIds(body)).toEqual([f.baltic_tern!, f.straits_pioneer!, f.gulf_horizon!].sort());
    expect(body.failed).toEqual([
      expect.objectContaining({
        facilityId: f.pacific_kestrel,
        error: 'Division by zero in SO2/CO2 ratio',
        finishedOn: '2025-02-01T06:00:30.000Z',
      }),
    ]);
  });

  it('refuses a request without a token', async () => {
    expect((await server.app.inject({ url: '/api/algorithm/calculations' })).statusCode).toBe(401);
  });
});
