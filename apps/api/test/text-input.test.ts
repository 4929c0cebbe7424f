import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameText, TEXT_MESSAGES } from '@portal/contracts/forms';
import { startTestServer, type TestServer } from './harness';
import { changedTables, snapshotTables, tableNames } from './isolation/fixtures';
import { CSV_CONFIGURATION } from './upload-helpers';

/**
 * The text input rule (issue 14, docs/decisions/0062-text-input.md) at the API: every text field refuses NUL and
 * lone surrogates with a 400 and its message, names also refuse invisible-only and bidi-wrapped text, and nothing
 * is stored. A control request with legitimate text is stored exactly as sent, so the refusals are the rule's.
 */

let server: TestServer;
let admin: Awaited<ReturnType<TestServer['as']>>;
let tables: string[];
const ids = {
  north: '',
  ship: '',
  organization: '',
  user: '',
  dataSource: '',
  report: '',
  fieldId: '',
};

beforeAll(async () => {
  server = await startTestServer({ jobs: 'none' });
  // A handler that applies a contracts schema by hand: its ZodError must be the same 400, never a 500.
  server.app.post('/api/text-input-canary', async (request) => ({
    name: nameText('Name is required').parse((request.body as { name?: unknown }).name),
  }));
  admin = await server.as('admin');
  const db = server.services.database.db;
  // Tables a refused request may still touch: the audit log and the sign-in provider's sessions.
  tables = (await tableNames(db)).filter((t) => !['audit_log', 'oidc_payloads'].includes(t));
  ids.north = server.seed.organizationIds.north!;
  ids.ship = (
    await db
      .selectFrom('facilities')
      .select('id')
      .where('primary_organization_id', '=', ids.north)
      .executeTakeFirstOrThrow()
  ).id;
  ids.organization = ids.north;
  ids.user = server.seed.userIds['north.olav']!;
  const source = await admin.post(`/api/algorithm/facility/${ids.ship}/datasource`, {
    name: 'Text_logger',
    dataSourceReaderId: 'delimited-text',
    dataSourceReaderConfiguration: CSV_CONFIGURATION,
    measureFrequencyInSeconds: 60,
    utcTimezoneOffsetInMinutes: 0,
    note: '',
  });
  expect(source.statusCode, source.body).toBe(201);
  ids.dataSource = source.json().id;
  ids.report = (await db.selectFrom('reports').select('id').executeTakeFirstOrThrow()).id;
  ids.fieldId = (
    (await admin.get('/api/algorithm/measurement-fields')).json() as { id: string; name: string }[]
  )[0]!.id;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

type Send = (value: string) => Promise<{ statusCode: number; body: string; json: () => any }>;
interface Field {
  name: string;
  /** The JSON name of the field in the request, where the 400 names it. */
  field: string;
  kind: 'name' | 'text';
  send: Send;
  /** Legitimate text, answered 2xx and stored as sent (or trimmed, for a name). */
  control: string;
  /** Where the stored value shows, when the answer does not carry it. */
  read?: (answer: { json: () => any }) => Promise<string>;
}

const shipBody = (name: string) => ({ name, imo: '', scrubberSystemType: '' });
const dataSourceBody = (note: string) => ({
  name: `Logger_${Math.random().toString(36).slice(2, 8)}`,
  dataSourceReaderId: 'delimited-text',
  dataSourceReaderConfiguration: CSV_CONFIGURATION,
  measureFrequencyInSeconds: 60,
  utcTimezoneOffsetInMinutes: 0,
  note,
});
const messageBody = (title: string, text: string) => ({
  title,
  text,
  showFrom: '2025-01-01T00:00:00.000Z',
  showTo: '2099-01-01T00:00:00.000Z',
  notify: false,
});
const channelBody = (description: string) => ({
  source: `raw_${Math.random().toString(36).slice(2, 8)}`,
  name: `Ch_${Math.random().toString(36).slice(2, 8)}`,
  dataType: 'Double',
  unit: '',
  description,
  qualityScore: null,
  isCustom: true,
});

const FIELDS: Field[] = [
  {
    name: 'new ship name',
    field: 'name',
    kind: 'name',
    send: (v) => admin.post('/api/facilities', { organizationId: ids.north, name: v }),
    control: 'Nordic Star 🚢',
    read: async (answer) => (await admin.get(`/api/facilities/${answer.json().id}/facility`)).body,
  },
  {
    name: 'ship name (edit)',
    field: 'name',
    kind: 'name',
    send: (v) => admin.put(`/api/facilities/${ids.ship}/facility`, shipBody(v)),
    control: 'Ævar Ødegård',
  },
  {
    name: 'new organization name',
    field: 'name',
    kind: 'name',
    send: (v) => admin.post('/api/organizations', { name: v, email: null, phone: null, priority: false }),
    control: 'Σκάφη ΑΕ',
  },
  {
    name: 'organization name (edit)',
    field: 'name',
    kind: 'name',
    send: (v) =>
      admin.put(`/api/organizations/${ids.organization}/update-organization`, {
        name: v,
        email: null,
        phone: null,
        priority: false,
      }),
    control: 'North Shipping',
  },
  {
    name: 'new username',
    field: 'username',
    kind: 'name',
    send: (v) =>
      admin.post(`/api/organizations/${ids.north}/users`, {
        username: v,
        password: 'Text12345',
        roles: ['User'],
      }),
    control: 'سفينة.user',
  },
  {
    name: 'username (edit)',
    field: 'username',
    kind: 'name',
    send: (v) => admin.put(`/api/users/${ids.user}`, { username: v, roles: ['User'] }),
    control: 'north.olav',
  },
  {
    name: 'message title',
    field: 'title',
    kind: 'name',
    send: (v) => admin.post('/api/messages', messageBody(v, 'Hello')),
    control: '<foo val="bar" />',
  },
  {
    name: 'message text',
    field: 'text',
    kind: 'text',
    send: (v) => admin.post('/api/messages', messageBody('Notice', v)),
    control: '&lt;script&gt; <b>stays</b>\n\u200Bas written ',
  },
  {
    name: 'data source note',
    field: 'note',
    kind: 'text',
    send: (v) => admin.post(`/api/algorithm/facility/${ids.ship}/datasource`, dataSourceBody(v)),
    control: 'Logger in the engine room\n\u202Bנ\u202C',
  },
  {
    name: 'channel description',
    field: 'description',
    kind: 'text',
    send: (v) =>
      admin.post(
        `/api/algorithm/facilitydatasource/${ids.dataSource}/facilitydatasourcechannels`,
        channelBody(v),
      ),
    control: 'SO₂ in ppm',
  },
  {
    name: 'calculation comment',
    field: 'comment',
    kind: 'text',
    send: (v) =>
      admin.post(`/api/algorithm/facility/${ids.ship}/measurement-field/${ids.fieldId}/calculations`, {
        comment: v,
      }),
    control: 'First try 𝛼',
  },
  {
    name: 'report information',
    field: 'information',
    kind: 'text',
    send: (v) =>
      admin.put(`/api/algorithm/reports/${encodeURIComponent(ids.report)}/update-report`, {
        information: v,
      }),
    control: '<p>Information</p>',
  },
];

const HOSTILE: { label: string; value: string; message: string; kinds: Field['kind'][] }[] = [
  {
    label: 'a NUL character',
    value: 'Before\u0000after',
    message: TEXT_MESSAGES.nul,
    kinds: ['name', 'text'],
  },
  {
    label: 'a lone surrogate',
    value: 'Broken \uD800 text',
    message: TEXT_MESSAGES.loneSurrogate,
    kinds: ['name', 'text'],
  },
  { label: 'only a zero-width space', value: '\u200B', message: TEXT_MESSAGES.invisible, kinds: ['name'] },
  {
    label: 'only invisible characters',
    value: '\u200B\u200D\u2060\u00AD',
    message: TEXT_MESSAGES.invisible,
    kinds: ['name'],
  },
  {
    label: 'bidi embedding around it',
    value: '\u202Atest\u202A',
    message: TEXT_MESSAGES.bidi,
    kinds: ['name'],
  },
  {
    label: 'a right-to-left override',
    value: 'evil\u202Egnp.exe',
    message: TEXT_MESSAGES.bidi,
    kinds: ['name'],
  },
  { label: 'a bidi isolate', value: '\u2067admin\u2069', message: TEXT_MESSAGES.bidi, kinds: ['name'] },
  { label: 'a control character', value: 'tab\there', message: TEXT_MESSAGES.control, kinds: ['name'] },
];

describe('hostile text in every text field', () => {
  for (const field of FIELDS) {
    for (const hostile of HOSTILE.filter((h) => h.kinds.includes(field.kind))) {
      it(`${field.name} with ${hostile.label}: 400 with its message, nothing stored`, async () => {
        const db = server.services.database.db;
        const before = await snapshotTables(db, tables);
        const response = await field.send(hostile.value);
        expect(response.statusCode, response.body).toBe(400);
        const body = response.json();
        expect(body.code).toBe('VALIDATION_FAILED');
        expect(body.message).toBe(`${field.field}: ${hostile.message}`);
        expect(body.fields[field.field]).toBe(hostile.message);
        expect(changedTables(before, await snapshotTables(db, tables))).toEqual([]);
      });
    }
    it(`${field.name}: legitimate text is accepted and stored as sent (the control)`, async () => {
      const response = await field.send(field.control);
      expect(response.statusCode, response.body).toBeLessThan(300);
      const stored = field.read ? await field.read(response) : response.body;
      expect(stored).toContain(JSON.stringify(field.control).slice(1, -1));
    });
  }
});

describe('messages are stored as written', () => {
  it('keeps markup and entities in titles and texts; rendering them as text is the web app’s job', async () => {
    const created = await admin.post(
      '/api/messages',
      messageBody('<foo val="bar" />', '&lt;script&gt; <i>x</i>'),
    );
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ title: '<foo val="bar" />', text: '&lt;script&gt; <i>x</i>' });
    const listed = (await admin.get('/api/messages')).json() as { id: string; title: string; text: string }[];
    expect(listed.find((m) => m.id === created.json().id)).toMatchObject({
      title: '<foo val="bar" />',
      text: '&lt;script&gt; <i>x</i>',
    });
  });

  it('trims the title (a name) but not the text', async () => {
    const created = await admin.post('/api/messages', messageBody('  Notice  ', '  indented\n'));
    expect(created.json()).toMatchObject({ title: 'Notice', text: '  indented\n' });
  });
});

describe('the backstop: text no schema checks as text never reaches the database', () => {
  it('answers 400, not 500, to NUL or a lone surrogate in an id of the path, the query or the body', async () => {
    const cases = [
      admin.get(`/api/algorithm/reports/${encodeURIComponent('a\u0000b')}`),
      admin.get(`/api/facilities?organizationId=${encodeURIComponent('\u0000')}`),
      admin.post(`/api/reports/${encodeURIComponent(ids.report)}/data`, {
        from: '2025-01-01T00:00:00.000Z',
        to: '2025-01-02T00:00:00.000Z',
        facilityIds: ['\uD800'],
      }),
      admin.post('/api/algorithm/exports', {
        reportCode: 'x\u0000',
        from: '2025-01-01T00:00:00.000Z',
        to: '2025-01-02T00:00:00.000Z',
        facilityIds: [ids.ship],
      }),
    ];
    for (const response of await Promise.all(cases)) {
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toMatch(/NUL character|broken character/);
    }
  });

  it('refuses a sign-in with NUL in the username or password (400), never a 500', async () => {
    // A form cannot carry a lone surrogate: the browser (and URLSearchParams) encodes it as U+FFFD.
    const { signInFlow } = await import('./harness');
    for (const [username, password] of [
      ['admin\u0000', 'Admin1234'],
      ['admin', 'Admin1234\u0000'],
    ]) {
      const result = await signInFlow(server.app, username!, password!);
      expect(result.accessToken).toBeUndefined();
      expect(JSON.parse(result.loginPage!)).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining(TEXT_MESSAGES.nul),
      });
    }
  });

  it('refuses an uploaded document or logger file whose name holds NUL (400, was a 500), storing nothing', async () => {
    const db = server.services.database.db;
    const token = await server.tokenFor('admin');
    const boundary = 'TextInputBoundary';
    for (const url of [
      `/api/facilities/${ids.ship}/documents`,
      `/api/algorithm/facilitydatasource/${ids.dataSource}/file`,
    ]) {
      for (const disposition of ['filename="a\u0000b.csv"', "filename*=UTF-8''a%00b.csv"]) {
        const before = await snapshotTables(db, tables);
        const payload = Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\n` +
            `Content-Type: text/csv\r\n\r\nhello\r\n--${boundary}--\r\n`,
          'latin1',
        );
        const response = await server.app.inject({
          method: 'POST',
          url,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
          },
          payload,
        });
        expect(response.statusCode, `${url} ${disposition} ${response.body}`).toBe(400);
        expect(response.json().message).toBe(`file: ${TEXT_MESSAGES.nul}`);
        expect(changedTables(before, await snapshotTables(db, tables))).toEqual([]);
      }
    }
  });

  it('answers a schema a handler applies by hand with the same 400 and message', async () => {
    const refused = await admin.post('/api/text-input-canary', { name: '\u202Atest\u202A' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: TEXT_MESSAGES.bidi,
      fields: { '': TEXT_MESSAGES.bidi },
    });
    expect((await admin.post('/api/text-input-canary', { name: ' ok ' })).json()).toEqual({ name: 'ok' });
  });

  it('refuses a raw NUL byte inside a JSON string as a malformed body (400)', async () => {
    const token = await server.tokenFor('admin');
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/facilities',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: `{"organizationId":"${ids.north}","name":"raw\u0000nul"}`,
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('existence is never revealed', () => {
  it('answers PUT and DELETE /api/users/{id} the same for another organization’s user and a missing one', async () => {
    const db = server.services.database.db;
    const before = await snapshotTables(db, tables);
    const southUser = server.seed.userIds['south.maria']!;
    for (const role of ['north.admin', 'north.anna']) {
      const caller = await server.as(role);
      const strip = (r: { statusCode: number; json: () => any }) => {
        const { requestId: _requestId, ...rest } = r.json();
        return { status: r.statusCode, ...rest };
      };
      const body = { username: 'taken.over', roles: ['User'] };
      const foreignPut = strip(await caller.put(`/api/users/${southUser}`, body));
      const missingPut = strip(await caller.put(`/api/users/${randomUUID()}`, body));
      expect(foreignPut, role).toEqual(missingPut);
      expect(foreignPut.status).toBe(404);
      const foreignDelete = strip(await caller.delete(`/api/users/${southUser}`));
      const missingDelete = strip(await caller.delete(`/api/users/${randomUUID()}`));
      expect(foreignDelete, role).toEqual(missingDelete);
      expect(foreignDelete.status).toBe(404);
    }
    expect(changedTables(before, await snapshotTables(db, tables))).toEqual([]);
  });
});
