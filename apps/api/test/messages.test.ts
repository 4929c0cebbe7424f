import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { seedMessages } from '../src/features/messages/seed';

let server: TestServer;
const DAY = 86_400_000;
const iso = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString();

async function insertMessage(values: {
  title: string;
  from: number;
  to: number;
  notify?: boolean;
  isPersonal?: boolean;
  facilityId?: string;
  type?: string;
  recipients?: string[];
}) {
  const db = server.services.database.db;
  const { id } = await db
    .insertInto('messages')
    .values({
      title: values.title,
      text: `${values.title} text`,
      show_from: iso(values.from),
      show_to: iso(values.to),
      notify: values.notify ?? false,
      is_personal: values.isPersonal ?? false,
      facility_id: values.facilityId ?? null,
      type: values.type ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const userId of values.recipients ?? [])
    await db.insertInto('message_recipients').values({ message_id: id, user_id: userId }).execute();
  return id;
}

const titles = (list: { title: string | null }[]) => list.map((m) => m.title);

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('the seeded messages', () => {
  it('give everyone the broadcast and north.olav his personal welcome flagged notify', async () => {
    const anna = await (await server.as('north.anna')).get('/api/messages?isActive=true');
    expect(anna.statusCode).toBe(200);
    expect(titles(anna.json())).toContain('New fleet dashboard');
    expect(titles(anna.json())).not.toContain('Welcome to the portal');

    const olav = (await (await server.as('north.olav')).get('/api/messages?isActive=true')).json();
    const welcome = olav.find((m: { title: string }) => m.title === 'Welcome to the portal');
    expect(welcome).toMatchObject({ notify: true, isPersonal: true, isRead: false });
    expect(welcome.text).toContain('\n');
  });

  it('are not doubled when the seed runs again', async () => {
    await seedMessages(server.services.database.db);
    const all = (await (await server.as('admin')).get('/api/messages')).json();
    expect(titles(all).filter((t) => t === 'Welcome to the portal')).toHaveLength(1);
    expect(titles(all).filter((t) => t === 'New fleet dashboard')).toHaveLength(1);
  });
});

describe('GET /api/messages?isActive=true', () => {
  it('leaves out upcoming and past messages', async () => {
    await insertMessage({ title: 'Upcoming', from: 2, to: 3 });
    await insertMessage({ title: 'Past', from: -3, to: -2 });
    const list = titles((await (await server.as('south.lee')).get('/api/messages?isActive=true')).json());
    expect(list).toContain('New fleet dashboard');
    expect(list).not.toContain('Upcoming');
    expect(list).not.toContain('Past');
  });

  it('gives a ship document message only to those who see that ship', async () => {
    const pacific = server.seed.facilityIds.pacific_kestrel!;
    await insertMessage({
      title: 'New service report for Pacific Kestrel',
      from: -1,
      to: 5,
      facilityId: pacific,
      type: 'FacilityDocuments',
    });
    const sees = async (username: string) =>
      titles((await (await server.as(username)).get('/api/messages?isActive=true')).json()).includes(
        'New service report for Pacific Kestrel',
      );
    expect(await sees('south.maria')).toBe(true); // assigned
    expect(await sees('south.admin')).toBe(true); // own organization's ship
    expect(await sees('admin')).toBe(true);
    expect(await sees('south.lee')).toBe(false); // same organization, not assigned
    expect(await sees('north.admin')).toBe(false); // another organization
    expect(await sees('north.anna')).toBe(false);
  });

  it('gives a personal message only to its recipients', async () => {
    await insertMessage({
      title: 'For Maria',
      from: -1,
      to: 1,
      isPersonal: true,
      recipients: [server.seed.userIds['south.maria']!],
    });
    expect(
      titles((await (await server.as('south.maria')).get('/api/messages?isActive=true')).json()),
    ).toContain('For Maria');
    expect(
      titles((await (await server.as('south.lee')).get('/api/messages?isActive=true')).json()),
    ).not.toContain('For Maria');
    expect(
      titles((await (await server.as('admin')).get('/api/messages?isActive=true')).json()),
    ).not.toContain('For Maria');
  });

  it('refuses a request without a token', async () => {
    expect((await server.app.inject({ url: '/api/messages?isActive=true' })).statusCode).toBe(401);
  });
});

describe('POST /api/messages/{id}/mark-as-read', () => {
  it('marks the message read for the caller only, and the mark stays', async () => {
    const olav = await server.as('north.olav');
    const anna = await server.as('north.anna');
    const broadcast = (await olav.get('/api/messages?isActive=true'))
      .json()
      .find((m: { title: string }) => m.title === 'New fleet dashboard');
    expect((await olav.post(`/api/messages/${broadcast.id}/mark-as-read`)).statusCode).toBe(204);
    expect((await olav.post(`/api/messages/${broadcast.id}/mark-as-read`)).statusCode).toBe(204); // twice is fine
    const again = (await olav.get('/api/messages?isActive=true'))
      .json()
      .find((m: { id: string }) => m.id === broadcast.id);
    expect(again.isRead).toBe(true);
    const forAnna = (await anna.get('/api/messages?isActive=true'))
      .json()
      .find((m: { id: string }) => m.id === broadcast.id);
    expect(forAnna.isRead).toBe(false);
  });

  it("answers 404 for another user's personal message, a ship the caller does not see, an unknown or malformed id", async () => {
    const anna = await server.as('north.anna');
    const welcome = (await (await server.as('north.olav')).get('/api/messages?isActive=true'))
      .json()
      .find((m: { title: string }) => m.title === 'Welcome to the portal');
    expect((await anna.post(`/api/messages/${welcome.id}/mark-as-read`)).statusCode).toBe(404);
    const pacificMessage = await insertMessage({
      title: 'Pacific only',
      from: -1,
      to: 1,
      facilityId: server.seed.facilityIds.pacific_kestrel!,
    });
    expect((await anna.post(`/api/messages/${pacificMessage}/mark-as-read`)).statusCode).toBe(404);
    expect(
      (await anna.post('/api/messages/00000000-0000-4000-8000-000000000000/mark-as-read')).statusCode,
    ).toBe(404);
    expect((await anna.post('/api/messages/not-an-id/mark-as-read')).statusCode).toBe(404);
  });
});

describe('the administration calls', () => {
  it('lists every message for a SystemAdmin, upcoming and past included; nobody else', async () => {
    const all = await (await server.as('admin')).get('/api/messages');
    expect(all.statusCode).toBe(200);
    expect(titles(all.json())).toEqual(expect.arrayContaining(['Upcoming', 'Past', 'For Maria']));
    expect((await (await server.as('north.admin')).get('/api/messages')).statusCode).toBe(403);
    expect((await (await server.as('north.anna')).get('/api/messages?isActive=false')).statusCode).toBe(403);
  });

  it('creates a message stored exactly as written: markup, entities and line breaks kept (shown as text)', async () => {
    const admin = await server.as('admin');
    const response = await admin.post('/api/messages', {
      title: 'Planned downtime',
      text: 'Line one<script>alert(1)</script>\nLine <b>two</b> & more<br>Line three',
      showFrom: iso(-1),
      showTo: iso(1),
      notify: true,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      title: 'Planned downtime',
      text: 'Line one<script>alert(1)</script>\nLine <b>two</b> & more<br>Line three',
      notify: true,
      // Its author has read it: the bell does not open for one's own message.
      isRead: true,
      isPersonal: false,
    });
    const forLee = (await (await server.as('south.lee')).get('/api/messages?isActive=true')).json();
    expect(forLee.find((m: { title: string }) => m.title === 'Planned downtime')).toMatchObject({
      isRead: false,
    });
  });

  it("answers the form's messages for a bad message", async () => {
    const admin = await server.as('admin');
    const noText = await admin.post('/api/messages', {
      title: 'x',
      text: '  ',
      showFrom: iso(-1),
      showTo: iso(1),
    });
    expect(noText.statusCode).toBe(400);
    expect(noText.json().fields.text).toBe('Message is required');
    const reversed = await admin.post('/api/messages', {
      title: 'x',
      text: 'y',
      showFrom: iso(2),
      showTo: iso(1),
    });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().fields).toMatchObject({ showFrom: 'Must be before "Show to"' });
    const noDates = await admin.post('/api/messages', { title: 'x', text: 'y' });
    expect(noDates.statusCode).toBe(400);
    expect(noDates.json().fields).toMatchObject({
      showFrom: 'Specify when the message is shown from',
      showTo: 'Specify when the message is shown to',
    });
  });

  it('lets only a SystemAdmin create or delete', async () => {
    const body = { title: 'x', text: 'y', showFrom: iso(-1), showTo: iso(1) };
    expect((await (await server.as('north.admin')).post('/api/messages', body)).statusCode).toBe(403);
    expect((await (await server.as('south.maria')).post('/api/messages', body)).statusCode).toBe(403);
    const broadcast = (await (await server.as('admin')).get('/api/messages'))
      .json()
      .find((m: { title: string }) => m.title === 'New fleet dashboard');
    expect((await (await server.as('north.admin')).delete(`/api/messages/${broadcast.id}`)).statusCode).toBe(
      403,
    );
  });

  it('deletes a message together with the records of who read it', async () => {
    const admin = await server.as('admin');
    const id = await insertMessage({ title: 'Short-lived', from: -1, to: 1 });
    expect((await (await server.as('south.lee')).post(`/api/messages/${id}/mark-as-read`)).statusCode).toBe(
      204,
    );
    const db = server.services.database.db;
    expect(
      await db.selectFrom('message_reads').select('user_id').where('message_id', '=', id).execute(),
    ).toHaveLength(1);
    expect((await admin.delete(`/api/messages/${id}`)).statusCode).toBe(204);
    expect(
      await db.selectFrom('message_reads').select('user_id').where('message_id', '=', id).execute(),
    ).toHaveLength(0);
    expect(titles((await admin.get('/api/messages')).json())).not.toContain('Short-lived');
    expect((await admin.delete(`/api/messages/${id}`)).statusCode).toBe(404);
    expect((await admin.delete('/api/messages/nope')).statusCode).toBe(404);
  });
});

describe('PUT /api/messages/{id}', () => {
  const readers = async (id: string) =>
    (
      await server.services.database.db
        .selectFrom('message_reads')
        .select('user_id')
        .where('message_id', '=', id)
        .execute()
    ).map((r) => r.user_id);
  const readBy = async (username: string, id: string) =>
    (await (await server.as(username)).get('/api/messages?isActive=true'))
      .json()
      .find((m: { id: string }) => m.id === id)?.isRead;

  it('changes the message in place and keeps who read it when only the period, notify or white space changed', async () => {
    const admin = await server.as('admin');
    const created = (
      await admin.post('/api/messages', {
        title: 'Dry dock',
        text: 'Upload pauses on Friday.',
        showFrom: iso(-1),
        showTo: iso(1),
      })
    ).json();
    expect(
      (await (await server.as('south.lee')).post(`/api/messages/${created.id}/mark-as-read`)).statusCode,
    ).toBe(204);
    const response = await admin.put(`/api/messages/${created.id}`, {
      title: 'Dry dock ',
      text: 'Upload pauses\non Friday.',
      showFrom: iso(-1),
      showTo: iso(3),
      notify: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: created.id,
      text: 'Upload pauses\non Friday.',
      notify: true,
    });
    expect(await readBy('south.lee', created.id)).toBe(true);
    const all = titles((await admin.get('/api/messages')).json());
    expect(all.filter((t) => t === 'Dry dock')).toHaveLength(1);
    const entry = await server.services.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'message.update')
      .where('subject', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(entry.detail).toMatchObject({ readsKept: true, notify: true });
  });

  it('makes it unread again for everyone but its editor when its words changed', async () => {
    const admin = await server.as('admin');
    const id = await insertMessage({ title: 'Window', from: -1, to: 1 });
    await (await server.as('south.lee')).post(`/api/messages/${id}/mark-as-read`);
    await (await server.as('north.anna')).post(`/api/messages/${id}/mark-as-read`);
    expect(await readers(id)).toHaveLength(2);
    const response = await admin.put(`/api/messages/${id}`, {
      title: 'Window',
      text: 'The window moved to Saturday.',
      showFrom: iso(-1),
      showTo: iso(1),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().isRead).toBe(true);
    expect(await readBy('south.lee', id)).toBe(false);
    expect(await readBy('north.anna', id)).toBe(false);
    expect(await readers(id)).toEqual([server.seed.userIds.admin]);
  });

  it("answers the form's messages, 404 for an unknown or malformed id, 403 for anyone but a SystemAdmin", async () => {
    const admin = await server.as('admin');
    const id = await insertMessage({ title: 'Guarded', from: -1, to: 1 });
    const body = { title: 'x', text: 'y', showFrom: iso(-1), showTo: iso(1) };
    const reversed = await admin.put(`/api/messages/${id}`, { ...body, showFrom: iso(2) });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().fields).toMatchObject({ showFrom: 'Must be before "Show to"' });
    const noText = await admin.put(`/api/messages/${id}`, { ...body, text: ' \n ' });
    expect(noText.statusCode).toBe(400);
    expect(noText.json().fields.text).toBe('Message is required');
    expect((await admin.put('/api/messages/00000000-0000-4000-8000-000000000000', body)).statusCode).toBe(
      404,
    );
    expect((await admin.put('/api/messages/nope', body)).statusCode).toBe(404);
    expect((await (await server.as('north.admin')).put(`/api/messages/${id}`, body)).statusCode).toBe(403);
    expect((await (await server.as('south.maria')).put(`/api/messages/${id}`, body)).statusCode).toBe(403);
    expect(titles((await admin.get('/api/messages')).json())).toContain('Guarded');
  });
});

describe('the OpenAPI document', () => {
  it('describes the message and execution status calls', async () => {
    const response = await server.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/messages',
        '/api/messages/{id}',
        '/api/messages/{id}/mark-as-read',
        '/api/algorithm/calculations',
        '/api/users/{id}/change-password',
      ]),
    );
  });
});
