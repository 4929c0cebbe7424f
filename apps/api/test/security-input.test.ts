import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';

/** Hostile text in every kind of text field: stored and answered literally, or made harmless (docs/security.md). */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ jobs: 'none' });
});
afterAll(async () => {
  await server?.close();
});

const SQL = `'; drop table users; --`;
const LIKE = String.raw`%_\ `.trim();

describe('SQL metacharacters are data', () => {
  it('stores and answers them literally in ship, organization and user names and in messages; the tables survive', async () => {
    const admin = await server.as('admin');
    const organization = await admin.post('/api/organizations', {
      name: `Org ${SQL} ${LIKE}`,
      email: null,
      phone: null,
      priority: false,
    });
    expect(organization.statusCode).toBe(201);
    expect(organization.json().name).toBe(`Org ${SQL} ${LIKE}`);
    const organizationId = organization.json().id as string;

    const ship = await admin.post('/api/facilities', { organizationId, name: `Ship ${SQL} ${LIKE}` });
    expect(ship.statusCode).toBe(201);
    const shipId = ship.json().id as string;
    expect((await admin.get(`/api/facilities/${shipId}/facility`)).json().name).toBe(`Ship ${SQL} ${LIKE}`);

    const user = await admin.post(`/api/organizations/${organizationId}/users`, {
      username: `o'brien%_\\`,
      password: 'Obrien12345',
      roles: ['User'],
    });
    expect(user.statusCode).toBe(201);
    expect(user.json().username).toBe(`o'brien%_\\`);

    const message = await admin.post('/api/messages', {
      title: `Title ${SQL}`,
      text: `Text ${SQL} ${LIKE}`,
      showFrom: '2025-01-01T00:00:00.000Z',
      showTo: '2099-01-01T00:00:00.000Z',
      notify: false,
    });
    expect(message.statusCode).toBe(201);
    expect(message.json()).toMatchObject({ title: `Title ${SQL}`, text: `Text ${SQL} ${LIKE}` });

    // Searches that use LIKE must not treat % and _ as wildcards: the organization filter of the ship list matches exactly.
    const list = await admin.get(`/api/facilities?organizationId=${encodeURIComponent(`%_\\`)}`);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([]);
    expect((await admin.get('/api/organizations')).json().map((o: { name: string }) => o.name)).toContain(
      `Org ${SQL} ${LIKE}`,
    );
    const users = await server.services.database.db.selectFrom('users').select('id').execute();
    expect(users.length).toBeGreaterThan(7);
  });

  it('signs in a user whose name holds quotes and wildcards only with that exact name', async () => {
    const { signInFlow } = await import('./harness');
    expect((await signInFlow(server.app, `o'brien%_\\`, 'Obrien12345')).accessToken).toBeTruthy();
    expect((await signInFlow(server.app, `o'brien%%`, 'Obrien12345')).accessToken).toBeUndefined();
    expect((await signInFlow(server.app, `' or '1'='1`, `' or '1'='1`)).accessToken).toBeUndefined();
  });
});

const HTML_PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<svg onload=alert(1)><script>alert(2)</script></svg>',
  // Mutation XSS: harmless as parsed once, a script after a second parse.
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
];

describe('HTML is stored as written where it is shown as text, sanitised where it is rich text', () => {
  it('stores a message’s title and text exactly as written: the web app shows them as text, never as HTML', async () => {
    const admin = await server.as('admin');
    for (const payload of HTML_PAYLOADS) {
      const response = await admin.post('/api/messages', {
        title: payload,
        text: `Hello ${payload}`,
        showFrom: '2025-01-01T00:00:00.000Z',
        showTo: '2099-01-01T00:00:00.000Z',
        notify: false,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ title: payload, text: `Hello ${payload}` });
    }
  });

  it('keeps only the editor’s tags in report information, without attributes', async () => {
    const admin = await server.as('admin');
    const report = await server.services.database.db
      .selectFrom('reports')
      .select('id')
      .executeTakeFirstOrThrow();
    for (const payload of HTML_PAYLOADS) {
      const response = await admin.put(
        `/api/algorithm/reports/${encodeURIComponent(report.id)}/update-report`,
        { information: `<p><b>Bold</b> ${payload}</p>` },
      );
      expect(response.statusCode).toBe(200);
      const information = String(response.json().information);
      expect(information).toContain('<b>Bold</b>');
      expect(information).not.toMatch(/<\s*(script|img|svg|a|math|style|noscript|mglyph|table)\b/i);
      expect(information).not.toMatch(/\son[a-z]+\s*=/i);
      expect(information).not.toMatch(/javascript:/i);
    }
  });
});
