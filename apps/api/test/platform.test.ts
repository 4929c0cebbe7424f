import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SignJWT, importJWK, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createServer } from '../src/server';
import { seedPlatform } from '../src/seed/platform';
import { loadOrCreateProviderKeys } from '../src/features/auth/keys';
import { PUBLIC_URL, signInFlow, startTestServer, type TestServer } from './harness';
import { waitFor } from './wait';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('version and settings', () => {
  it('answers the version and a build number without sign-in', async () => {
    const response = await server.app.inject({ url: '/api/version' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ version: '1.6.7', build: expect.any(String) });
  });

  it('serves settings.js with the API base, the OIDC authority and the environment', async () => {
    const response = await server.app.inject({ url: '/settings.js' });
    expect(response.headers['content-type']).toContain('javascript');
    const match = /^window\.settings = (.*);\n$/s.exec(response.body);
    const settings = JSON.parse(match![1]!);
    expect(settings).toMatchObject({
      apiBaseUrl: '/api/',
      oidc: { authority: `${PUBLIC_URL}/oidc`, clientId: 'portal-web' },
      environment: { name: 'Local' },
      maintenance: false,
    });
  });

  it('names no support phone unless one is configured (SUPPORT_PHONE): no made-up number', async () => {
    const script = (await server.app.inject({ url: '/settings.js' })).body;
    const settings = JSON.parse(/^window\.settings = (.*);\n$/s.exec(script)![1]!);
    expect(settings.supportPhone).toBe('');
    expect(loadConfig({}, []).SUPPORT_PHONE).toBe('');
    expect(loadConfig({ SUPPORT_PHONE: ' +47 21 00 00 00 ' }, []).SUPPORT_PHONE).toBe('+47 21 00 00 00');
  });

  it('lets a SystemAdmin switch maintenance at run time, and nobody else', async () => {
    const user = await server.as('north.anna');
    expect((await user.put('/api/settings/maintenance', { maintenance: true })).statusCode).toBe(403);
    const admin = await server.as('admin');
    expect((await admin.put('/api/settings/maintenance', { maintenance: true })).json()).toEqual({
      maintenance: true,
    });
    expect((await server.app.inject({ url: '/settings.js' })).body).toContain('"maintenance":true');
    await admin.put('/api/settings/maintenance', { maintenance: false });
    expect((await server.app.inject({ url: '/settings.js' })).body).toContain('"maintenance":false');
  });

  it('serves the OpenAPI description at /api/docs', async () => {
    const response = await server.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().paths)).toContain('/api/facilities');
  });
});

describe('sign-in and tokens', () => {
  it('signs in through the OpenID flow and answers the profile', async () => {
    const me = await (await server.as('north.admin')).get('/api/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      username: 'north.admin',
      organizationName: 'Nordic Bulk Carriers',
      roles: ['UserAdmin'],
    });
  });

  it('shows a message beginning "User not found" for a wrong password or an unknown user, without saying which', async () => {
    const wrongPassword = await signInFlow(server.app, 'north.admin', 'wrong-password1');
    const unknownUser = await signInFlow(server.app, 'nobody', 'whatever123');
    expect(wrongPassword.accessToken).toBeUndefined();
    for (const page of [wrongPassword.loginPage!, unknownUser.loginPage!])
      expect(page).toMatch(/<p class="error" role="alert">User not found/);
  });

  it('puts sub, organizationId and role in the access token', async () => {
    const token = await server.tokenFor('south.maria');
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({
      sub: server.seed.userIds['south.maria'],
      organizationId: server.seed.organizationIds.south,
      role: 'User',
    });
    expect(claims.exp - claims.iat).toBe(1800);
  });

  describe('refuses bad tokens with 401', () => {
    const forge = async (claims: Record<string, unknown>, header: Record<string, unknown> = {}) => {
      const keys = await loadOrCreateProviderKeys(server.services.database.db);
      const key = await importJWK(keys.signing[0] as JWK, 'RS256');
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        organizationId: server.seed.organizationIds.north,
        role: 'SystemAdmin',
        ...claims,
      })
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: keys.signing[0]!.kid, ...header })
        .setIssuer((claims.iss as string) ?? `${PUBLIC_URL}/oidc`)
        .setAudience((claims.aud as string) ?? 'urn:scrubber-portal:api')
        .setSubject(server.seed.userIds['north.anna']!)
        .setIssuedAt((claims.iat as number) ?? now)
        .setExpirationTime((claims.exp as number) ?? now + 600)
        .sign(key);
    };
    const call = (token?: string) =>
      server.app.inject({
        url: '/api/facilities',
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });

    it('accepts a well-formed token (the control case)', async () => {
      expect((await call(await forge({}))).statusCode).toBe(200);
    });
    it('missing', async () => {
      expect((await call()).statusCode).toBe(401);
    });
    it('expired', async () => {
      const now = Math.floor(Date.now() / 1000);
      expect((await call(await forge({ iat: now - 4000, exp: now - 60 }))).statusCode).toBe(401);
    });
    it('wrong issuer', async () => {
      expect((await call(await forge({ iss: 'https://evil.example/oidc' }))).statusCode).toBe(401);
    });
    it('wrong audience', async () => {
      expect((await call(await forge({ aud: 'some-other-api' }))).statusCode).toBe(401);
    });
    it('alg none', async () => {
      const good = await forge({});
      const [, payload] = good.split('.');
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url');
      expect((await call(`${header}.${payload}.`)).statusCode).toBe(401);
    });
    it('tampered signature', async () => {
      const good = await forge({});
      const [header, payload, signature] = good.split('.');
      const tamperedPayload = Buffer.from(
        JSON.stringify({
          ...JSON.parse(Buffer.from(payload!, 'base64url').toString()),
          role: 'SystemAdmin',
          organizationId: 'x',
        }),
      ).toString('base64url');
      expect((await call(`${header}.${tamperedPayload}.${signature}`)).statusCode).toBe(401);
      expect((await call(`${header}.${payload}.${signature!.slice(0, -4)}AAAA`)).statusCode).toBe(401);
    });
    it('an ID token used as an access token', async () => {
      const flow = await signInFlow(server.app, 'north.anna', 'Anna12345');
      expect(flow.idToken).toBeTruthy();
      expect((await call(flow.idToken)).statusCode).toBe(401);
    });
  });

  it('takes the role from the database, not from the token: a forged role claim does not widen access', async () => {
    // north.anna's token claims SystemAdmin (signed with the real key), but she is a User with three ships.
    const keys = await loadOrCreateProviderKeys(server.services.database.db);
    const key = await importJWK(keys.signing[0] as JWK, 'RS256');
    const token = await new SignJWT({
      role: 'SystemAdmin',
      organizationId: server.seed.organizationIds.provider,
    })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: keys.signing[0]!.kid })
      .setIssuer(`${PUBLIC_URL}/oidc`)
      .setAudience('urn:scrubber-portal:api')
      .setSubject(server.seed.userIds['north.anna']!)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(key);
    const response = await server.app.inject({
      url: '/api/facilities',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(
      response.json().map((f: { primaryOrganizationId: string }) => f.primaryOrganizationId),
    ).not.toContain(server.seed.organizationIds.south);
  });

  it('refuses the old access token after sign-out', async () => {
    const flow = await signInFlow(server.app, 'south.lee', 'Lee123456');
    const headers = { authorization: `Bearer ${flow.accessToken}` };
    expect((await server.app.inject({ url: '/api/auth/me', headers })).statusCode).toBe(200);
    expect((await server.app.inject({ method: 'POST', url: '/api/auth/logout', headers })).statusCode).toBe(
      204,
    );
    expect((await server.app.inject({ url: '/api/auth/me', headers })).statusCode).toBe(401);
    // The refresh token is gone too.
    const refresh = await server.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: flow.refreshToken!,
        client_id: 'portal-web',
      }).toString(),
    });
    expect(refresh.statusCode).toBe(400);
    // Sign-out refuses the tokens of its second too (tokens_valid_after, rounded up): the next tests' tokens of
    // south.lee are accepted once the clock has passed it.
    const { tokens_valid_after: validAfter } = await server.services.database.db
      .selectFrom('users')
      .select('tokens_valid_after')
      .where('username', '=', 'south.lee')
      .executeTakeFirstOrThrow();
    await waitFor(() => Date.now() >= new Date(validAfter).getTime(), {
      what: "the clock to pass south.lee's sign-out",
    });
  });

  it('renews the access token with the refresh token', async () => {
    const flow = await signInFlow(server.app, 'north.olav', 'Olav12345');
    const refresh = await server.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: flow.refreshToken!,
        client_id: 'portal-web',
      }).toString(),
    });
    expect(refresh.statusCode).toBe(200);
    const renewed = refresh.json().access_token as string;
    expect(
      (
        await server.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${renewed}` } })
      ).json().username,
    ).toBe('north.olav');
  });
});

describe('who sees which ships', () => {
  const names = (list: { name: string }[]) => list.map((f) => f.name).sort();
  const idsOf = (list: { id: string }[]) => list.map((f) => f.id).sort();

  it('SystemAdmin sees all ships, sorted by name', async () => {
    const list = (await (await server.as('admin')).get('/api/facilities')).json();
    expect(list).toHaveLength(Object.keys(server.seed.facilityIds).length);
    expect(list.map((f: { name: string }) => f.name)).toEqual(
      [...list.map((f: { name: string }) => f.name)].sort((a, b) =>
        a.toLowerCase().localeCompare(b.toLowerCase()),
      ),
    );
  });

  it('a UserAdmin sees own ships and those a linked organization shared', async () => {
    const all = (await (await server.as('admin')).get('/api/facilities')).json() as {
      id: string;
      primaryOrganizationId: string;
      organizationIds: string[];
    }[];
    const south = server.seed.organizationIds.south!;
    const expected = all
      .filter((f) => f.organizationIds.includes(south))
      .map((f) => f.id)
      .sort();
    const seen = (await (await server.as('south.admin')).get('/api/facilities')).json();
    expect(idsOf(seen)).toEqual(expected);
    expect(seen.some((f: { primaryOrganizationId: string }) => f.primaryOrganizationId !== south)).toBe(true);
  });

  it('a User sees only assigned ships', async () => {
    const seen = (await (await server.as('south.lee')).get('/api/facilities')).json();
    expect(seen).toHaveLength(1);
    const olav = (await (await server.as('north.olav')).get('/api/facilities')).json();
    expect(olav).toHaveLength(2);
  });

  it('a forged organizationId or userId in the query does not widen access', async () => {
    const lee = await server.as('south.lee');
    const own = names((await lee.get('/api/facilities')).json());
    expect(
      names((await lee.get(`/api/facilities?organizationId=${server.seed.organizationIds.north}`)).json()),
    ).toEqual([]);
    expect(
      names(
        (
          await lee.get(`/api/facilities?asAdmin=true&organizationId=${server.seed.organizationIds.south}`)
        ).json(),
      ),
    ).toEqual(own);
    expect((await lee.get(`/api/facilities?userId=${server.seed.userIds['north.anna']}`)).statusCode).toBe(
      404,
    );
    const northAdmin = await server.as('north.admin');
    expect(
      (await northAdmin.get(`/api/facilities?userId=${server.seed.userIds['south.maria']}`)).statusCode,
    ).toBe(404);
  });

  it('lets only a SystemAdmin create a ship, with the spec messages for a bad form', async () => {
    const northAdmin = await server.as('north.admin');
    expect(
      (
        await northAdmin.post('/api/facilities', {
          organizationId: server.seed.organizationIds.north,
          name: 'Sneaky',
        })
      ).statusCode,
    ).toBe(403);
    const admin = await server.as('admin');
    const invalid = await admin.post('/api/facilities', { organizationId: '', name: '' });
    expect(invalid.statusCode).toBe(400);
    expect(Object.values(invalid.json().fields)).toEqual(
      expect.arrayContaining(['Please select an organization', 'Ship name is required']),
    );
    const created = await admin.post('/api/facilities', {
      organizationId: server.seed.organizationIds.south,
      name: 'MV Test Ship',
    });
    expect(created.statusCode).toBe(201);
    const southAdminList = (await (await server.as('south.admin')).get('/api/facilities')).json();
    expect(southAdminList.map((f: { id: string }) => f.id)).toContain(created.json().id);
  });

  it('never leaks details of a server error', async () => {
    const response = await server.app.inject({
      url: '/api/facilities',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('restart keeps the data', () => {
  it.skipIf(Boolean(process.env.DATABASE_URL))('on the embedded database directory', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-restart-'));
    const config = loadConfig({ PUBLIC_URL, DATA_DIR: dir, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv, []);
    const first = await createServer(config, { webDist: null });
    await seedPlatform(first.services.database.db, { ships: 2 });
    const token = await import('./harness').then((h) => h.signIn(first.app, 'admin', 'Admin1234'));
    await first.close();
    const second = await createServer(config, { webDist: null });
    const list = await second.app.inject({
      url: '/api/facilities',
      headers: { authorization: `Bearer ${token}` },
    });
    // The same signing keys and the same ships after the restart: the old token is still good.
    expect(list.statusCode).toBe(200);
    expect(list.json()).toHaveLength(2);
    await second.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it.runIf(Boolean(process.env.DATABASE_URL))('on the PostgreSQL server', async () => {
    const config = loadConfig(
      { PUBLIC_URL, DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv,
      [],
    );
    const token = await server.tokenFor('admin');
    const before = (
      await server.app.inject({ url: '/api/facilities', headers: { authorization: `Bearer ${token}` } })
    ).json();
    const second = await createServer(config, { webDist: null });
    const after = await second.app.inject({
      url: '/api/facilities',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.json()).toEqual(before);
    await second.close();
  });
});

describe('sign-in limits', () => {
  it('slows down repeated wrong passwords for one account and address', async () => {
    let limited = false;
    for (let i = 0; i < 12 && !limited; i++) {
      const flow = await signInFlow(server.app, 'north.olav', `wrong-${i}-password`).catch((e: Error) => ({
        loginPage: e.message,
      }));
      limited =
        String(flow.loginPage).includes('RATE_LIMITED') || String(flow.loginPage).includes('Rate limit');
    }
    expect(limited).toBe(true);
    // Another account from the same address is not locked out.
    expect((await signInFlow(server.app, 'north.anna', 'Anna12345')).accessToken).toBeTruthy();
  });
});
