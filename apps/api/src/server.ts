import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Provider from 'oidc-provider';
import { healthSchema } from '@portal/contracts/health';
import { buildApp } from './app';
import type { Config } from './config';
import { openDatabase, type DatabaseHandle, type ReadRoutingLog } from './storage/database';
import { migrateToLatest } from './db/migrate';
import { ensureMeasurementFieldCatalogue } from './features/calculations/fields';
import { seedReports } from './features/reports/seed';
import { ensurePortReference } from './features/ports/reference';
import { loadOrCreateProviderKeys, publicJwks } from './features/auth/keys';
import { createProvider } from './features/auth/provider';
import { createCallerResolver } from './features/auth/verify';
import type { Services } from './services';
import { healthStatusCode, Startup } from './starting';

export const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface Server {
  app: FastifyInstance;
  services: Services;
  provider?: Provider;
  close(): Promise<void>;
}

/** Origins the sign-in may return to: the public address and its localhost / 127.0.0.1 twins, and Vite's dev server. */
export function redirectOrigins(config: Config): string[] {
  const origins = new Set<string>([new URL(config.publicUrl).origin]);
  const url = new URL(config.publicUrl);
  if (url.hostname === 'localhost' || url.hostname === '127.0.0.1') {
    for (const host of ['localhost', '127.0.0.1'])
      origins.add(`${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`);
    origins.add('http://localhost:5173');
  }
  return [...origins];
}

/** Opens the database, applies migrations and builds the HTTP app (API, identity provider, web app). */
export async function createServer(
  config: Config,
  options: {
    database?: DatabaseHandle;
    logger?: FastifyServerOptions['logger'];
    loggerInstance?: FastifyBaseLogger;
    webDist?: string | null;
    /** The start GET /api/health reports (main.ts); without one the server is ready once made (tests). */
    startup?: Startup;
    /** The rate limits' clock (app.ts): tests move it to end a window. */
    rateLimitClock?: () => number;
    /** What a new in-memory database starts from (db/connection.ts `startFrom`): the API tests' template. */
    startFrom?: Blob;
  } = {},
): Promise<Server> {
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      readUrl: config.DATABASE_READ_URL,
      dataDir: config.dataDir,
      ...(options.loggerInstance ? { log: readRoutingLog(options.loggerInstance) } : {}),
      originalsBucket: config.originalsBucket,
      startFrom: options.startFrom,
    }));
  await migrateToLatest(database.db);
  // The measurement field catalogue and the default reports are product data, like the readers: present on every
  // start, so a deployment without the demo has them and an upgrade adds what a release brings.
  await ensureMeasurementFieldCatalogue(database.db);
  await seedReports(database.db);
  // The sea-port reference ships as data too: loaded when its file differs from the one in the database.
  await ensurePortReference(database.db);
  const services: Services = { config, database };

  let provider: Provider | undefined;
  let localJwks;
  if (config.embeddedIssuer) {
    const keys = await loadOrCreateProviderKeys(database.db);
    localJwks = publicJwks(keys);
    provider = createProvider({
      issuer: config.issuer,
      clientId: config.OIDC_CLIENT_ID,
      audience: config.OIDC_AUDIENCE,
      redirectOrigins: redirectOrigins(config),
      keys,
      db: database.db,
      loadClaims: async (accountId) => {
        const user = await database.db
          .selectFrom('users')
          .select(['username', 'role', 'organization_id'])
          .where('id', '=', accountId)
          .executeTakeFirst();
        return user
          ? { username: user.username, role: user.role, organizationId: user.organization_id }
          : undefined;
      },
    });
  }
  const resolveCaller = createCallerResolver(database.db, {
    issuer: config.issuer,
    audience: config.OIDC_AUDIENCE,
    localJwks,
    requireAccessTokenType: config.embeddedIssuer,
  });
  const webDist =
    options.webDist === null ? undefined : (options.webDist ?? config.WEB_DIST ?? DEFAULT_WEB_DIST);
  const app = await buildApp({
    services,
    resolveCaller,
    provider,
    webDist,
    logger: options.logger,
    loggerInstance: options.loggerInstance,
    rateLimitClock: options.rateLimitClock,
  });
  const startup = options.startup ?? readyStartup();
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      config: { public: true },
      schema: {
        tags: ['settings'],
        summary: 'Whether the portal is ready (200), or starting or stopping (503, with what it is doing)',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const health = startup.health();
      return reply.code(healthStatusCode(health)).send(health);
    },
  );
  return {
    app,
    services,
    provider,
    close: async () => {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

function readyStartup(): Startup {
  const startup = new Startup();
  startup.ready();
  return startup;
}

function readRoutingLog(logger: FastifyBaseLogger): ReadRoutingLog {
  return { warn: (message) => logger.warn(message), info: (message) => logger.info(message) };
}
