import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

type Page = {
  items: {
    at: string;
    username: string | null;
    organizationName: string | null;
    organizationId: string | null;
    action: string;
    detail: unknown;
  }[];
  total: number;
  page: number;
  pageSize: number;
};

async function addEntries(organizationId: string, action: string, count: number, at: Date) {
  const db = server.services.database.db;
  for (let i = 0; i < count; i++)
    await db
      .insertInto('audit_log')
      .values({
        at: new Date(at.getTime() + i * 1000),
        user_id: null,
        organization_id: organizationId,
        action,
        subject: `s${i}`,
        detail: JSON.stringify({ i }),
      } as never)
      .execute();
}

describe('GET /api/audit-log', () => {
  it('shows who did what and when, newest first, for a maintenance switch', async () => {
    const admin = await server.as('admin');
    expect((await admin.put('/api/settings/maintenance', { maintenance: true })).statusCode).toBe(200);
    expect((await admin.put('/api/settings/maintenance', { maintenance: false })).statusCode).toBe(200);
    const response = await admin.get('/api/audit-log?action=maintenance.set');
    expect(response.statusCode).toBe(200);
    const page = response.json() as Page;
    expect(page.total).toBe(2);
    expect(page.items.map((e) => e.detail)).toEqual([{ maintenance: false }, { maintenance: true }]);
    expect(page.items[0]).toMatchObject({ username: 'admin', action: 'maintenance.set' });
    expect(page.items[0]!.organizationName).toBeTruthy();
    expect(new Date(page.items[0]!.at).getTime()).toBeGreaterThanOrEqual(
      new Date(page.items[1]!.at).getTime(),
    );
    const actions = (await admin.get('/api/audit-log/actions')).json() as string[];
    expect(actions).toContain('maintenance.set');
  });

  it('filters by organization, action and period, and pages', async () => {
    const admin = await server.as('admin');
    const north = server.seed.organizationIds.north!;
    const south = server.seed.organizationIds.south!;
    await addEntries(north, 'test.paged', 30, new Date('2024-05-01T00:00:00Z'));
    await addEntries(south, 'test.paged', 5, new Date('2024-05-01T00:00:00Z'));
    await addEntries(north, 'test.paged', 4, new Date('2024-07-01T00:00:00Z'));

    const first = (
      await admin.get(`/api/audit-log?action=test.paged&organizationId=${north}`)
    ).json() as Page;
    expect(first).toMatchObject({ total: 34, page: 1, pageSize: 25 });
    expect(first.items).toHaveLength(25);
    expect(first.items.every((e) => e.organizationId === north)).toBe(true);
    const second = (
      await admin.get(`/api/audit-log?action=test.paged&organizationId=${north}&page=2`)
    ).json() as Page;
    expect(second.items).toHaveLength(9);
    expect(second.items.at(-1)!.at).toBe('2024-05-01T00:00:00.000Z');

    const may = (
      await admin.get(
        `/api/audit-log?action=test.paged&from=2024-05-01T00:00:00Z&to=2024-05-31T23:59:59.999Z&pageSize=100`,
      )
    ).json() as Page;
    expect(may.total).toBe(35);
    expect(may.items.every((e) => e.at.startsWith('2024-05'))).toBe(true);
    const none = (await admin.get('/api/audit-log?action=no.such.action')).json() as Page;
    expect(none).toMatchObject({ total: 0, items: [] });
  });

  it('names the users, ships and organizations its ids refer to, and keeps the ids', async () => {
    const admin = await server.as('admin');
    const db = server.services.database.db;
    const north = server.seed.organizationIds.north!;
    const anna = server.seed.userIds['north.anna']!;
    const ship = Object.values(server.seed.facilityIds)[0]!;
    const shipName = (
      await db.selectFrom('facilities').select('name').where('id', '=', ship).executeTakeFirstOrThrow()
    ).name;
    const unknown = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
    const at = new Date('2023-03-01T00:00:00Z');
    const rows = [
      { subject: anna, detail: { organizationId: north } },
      { subject: ship, detail: { facilityId: ship, userId: anna } },
      { subject: north, detail: null },
      { subject: unknown, detail: { facilityId: ship, cause: 'pump' } },
      { subject: 'north.anna', detail: { facilityId: 'not-a-uuid' } },
      { subject: null, detail: 'plain' },
    ];
    for (const [i, row] of rows.entries())
      await db
        .insertInto('audit_log')
        .values({
          at: new Date(at.getTime() + i * 1000),
          user_id: anna,
          organization_id: north,
          action: 'test.names',
          subject: row.subject,
          detail: row.detail === null ? null : JSON.stringify(row.detail),
        } as never)
        .execute();
    const answer = await admin.get('/api/audit-log?action=test.names&pageSize=25');
    expect(answer.statusCode, answer.body).toBe(200);
    const page = answer.json() as {
      items: {
        subject: string | null;
        subjectName: string | null;
        names: Record<string, string>;
        userId: string;
      }[];
    };
    const items = [...page.items].reverse();
    expect(items.map((e) => e.subject)).toEqual(rows.map((r) => r.subject));
    expect(items.map((e) => e.subjectName)).toEqual([
      'north.anna',
      shipName,
      'Nordic Bulk Carriers',
      null,
      null,
      null,
    ]);
    expect(items[0]!.names).toEqual({ [anna]: 'north.anna', [north]: 'Nordic Bulk Carriers' });
    expect(items[1]!.names).toEqual({ [ship]: shipName, [anna]: 'north.anna' });
    expect(items[3]!.names).toEqual({ [ship]: shipName });
    expect(items[4]!.names).toEqual({});
    expect(items[5]!.names).toEqual({});
    expect(items.every((e) => e.userId === anna)).toBe(true);
  });

  it('refuses a bad filter with 400', async () => {
    const admin = await server.as('admin');
    expect((await admin.get('/api/audit-log?pageSize=7')).statusCode).toBe(400);
    expect((await admin.get('/api/audit-log?from=yesterday')).statusCode).toBe(400);
    expect((await admin.get('/api/audit-log?organizationId=nope')).statusCode).toBe(400);
    expect((await admin.get('/api/audit-log?page=0')).statusCode).toBe(400);
  });

  it('is for a SystemAdmin only: a UserAdmin and a User get 403, no token 401', async () => {
    for (const username of ['north.admin', 'south.admin', 'north.anna']) {
      const caller = await server.as(username);
      expect((await caller.get('/api/audit-log')).statusCode, username).toBe(403);
      expect((await caller.get('/api/audit-log/actions')).statusCode, username).toBe(403);
    }
    expect((await server.app.inject({ url: '/api/audit-log' })).statusCode).toBe(401);
  });

  it('is described in the OpenAPI document', async () => {
    const paths = Object.keys((await server.app.inject({ url: '/api/docs/json' })).json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/api/audit-log', '/api/audit-log/actions']));
  });
});
