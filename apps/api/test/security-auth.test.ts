import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createServer, type Server } from '../src/server';
import { seedPlatform } from '../src/seed/platform';
import { loadOrCreateProviderKeys } from '../src/features/auth/keys';
import { LOGIN_ADDRESS_FACTOR, LOGIN_RATE_LIMITED_TEXT } from '../src/features/auth/routes';
import { PUBLIC_URL, startTestServer, type TestServer } from './harness';

/** Sign-in limits, token forgeries, security headers and body limits (issue 9, points 2 and 3; docs/security.md). */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ jobs: 'none' });
});
afterAll(async () => {
  await server?.close();
});

/** Opens a sign-in interaction as the browser does: its URL and the cookies that go with it. */
async function openSignIn(app: Server['app']): Promise<{ url: string; cookie: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = await app.inject({
    url: `/oidc/auth?${new URLSearchParams({ client_id: 'portal-web', response_type: 'code', scope: 'openid profile', redirect_uri: `${PUBLIC_URL}/login`, code_challenge: challenge, code_challenge_method: 'S256', state: 's' })}`,
  });
  const cookies = (headers: Record<string, unknown>) =>
    [headers['set-cookie'] ?? []].flat().map((c) => String(c).split(';')[0]);
  const url = String(authorize.headers.location);
  const first = cookies(authorize.headers).join('; ');
  const page = await app.inject({ url, headers: { cookie: first } });
  return { url, cookie: [...cookies(authorize.headers), ...cookies(page.headers)].join('; ') };
}

async function attempt(
  app: Server['app'],
  signIn: { url: string; cookie: string },
  username: string,
  options: { remoteAddress?: string; forwardedFor?: string; password?: string } = {},
) {
  const response = await app.inject({
    method: 'POST',
    url: `${signIn.url}/login`,
    remoteAddress: options.remoteAddress ?? '127.0.0.1',
    headers: {
      cookie: signIn.cookie,
      'content-type': 'application/x-www-form-urlencoded',
      ...(options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {}),
    },
    payload: new URLSearchParams({ username, password: options.password ?? 'not-the-password1' }).toString(),
  });
  return response;
}

describe('sign-in rate limits', () => {
  const perAccount = () => server.services.config.LOGIN_ATTEMPTS_PER_MINUTE;

  it('limits one account however many addresses guess its password', async () => {
    const signIn = await openSignIn(server.app);
    const statuses: number[] = [];
    for (let i = 0; i < perAccount() + 2; i++)
      statuses.push(
        (await attempt(server.app, signIn, 'north.olav', { remoteAddress: `10.1.0.${i + 1}` })).statusCode,
      );
    expect(statuses.slice(0, perAccount())).toEqual(Array(perAccount()).fill(200));
    expect(statuses.slice(perAccount())).toEqual([429, 429]);
    const limited = await attempt(server.app, signIn, 'North.Olav ', { remoteAddress: '10.1.1.1' });
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toContain(LOGIN_RATE_LIMITED_TEXT);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another account from the same addresses is not affected.
    expect((await attempt(server.app, signIn, 'north.anna', { remoteAddress: '10.1.0.1' })).statusCode).toBe(
      200,
    );
  });

  it('limits one address however many accounts it tries, and a forged X-Forwarded-For does not reset it', async () => {
    const signIn = await openSignIn(server.app);
    const max = perAccount() * LOGIN_ADDRESS_FACTOR;
    const statuses: number[] = [];
    for (let i = 0; i < max + 2; i++) {
      statuses.push(
        (
          await attempt(server.app, signIn, `nobody${i}`, {
            remoteAddress: '10.2.0.1',
            forwardedFor: `192.0.2.${i + 1}`,
          })
        ).statusCode,
      );
    }
    expect(statuses.slice(0, max).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(max)).toEqual([429, 429]);
    // Another address is still served.
    expect((await attempt(server.app, signIn, 'nobody-else', { remoteAddress: '10.2.0.2' })).statusCode).toBe(
      200,
    );
  });

  it('records a rate-limited sign-in in the audit log', async () => {
    const rows = await server.services.database.db
      .selectFrom('audit_log')
      .select(['action', 'subject'])
      .where('action', '=', 'sign-in.rate-limited')
      .execute();
    expect(rows.some((r) => r.subject === 'north.olav')).toBe(true);
  });

  it('takes the address from X-Forwarded-For only behind a configured trusted proxy (TRUST_PROXY)', async () => {
    const config = loadConfig(
      {
        PUBLIC_URL,
        DATA_DIR: 'memory://',
        LOG_LEVEL: 'silent',
        TRUST_PROXY: '10.3.0.1',
      } as NodeJS.ProcessEnv,
      [],
    );
    config.dataDir = 'memory://';
    const proxied = await createServer(config, { webDist: null });
    try {
      await seedPlatform(proxied.services.database.db);
      const signIn = await openSignIn(proxied.app);
      const max = config.LOGIN_ATTEMPTS_PER_MINUTE * LOGIN_ADDRESS_FACTOR;
      // Through the trusted proxy, each client address has its own count.
      for (let i = 0; i < max + 2; i++) {
        expect(
          (
            await attempt(proxied.app, signIn, `nobody${i}`, {
              remoteAddress: '10.3.0.1',
              forwardedFor: `198.51.100.${i + 1}`,
            })
          ).statusCode,
        ).toBe(200);
      }
      // One client behind the proxy is limited by its own address.
      const statuses: number[] = [];
      for (let i = 0; i < max + 1; i++)
        statuses.push(
          (
            await attempt(proxied.app, signIn, `someone${i}`, {
              remoteAddress: '10.3.0.1',
              forwardedFor: '203.0.113.7',
            })
          ).statusCode,
        );
      expect(statuses.at(-1)).toBe(429);
      // A peer that is not the proxy cannot choose its address with the header.
      const direct: number[] = [];
      for (let i = 0; i < max + 1; i++)
        direct.push(
          (
            await attempt(proxied.app, signIn, `direct${i}`, {
              remoteAddress: '10.3.9.9',
              forwardedFor: `198.51.100.${i + 1}`,
            })
          ).statusCode,
        );
      expect(direct.at(-1)).toBe(429);
    } finally {
      await proxied.close();
    }
    // Three times the limit of sign-in attempts, each checking a password by its hash on purpose slowly: over 60 s
    // on a busy 2-core machine (seen beside the browser tests).
  }, 240_000);
});

describe('forged tokens are refused with 401', () => {
  const claimsFor = () => ({ organizationId: server.seed.organizationIds.provider, role: 'SystemAdmin' });
  const call = (token: string) =>
    server.app.inject({ url: '/api/facilities', headers: { authorization: `Bearer ${token}` } });

  it('HS256 signed with the provider’s public key (algorithm confusion)', async () => {
    const keys = await loadOrCreateProviderKeys(server.services.database.db);
    const publicJwk = keys.signing[0] as JWK;
    const publicParts = { kty: publicJwk.kty, n: publicJwk.n, e: publicJwk.e };
    // The secrets an attacker would try: the public key as JSON and as its modulus.
    for (const secret of [JSON.stringify(publicParts), String(publicJwk.n)]) {
      const token = await new SignJWT(claimsFor())
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: publicJwk.kid })
        .setIssuer(`${PUBLIC_URL}/oidc`)
        .setAudience('urn:scrubber-portal:api')
        .setSubject(server.seed.userIds.admin!)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode(secret));
      expect((await call(token)).statusCode).toBe(401);
    }
  });

  it('a token signed with an unknown key (unknown kid), and one naming the real kid but signed with another key', async () => {
    const { generateKeyPair } = await import('jose');
    const { privateKey } = await generateKeyPair('RS256');
    const keys = await loadOrCreateProviderKeys(server.services.database.db);
    for (const kid of ['attacker-key-1', keys.signing[0]!.kid!]) {
      const token = await new SignJWT(claimsFor())
        .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid })
        .setIssuer(`${PUBLIC_URL}/oidc`)
        .setAudience('urn:scrubber-portal:api')
        .setSubject(server.seed.userIds.admin!)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey);
      expect((await call(token)).statusCode).toBe(401);
    }
  });
});

describe('security headers', () => {
  it('sends a strict Content-Security-Policy, nosniff and no HSTS over plain HTTP', async () => {
    const response = await server.app.inject({ url: '/api/version' });
    const csp = String(response.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(csp).not.toContain("'unsafe-eval'");
    // MUI's emotion injects <style> elements at run time: inline styles are allowed, inline scripts are not.
    expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS when the portal is served over TLS', async () => {
    const config = loadConfig(
      {
        PUBLIC_URL: 'https://portal.example',
        DATA_DIR: 'memory://',
        LOG_LEVEL: 'silent',
      } as NodeJS.ProcessEnv,
      [],
    );
    config.dataDir = 'memory://';
    const tls = await createServer(config, { webDist: null });
    try {
      const response = await tls.app.inject({ url: '/api/version' });
      expect(String(response.headers['strict-transport-security'])).toMatch(/max-age=\d{7,}/);
    } finally {
      await tls.close();
    }
  });

  it('the web app’s index.html runs under that policy: no inline script, no inline event handler', () => {
    const indexHtml = fs.readFileSync(
      path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/index.html'),
      'utf8',
    );
    const scripts = [...indexHtml.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(content!.trim()).toBe('');
    }
    expect(indexHtml).not.toMatch(/\son[a-z]+\s*=/i);
  });
});

describe('body limits', () => {
  it('answers 413 to a JSON body over 2 MB, before any handler runs', async () => {
    const token = await server.tokenFor('admin');
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        title: 'big',
        text: 'x'.repeat(3 * 1024 * 1024),
        showFrom: '2025-01-01T00:00:00Z',
        showTo: '2025-01-02T00:00:00Z',
      }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const stored = await server.services.database.db
      .selectFrom('messages')
      .select('id')
      .where('title', '=', 'big')
      .executeTakeFirst();
    expect(stored).toBeUndefined();
  });

  it('answers 413 to a sign-in form over 64 kB', async () => {
    const signIn = await openSignIn(server.app);
    const response = await server.app.inject({
      method: 'POST',
      url: `${signIn.url}/login`,
      headers: { cookie: signIn.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `username=${'a'.repeat(70 * 1024)}&password=x`,
    });
    expect(response.statusCode).toBe(413);
  });
});
