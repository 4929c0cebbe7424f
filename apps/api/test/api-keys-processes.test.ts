import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../src/seed/platform';
import { startTestServer, type TestServer } from './harness';
import { waitFor } from './wait';
import {
  call,
  killAll,
  signInOverHttp,
  spawnServer,
  waitUntilServing,
  type ServerProcess,
} from './processes';

/**
 * A revoked API key is refused at once by every API process (issue 19): two API processes (--services=web) on one
 * PostgreSQL, the key made and revoked through the first, used through the second, whose resolved key is cached
 * under the access version. Needs a PostgreSQL database of your own in DATABASE_URL (its public schema is emptied).
 */
const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL)
  console.info(
    'api-keys-processes.test.ts skipped: it needs PostgreSQL (DATABASE_URL=postgres://.../<a database of your own>)',
  );
const PORTS = [
  Number(process.env.API_KEYS_TEST_PORT ?? 18201),
  Number(process.env.API_KEYS_TEST_PORT ?? 18201) + 1,
];
const password = (username: string) => DEMO_USERS.find((u) => u.username === username)!.password;

describe.skipIf(!DATABASE_URL)('an API key across two API processes (skipped without DATABASE_URL)', () => {
  let server: TestServer;
  let apis: ServerProcess[];
  let adminToken: string;

  beforeAll(async () => {
    server = await startTestServer({ jobs: 'none' });
    apis = PORTS.map((port) => spawnServer({ databaseUrl: DATABASE_URL, services: 'web', port }));
    await Promise.all(apis.map((api) => waitUntilServing(api)));
    adminToken = await signInOverHttp(apis[0]!.url!, 'north.admin', password('north.admin'));
  }, 300_000);

  afterAll(async () => {
    await killAll();
    await server?.close();
  });

  it('is refused by the other process on the very next call after it was revoked, and after it expired', async () => {
    const north = server.seed.organizationIds.north!;
    const [first, second] = apis.map((api) => api.url!);
    const created = await call(first!, adminToken, 'POST', `/api/organizations/${north}/api-keys`, {
      name: 'Across processes',
      scopes: ['reports:read'],
    });
    expect(created.status).toBe(201);
    const key = created.json.key as string;
    // Used through both processes (each caches the resolved key), a few times.
    for (let i = 0; i < 3; i++)
      for (const url of [first!, second!])
        expect((await call(url, key, 'GET', '/api/events')).status).toBe(200);

    const revoked = await call(
      first!,
      adminToken,
      'DELETE',
      `/api/organizations/${north}/api-keys/${created.json.id}`,
    );
    expect(revoked.status).toBe(204);
    for (const url of [second!, first!]) {
      const refused = await call(url, key, 'GET', '/api/events');
      expect([refused.status, refused.json.message]).toEqual([
        401,
        'The API key is not valid or was revoked',
      ]);
    }

    // A key that expires: refused by both once its time has come, with nothing changed in the database.
    const expiresOn = new Date(Date.now() + 2000).toISOString();
    const short = await call(first!, adminToken, 'POST', `/api/organizations/${north}/api-keys`, {
      name: 'Short lived',
      scopes: ['reports:read'],
      expiresOn,
    });
    expect(short.status).toBe(201);
    for (const url of [first!, second!])
      expect((await call(url, short.json.key, 'GET', '/api/events')).status).toBe(200);
    // Asked until its time has come (accepted until then), then by both processes.
    await waitFor(() => call(second!, short.json.key, 'GET', '/api/events'), {
      what: 'the key to be refused after its expiry',
      until: (r) => r.status !== 200,
      show: (r) => String(r.status),
    });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresOn));
    for (const url of [second!, first!]) {
      const refused = await call(url, short.json.key, 'GET', '/api/events');
      expect([refused.status, refused.json.message]).toEqual([401, 'The API key has expired']);
    }
  }, 60_000);
});
