import { createHash, randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/storage/database';
import { rateLimitCounters, sharedRateLimitStore } from '../src/storage/rate-limits';
import { LOGIN_RATE_LIMITED_TEXT } from '../src/features/auth/routes';
import { PUBLIC_URL, resetPostgres, startTestServer, type TestServer } from './harness';

/**
 * Rate limits shared by the API processes on one database (issue 34; decision 0135): two apps on the same database
 * (PGlite in memory, or the PostgreSQL of DATABASE_URL) count against one limit; a window ends by the limits' clock,
 * which the test moves; the 429 answers are as they were with the in-memory store.
 */

const MINUTE = 60_000;
let now = Date.parse('2026-03-02T08:00:00Z');
const clock = () => now;
let database: DatabaseHandle;
let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) await resetPostgres(databaseUrl);
  database = await openDatabase({ databaseUrl, dataDir: 'memory://' });
  first = await startTestServer({ database, jobs: 'none', rateLimitClock: clock });
  second = await startTestServer({ database, jobs: 'none', seed: false, rateLimitClock: clock });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  await database?.close();
});

/** Opens a sign-in interaction as the browser does (on one app: the interaction is a row both apps read). */
async function openSignIn(app: TestServer['app']): Promise<{ url: string; cookie: string }> {
  const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
  const authorize = await app.inject({
    url: `/oidc/auth?${new URLSearchParams({ client_id: 'portal-web', response_type: 'code', scope: 'openid profile', redirect_uri: `${PUBLIC_URL}/login`, code_challenge: challenge, code_challenge_method: 'S256', state: 's' })}`,
  });
  const cookies = (headers: Record<string, unknown>) =>
    [headers['set-cookie'] ?? []].flat().map((c) => String(c).split(';')[0]);
  const url = String(authorize.headers.location);
  const page = await app.inject({ url, headers: { cookie: cookies(authorize.headers).join('; ') } });
  return { url, cookie: [...cookies(authorize.headers), ...cookies(page.headers)].join('; ') };
}

const wrongSignIn = (
  app: TestServer['app'],
  signIn: { url: string; cookie: string },
  username: string,
  remoteAddress: string,
) =>
  app.inject({
    method: 'POST',
    url: `${signIn.url}/login`,
    remoteAddress,
    headers: { cookie: signIn.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password: 'not-the-password1' }).toString(),
  });

const unsubscribeStatus = (app: TestServer['app'], remoteAddress: string) =>
  app.inject({ url: '/api/alerts/unsubscribe?token=not-a-token', remoteAddress });

describe('rate limits shared by the API processes on one database', () => {
  it('the second app answers 429 once the first used the budget of an address, with the same answer as before', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await unsubscribeStatus(first.app, '10.9.0.1')).statusCode);
    expect(statuses.every((s) => s === 400)).toBe(true);
    const limited = await unsubscribeStatus(second.app, '10.9.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Rate limit exceeded, retry in 1 minute',
    });
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.headers['x-ratelimit-limit']).toBe('30');
    // Another address, and the same address on another limited route, have budgets of their own.
    expect((await unsubscribeStatus(second.app, '10.9.0.2')).statusCode).toBe(400);
    const otherRoute = await second.app.inject({
      method: 'POST',
      url: '/api/client-errors',
      remoteAddress: '10.9.0.1',
      payload: {},
    });
    expect(otherRoute.statusCode).toBe(400);
  });

  it('the window ends by the limits’ clock: the address is served again a minute on, in either app', async () => {
    now += 30_000;
    const waiting = await unsubscribeStatus(first.app, '10.9.0.1');
    expect(waiting.statusCode).toBe(429);
    expect(waiting.headers['retry-after']).toBe('30');
    now += 30_000;
    expect((await unsubscribeStatus(first.app, '10.9.0.1')).statusCode).toBe(400);
    expect((await unsubscribeStatus(second.app, '10.9.0.1')).statusCode).toBe(400);
  });

  it('limits sign-in attempts of one account across both apps, with the sign-in page’s text', async () => {
    const perAccount = first.services.config.LOGIN_ATTEMPTS_PER_MINUTE;
    const signIn = await openSignIn(first.app);
    const statuses: number[] = [];
    for (let i = 0; i < perAccount; i++) {
      const app = i % 2 ? second.app : first.app;
      statuses.push((await wrongSignIn(app, signIn, 'north.olav', `10.8.0.${i + 1}`)).statusCode);
    }
    expect(statuses).toEqual(Array(perAccount).fill(200));
    for (const app of [first.app, second.app]) {
      const limited = await wrongSignIn(app, signIn, 'north.olav', '10.8.1.1');
      expect(limited.statusCode).toBe(429);
      expect(limited.body).toContain(LOGIN_RATE_LIMITED_TEXT);
      expect(Number(limited.headers['retry-after'])).toBe(60);
    }
    now += MINUTE;
    expect((await wrongSignIn(second.app, signIn, 'north.olav', '10.8.1.1')).statusCode).toBe(200);
  });

  it('limits guessing of the current password per session across both apps', async () => {
    const token = await first.tokenFor('south.maria');
    const url = `/api/users/${first.seed.userIds['south.maria']}/change-password`;
    const change = (app: TestServer['app'], i: number) =>
      app.inject({
        method: 'PATCH',
        url,
        headers: { authorization: `Bearer ${token}` },
        payload: { currentPassword: `guess${i}xx`, newPassword: 'Another123' },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await change(i < 5 ? first.app : second.app, i)).statusCode);
    expect(statuses).toEqual(Array(10).fill(400));
    const limited = await change(second.app, 10);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('keeps no address, account name or token, and deletes the counters of ended windows on a later write', async () => {
    const keys = await database.db.selectFrom('rate_limit_counters').select(['key']).execute();
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => /^[A-Za-z0-9_-]{43}$/.test(k.key))).toBe(true);
    now += 2 * MINUTE;
    const ended = () =>
      database.db
        .selectFrom('rate_limit_counters')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('expires_at_ms', '<=', now)
        .executeTakeFirstOrThrow();
    expect(Number((await ended()).n)).toBeGreaterThan(0);
    await unsubscribeStatus(first.app, '10.9.0.3');
    expect(Number((await ended()).n)).toBe(0);
  });
});

describe('the shared store itself', () => {
  it('counts concurrent requests of one key once each (the upsert is atomic)', async () => {
    const counters = rateLimitCounters({ db: database.db, clock });
    const counts = await Promise.all(
      Array.from({ length: 40 }, () => counters.count('test', 'concurrent', MINUTE)),
    );
    expect(counts.map((c) => c.current).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect(await counters.peek('test', 'concurrent')).toEqual({ current: 40, ttl: MINUTE });
    now += MINUTE;
    expect(await counters.peek('test', 'concurrent')).toEqual({ current: 0, ttl: 0 });
    expect(await counters.count('test', 'concurrent', MINUTE)).toEqual({ current: 1, ttl: MINUTE });
  });

  it('refuses a route that asks for continueExceeding or exponentialBackoff, which it does not count', async () => {
    for (const option of [{ continueExceeding: true }, { exponentialBackoff: true }]) {
      const app = Fastify();
      await app.register(rateLimit, { global: false, store: sharedRateLimitStore({ db: database.db }) });
      const register = async () => {
        app.get(
          '/limited',
          { config: { rateLimit: { max: 1, timeWindow: MINUTE, ...option } } },
          async () => 'ok',
        );
        await app.ready();
      };
      await expect(register()).rejects.toThrow(/does not support continueExceeding or exponentialBackoff/);
      await app.close().catch(() => undefined);
    }
  });
});
