import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config';
import { openDatabase, type DatabaseHandle } from '../src/storage/database';
import { createServer, type Server } from '../src/server';
import { seedPlatform, DEMO_USERS, type SeedResult } from '../src/seed/platform';
import { sql } from 'kysely';
import type { Queue } from '../src/jobs';
import { startJobs } from '../src/features/jobs';
import { migratedTemplate } from './database-template';

/**
 * A real server for API tests: PGlite in memory by default, or the PostgreSQL server of DATABASE_URL
 * (its public schema is emptied first). Tokens come from the real sign-in flow of the embedded provider.
 */
export interface TestServer extends Server {
  seed: SeedResult;
  tokenFor(username: string): Promise<string>;
  as(
    username: string,
  ): Promise<{ get: Requester; post: Requester; put: Requester; patch: Requester; delete: Requester }>;
}
type Requester = (
  url: string,
  body?: unknown,
) => Promise<{ statusCode: number; json: () => any; body: string; headers: Record<string, unknown> }>;

export const PUBLIC_URL = 'http://localhost:18080';

export async function resetPostgres(url: string): Promise<void> {
  const database = await openDatabase({ databaseUrl: url, dataDir: 'memory://', poolSize: 1 });
  await sql`DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public; DROP SCHEMA IF EXISTS pgboss CASCADE; DROP SCHEMA IF EXISTS portal_archive CASCADE;`.execute(
    database.db,
  );
  await database.close();
}

/**
 * `jobs`: 'send' (default) starts the queue so routes can enqueue, as every production process does; 'work' also
 * runs the workers in this process (fast polling); 'none' starts no queue (the test starts its own).
 */
export async function startTestServer(
  options: {
    seed?: boolean;
    database?: DatabaseHandle;
    jobs?: 'send' | 'work' | 'none';
    /** A web build to serve (apps/web/dist or a test's own); none by default. */
    webDist?: string;
    /** More settings (config.ts names), e.g. the webhooks' WEBHOOK_*. */
    env?: Record<string, string>;
    /** The rate limits' clock (app.ts), ms since 1970: a test moves it to end a window. */
    rateLimitClock?: () => number;
  } = {},
): Promise<TestServer> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl && !options.database) await resetPostgres(databaseUrl);
  const config = loadConfig(
    {
      PUBLIC_URL,
      DATA_DIR: 'memory://',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      LOG_LEVEL: 'silent',
      ...options.env,
    } as NodeJS.ProcessEnv,
    [],
  );
  config.dataDir = 'memory://';
  const server = await createServer(config, {
    webDist: options.webDist ?? null,
    database: options.database,
    rateLimitClock: options.rateLimitClock,
    startFrom: migratedTemplate(),
  });
  const jobs = options.jobs ?? 'send';
  let queue: Queue | undefined;
  if (jobs !== 'none') {
    queue = await startJobs(server.services, {
      work: jobs === 'work',
      tuning: {
        QUEUE_POLLING_SECONDS: 0.5,
        QUEUE_RETRY_DELAY_SECONDS: 1,
        QUEUE_HEARTBEAT_SECONDS: 10,
        QUEUE_SUPERVISE_SECONDS: 2,
      },
    });
  }
  const close = async () => {
    await queue?.stop();
    await server.close();
  };
  const seed =
    options.seed === false
      ? { created: false, organizationIds: {}, facilityIds: {}, userIds: {} }
      : await seedPlatform(server.services.database.db);
  const tokens = new Map<string, string>();
  const tokenFor = async (username: string) => {
    const cached = tokens.get(username);
    if (cached) return cached;
    const user = DEMO_USERS.find((u) => u.username === username);
    const token = await signIn(server.app, username, user?.password ?? 'unknown');
    tokens.set(username, token);
    return token;
  };
  const as = async (username: string) => {
    const token = await tokenFor(username);
    const make =
      (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'): Requester =>
      async (url, body) => {
        const response = await server.app.inject({
          method,
          url,
          headers: { authorization: `Bearer ${token}` },
          ...(body !== undefined ? { payload: body as object } : {}),
        });
        return {
          statusCode: response.statusCode,
          json: () => response.json(),
          body: response.body,
          headers: response.headers,
        };
      };
    return {
      get: make('GET'),
      post: make('POST'),
      put: make('PUT'),
      patch: make('PATCH'),
      delete: make('DELETE'),
    };
  };
  return { ...server, close, seed, tokenFor, as };
}

function cookieJar() {
  const jar = new Map<string, string>();
  return {
    store(setCookie: string | string[] | undefined) {
      for (const c of [setCookie ?? []].flat()) {
        const [pair] = c.split(';');
        const [name, ...rest] = pair!.split('=');
        jar.set(name!.trim(), rest.join('='));
      }
    },
    header: () => [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
  };
}

/** The browser's sign-in, step by step: authorization request with PKCE, our login form, code for tokens. */
export async function signIn(app: FastifyInstance, username: string, password: string): Promise<string> {
  const result = await signInFlow(app, username, password);
  if (!result.accessToken)
    throw new Error(`sign-in of ${username} failed: ${result.loginPage?.slice(0, 300)}`);
  return result.accessToken;
}

export async function signInFlow(
  app: FastifyInstance,
  username: string,
  password: string,
): Promise<{
  accessToken?: string;
  refreshToken?: string;
  idToken?: string;
  loginPage?: string;
  loginStatus?: number;
}> {
  const jar = cookieJar();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const redirectUri = `${PUBLIC_URL}/login`;
  const authorize = await app.inject({
    method: 'GET',
    url: `/oidc/auth?${new URLSearchParams({ client_id: 'portal-web', response_type: 'code', scope: 'openid profile', redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state: 'test-state' })}`,
  });
  jar.store(authorize.headers['set-cookie'] as string[]);
  const interactionUrl = String(authorize.headers.location);
  if (!interactionUrl.startsWith('/interaction/'))
    throw new Error(
      `unexpected authorization answer ${authorize.statusCode} ${authorize.body.slice(0, 300)}`,
    );
  const page = await app.inject({ method: 'GET', url: interactionUrl, headers: { cookie: jar.header() } });
  jar.store(page.headers['set-cookie'] as string[]);
  const login = await app.inject({
    method: 'POST',
    url: `${interactionUrl}/login`,
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password }).toString(),
  });
  jar.store(login.headers['set-cookie'] as string[]);
  if (login.statusCode !== 303) return { loginPage: login.body, loginStatus: login.statusCode };
  let location = String(login.headers.location);
  for (let i = 0; i < 5 && !location.startsWith(redirectUri); i++) {
    const next = await app.inject({
      method: 'GET',
      url: location.replace(/^https?:\/\/[^/]+/, ''),
      headers: { cookie: jar.header() },
    });
    jar.store(next.headers['set-cookie'] as string[]);
    location = String(next.headers.location);
  }
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  const token = await app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: 'portal-web',
      code_verifier: verifier,
    }).toString(),
  });
  const body = token.json() as { access_token?: string; refresh_token?: string; id_token?: string };
  return { accessToken: body.access_token, refreshToken: body.refresh_token, idToken: body.id_token };
}
