import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoShips, writeShipDayFile } from '@portal/demo-fleet';
import { startTestServer, type TestServer } from './harness';
import { UNTIL, prepareShips } from './execution-fixtures';
import { multipartFile } from './upload-helpers';
import { waitFor } from './wait';

/**
 * API keys for integrations (issue 19): made by an organization's administrator, shown once, stored hashed; a key
 * acts as its organization within its scopes (403 beyond them), stops at once when revoked or expired (401), and
 * is audited. The isolation matrix (isolation.test.ts) walks every route with a key as well.
 */
let server: TestServer;
let northShip: string;
let southShip: string;
let northDataSource: string;
let north: string;
let south: string;

const db = () => server.services.database.db;
const PERIOD = { from: '2025-03-09T00:00:00.000Z', to: '2025-03-09T23:59:59.999Z' };

/** A request with an API key, as `Authorization: Bearer` (default) or as `X-API-Key`. */
async function withKey(
  key: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: {
    payload?: object | Buffer;
    headers?: Record<string, string>;
    header?: 'bearer' | 'x-api-key';
  } = {},
) {
  const auth = options.header === 'x-api-key' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
  const response = await server.app.inject({
    method,
    url,
    headers: { ...options.headers, ...auth },
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
  });
  return { status: response.statusCode, body: response.body, json: () => response.json() };
}

async function createKey(
  username: string,
  organizationId: string,
  body: { name: string; scopes: string[]; expiresOn?: string | null },
) {
  const response = await (
    await server.as(username)
  ).post(`/api/organizations/${organizationId}/api-keys`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as {
    id: string;
    key: string;
    name: string;
    scopes: string[];
    expiresOn: string | null;
  };
}

const reportUrl = (facilityId: string) =>
  `/api/reports/FacilityCO2reduction/data?${new URLSearchParams({ ...PERIOD, facilityId })}`;

async function uploadWithKey(key: string, day: Date, dataSourceId = northDataSource) {
  const ship = demoShips().find((s) => s.key === 'baltic_tern')!;
  const file = await writeShipDayFile(ship, day);
  const { payload, headers } = multipartFile(file.fileName, file.content);
  return withKey(key, 'POST', `/api/algorithm/facilitydatasource/${dataSourceId}/file`, { payload, headers });
}

beforeAll(async () => {
  server = await startTestServer();
  north = server.seed.organizationIds.north!;
  south = server.seed.organizationIds.south!;
  northShip = server.seed.facilityIds.baltic_tern!;
  southShip = server.seed.facilityIds.gulf_horizon!;
  await prepareShips(server.services.database, { baltic_tern: northShip, gulf_horizon: southShip }, 1);
  northDataSource = (
    await db()
      .selectFrom('facility_data_sources')
      .select('id')
      .where('facility_id', '=', northShip)
      .executeTakeFirstOrThrow()
  ).id;
}, 180_000);

afterAll(async () => {
  await server?.close();
});

describe('making and listing keys', () => {
  it('makes a key for a UserAdmin of the organization, shows its secret once, keeps only its hash, lists it without it, and audits it', async () => {
    const created = await createKey('north.admin', north, { name: 'Power BI', scopes: ['reports:read'] });
    expect(created).toMatchObject({
      name: 'Power BI',
      scopes: ['reports:read'],
      createdBy: 'north.admin',
      expiresOn: null,
      lastUsedOn: null,
    });
    expect(created.key).toMatch(new RegExp(`^spk_${created.id}_[A-Za-z0-9_-]{43}$`));
    // The secret is what follows the id (it may hold '_' itself: the last piece after a split was then a fragment of
    // a few characters, found in the row's hash or ids now and then).
    const secret = created.key.slice(`spk_${created.id}_`.length);
    expect(secret).toHaveLength(43);
    const row = await db()
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);

    const listed = await (await server.as('north.admin')).get(`/api/organizations/${north}/api-keys`);
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(secret);
    const item = listed.json().find((k: { id: string }) => k.id === created.id);
    expect(item).toEqual({
      id: created.id,
      name: 'Power BI',
      scopes: ['reports:read'],
      createdOn: expect.any(String),
      createdBy: 'north.admin',
      expiresOn: null,
      lastUsedOn: null,
    });
    expect(Object.keys(item)).not.toContain('key');

    const entry = await db()
      .selectFrom('audit_log')
      .select(['user_id', 'organization_id', 'detail'])
      .where('action', '=', 'apikey.create')
      .where('subject', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      user_id: server.seed.userIds['north.admin'],
      organization_id: north,
      detail: { organizationId: north, name: 'Power BI', scopes: ['reports:read'], expiresOn: null },
    });
  });

  it('lets a SystemAdmin make keys for any organization; a User of the organization gets 403, another organization 404', async () => {
    const made = await createKey('admin', south, {
      name: 'South BI',
      scopes: ['reports:read', 'files:upload'],
    });
    expect(made.scopes).toEqual(['reports:read', 'files:upload']);
    const anna = await server.as('north.anna');
    expect((await anna.get(`/api/organizations/${north}/api-keys`)).statusCode).toBe(403);
    expect(
      (await anna.post(`/api/organizations/${north}/api-keys`, { name: 'Mine', scopes: ['reports:read'] }))
        .statusCode,
    ).toBe(403);
    const northAdmin = await server.as('north.admin');
    const foreignList = await northAdmin.get(`/api/organizations/${south}/api-keys`);
    expect([foreignList.statusCode, foreignList.json().message]).toEqual([404, 'Organization not found']);
    const foreignRevoke = await northAdmin.delete(`/api/organizations/${south}/api-keys/${made.id}`);
    expect(foreignRevoke.statusCode).toBe(404);
    // North's own path with South's key: not North's key.
    const crossed = await northAdmin.delete(`/api/organizations/${north}/api-keys/${made.id}`);
    expect([crossed.statusCode, crossed.json().message]).toEqual([404, 'API key not found']);
    expect(
      await db()
        .selectFrom('api_keys')
        .select('revoked_on')
        .where('id', '=', made.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ revoked_on: null });
  });

  it('refuses a key without a name or a scope, with an unknown scope, a taken name or a past expiry (400 with the field)', async () => {
    const admin = await server.as('north.admin');
    const post = (body: unknown) => admin.post(`/api/organizations/${north}/api-keys`, body);
    const empty = await post({ name: ' ', scopes: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toMatchObject({
      name: 'Name is required',
      scopes: 'Choose at least one scope',
    });
    expect((await post({ name: 'X', scopes: ['admin'] })).json().fields).toEqual({
      'scopes.0': 'Unknown scope',
    });
    const taken = await post({ name: 'power bi', scopes: ['reports:read'] });
    expect([taken.statusCode, taken.json().fields]).toEqual([
      400,
      { name: 'An API key with this name exists already' },
    ]);
    const past = await post({ name: 'Old', scopes: ['reports:read'], expiresOn: '2020-01-01' });
    expect([past.statusCode, past.json().fields]).toEqual([400, { expiresOn: 'Must be a date after today' }]);
    const invalid = await post({ name: 'Odd', scopes: ['reports:read'], expiresOn: '2030-02-30' });
    expect(invalid.json().fields).toEqual({ expiresOn: 'Must be a valid date' });
  });
});

describe('using a key', () => {
  let readKey: string;
  let uploadKey: string;

  beforeAll(async () => {
    readKey = (await createKey('north.admin', north, { name: 'BI reader', scopes: ['reports:read'] })).key;
    uploadKey = (await createKey('north.admin', north, { name: 'Onboard', scopes: ['files:upload'] })).key;
  });

  it("reads report data and events as its organization: the same answer as the organization's administrator", async () => {
    const asAdmin = await (await server.as('north.admin')).get(reportUrl(northShip));
    expect(asAdmin.statusCode).toBe(200);
    const bearer = await withKey(readKey, 'GET', reportUrl(northShip));
    expect(bearer.status, bearer.body).toBe(200);
    expect(bearer.json()).toEqual(asAdmin.json());
    const header = await withKey(readKey, 'GET', reportUrl(northShip), { header: 'x-api-key' });
    expect(header.status).toBe(200);
    const many = await withKey(
      readKey,
      'GET',
      `/api/reports/data?${new URLSearchParams({ ...PERIOD, facilityId: northShip, reportIds: 'FacilityCO2reduction,FacilityTotalCO2Emission' })}`,
    );
    expect(many.status).toBe(200);
    const events = await withKey(readKey, 'GET', '/api/events');
    expect(events.status).toBe(200);
    const ships = await withKey(readKey, 'GET', '/api/facilities');
    const shipIds = ships.json().map((s: { id: string }) => s.id);
    expect(shipIds).toContain(northShip);
    expect(shipIds).not.toContain(southShip);
  });

  it("answers another organization's ship as a user of its organization gets it (404)", async () => {
    const asUser = await (await server.as('north.admin')).get(reportUrl(southShip));
    const asKey = await withKey(readKey, 'GET', reportUrl(southShip));
    expect([asKey.status, asKey.json().message]).toEqual([asUser.statusCode, asUser.json().message]);
    expect(asKey.status).toBe(404);
    const book = await withKey(readKey, 'GET', `/api/facilities/${southShip}/record-book`);
    expect(book.status).toBe(404);
  });

  it('uploads with files:upload: 200 and the execution of the uploaded range queued, audited as the key', async () => {
    const response = await uploadWithKey(uploadKey, UNTIL);
    expect(response.status, response.body).toBe(200);
    const answer = response.json();
    expect(answer.ids).toHaveLength(1);
    expect(answer.execution).toEqual({ id: expect.any(String), joined: false });
    const execution = await db()
      .selectFrom('executions')
      .select(['facility_id', 'origin', 'state', 'requested_by'])
      .where('id', '=', answer.execution.id)
      .executeTakeFirstOrThrow();
    expect(execution).toEqual({
      facility_id: northShip,
      origin: 'upload',
      state: 'queued',
      requested_by: null,
    });
    const file = await db()
      .selectFrom('data_files')
      .select('imported_by')
      .where('id', '=', answer.ids[0])
      .executeTakeFirstOrThrow();
    expect(file.imported_by).toBeNull();
    const keyId = uploadKey.split('_')[1];
    for (const [action, subject] of [
      ['datafile.upload', northDataSource],
      ['execution.request', answer.execution.id],
    ]) {
      const entry = await db()
        .selectFrom('audit_log')
        .select(['user_id', 'organization_id', 'detail'])
        .where('action', '=', action!)
        .where('subject', '=', subject!)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(entry, action).toMatchObject({
        user_id: null,
        organization_id: north,
        detail: { apiKey: { id: keyId, name: 'Onboard' } },
      });
    }
    // The uploader follows its execution.
    const followed = await withKey(uploadKey, 'GET', `/api/executions/${answer.execution.id}`);
    expect([followed.status, followed.json().origin]).toEqual([200, 'upload']);
  });

  it('refuses what is beyond its scopes with 403, before anything happens', async () => {
    const files = async () => (await db().selectFrom('data_files').select('id').execute()).length;
    const before = await files();
    const upload = await uploadWithKey(readKey, new Date(UNTIL.getTime() + 86_400_000));
    expect([upload.status, upload.json().message]).toEqual([
      403,
      'This API key may not do this: it needs the scope files:upload',
    ]);
    expect(await files()).toBe(before);
    const read = await withKey(uploadKey, 'GET', reportUrl(northShip));
    expect([read.status, read.json().message]).toEqual([
      403,
      'This API key may not do this: it needs the scope reports:read',
    ]);
    for (const [method, url, payload] of [
      ['GET', `/api/organizations/${north}/users`],
      ['GET', `/api/organizations/${north}/api-keys`],
      ['POST', `/api/organizations/${north}/api-keys`, { name: 'Escalated', scopes: ['reports:read'] }],
      ['POST', '/api/facilities', { organizationId: north, name: 'Key ship' }],
      ['GET', '/api/audit-log'],
      ['POST', `/api/events/00000000-0000-4000-8000-000000000000/acknowledge`, { comment: 'x' }],
      [
        'POST',
        '/api/algorithm/calculations/measurement-field/execute',
        {
          facilityId: northShip,
          ...PERIOD,
          facilityDataSourceFileIds: [],
        },
      ],
    ] as const) {
      for (const key of [readKey, uploadKey]) {
        const response = await withKey(key, method, url, payload ? { payload } : {});
        expect(response.status, `${method} ${url}`).toBe(403);
      }
    }
    expect(await db().selectFrom('api_keys').select('id').where('name', '=', 'Escalated').execute()).toEqual(
      [],
    );
  });

  it('notes its last use at most once a minute', async () => {
    const id = readKey.split('_')[1]!;
    const lastUse = async () =>
      (
        await db()
          .selectFrom('api_keys')
          .select('last_used_on')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).last_used_on;
    const first = await lastUse();
    expect(first).not.toBeNull();
    expect((await withKey(readKey, 'GET', '/api/events')).status).toBe(200);
    expect(await lastUse()).toEqual(first);
    const listed = (
      await (await server.as('north.admin')).get(`/api/organizations/${north}/api-keys`)
    ).json();
    expect(listed.find((k: { id: string }) => k.id === id).lastUsedOn).toBe(new Date(first!).toISOString());
  });
});

describe('a key that stops', () => {
  it('answers 401 on the next call once revoked, drops it from the list, and audits the revocation', async () => {
    const made = await createKey('north.admin', north, { name: 'Soon revoked', scopes: ['reports:read'] });
    expect((await withKey(made.key, 'GET', reportUrl(northShip))).status).toBe(200);
    const admin = await server.as('north.admin');
    expect((await admin.delete(`/api/organizations/${north}/api-keys/${made.id}`)).statusCode).toBe(204);
    const refused = await withKey(made.key, 'GET', reportUrl(northShip));
    expect([refused.status, refused.json().message]).toEqual([
      401,
      'The API key is not valid or was revoked',
    ]);
    const listed = (await admin.get(`/api/organizations/${north}/api-keys`)).json();
    expect(listed.map((k: { id: string }) => k.id)).not.toContain(made.id);
    expect((await admin.delete(`/api/organizations/${north}/api-keys/${made.id}`)).statusCode).toBe(404);
    const entry = await db()
      .selectFrom('audit_log')
      .select(['user_id', 'detail'])
      .where('action', '=', 'apikey.revoke')
      .where('subject', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(entry).toEqual({
      user_id: server.seed.userIds['north.admin'],
      detail: { organizationId: north, name: 'Soon revoked' },
    });
  });

  it('answers 401 once it expired, with nothing else changed in between', async () => {
    const expiresOn = new Date(Date.now() + 1500).toISOString();
    const made = await createKey('north.admin', north, {
      name: 'Short lived',
      scopes: ['reports:read'],
      expiresOn,
    });
    expect(made.expiresOn).toBe(expiresOn);
    expect((await withKey(made.key, 'GET', reportUrl(northShip))).status).toBe(200);
    // Asked until its time has come (accepted until then): the answer after it is the expiry's.
    const refused = await waitFor(() => withKey(made.key, 'GET', reportUrl(northShip)), {
      what: 'the key to be refused after its expiry',
      until: (r) => r.status !== 200,
      show: (r) => String(r.status),
    });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresOn));
    expect([refused.status, refused.json().message]).toEqual([401, 'The API key has expired']);
  });

  it('refuses a wrong secret, a malformed key and two credentials at once (401)', async () => {
    const made = await createKey('north.admin', north, { name: 'Checked', scopes: ['reports:read'] });
    const forged = `${made.key.slice(0, -4)}AAAA`;
    for (const key of [forged, 'spk_nothing', `spk_${made.id}_`]) {
      const response = await withKey(key, 'GET', '/api/events');
      expect(response.status, key).toBe(401);
    }
    const both = await server.app.inject({
      url: '/api/events',
      headers: { authorization: `Bearer ${await server.tokenFor('north.admin')}`, 'x-api-key': made.key },
    });
    expect(both.statusCode).toBe(401);
  });

  it('a key of the SystemAdmin organization sees only that organization’s ships, not every ship', async () => {
    const provider = (
      await db()
        .selectFrom('users')
        .select('organization_id')
        .where('username', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).organization_id;
    const made = await createKey('admin', provider, { name: 'Provider BI', scopes: ['reports:read'] });
    const ships = (await withKey(made.key, 'GET', '/api/facilities')).json() as { id: string }[];
    const ownShips = await db()
      .selectFrom('facilities')
      .select('id')
      .where('primary_organization_id', '=', provider)
      .execute();
    expect(ships.map((s) => s.id).sort()).toEqual(expect.arrayContaining(ownShips.map((s) => s.id)));
    expect(ships.map((s) => s.id)).not.toContain(northShip);
    expect((await withKey(made.key, 'GET', reportUrl(northShip))).status).toBe(404);
  });
});

describe('the OpenAPI document', () => {
  it('shows how to use a key: both security schemes, and the scopes of the operations that accept keys', async () => {
    const response = await server.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.components.securitySchemes).toMatchObject({
      bearer: { type: 'http', scheme: 'bearer' },
      apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    });
    expect(document.info.description).toContain('X-API-Key: spk_');
    const reports = document.paths['/api/reports/data'].get;
    expect(reports.security).toEqual([{ bearer: [] }, { apiKey: [] }]);
    expect(reports.description).toContain('`reports:read`');
    const upload = document.paths['/api/algorithm/facilitydatasource/{id}/file'].post;
    expect(upload.description).toContain('`files:upload`');
    expect(upload.parameters.map((p: { name: string }) => p.name)).toContain('execute');
    // A route closed to keys says nothing of them (the document's default: a user's token).
    expect(document.paths['/api/organizations/{id}/users'].get.security).toBeUndefined();
    expect(document.paths['/api/organizations/{id}/api-keys'].post).toBeDefined();
  });
});
