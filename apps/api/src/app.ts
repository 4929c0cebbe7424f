import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import helmet from '@fastify/helmet';
import middie from '@fastify/middie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type Provider from 'oidc-provider';
import { ZodError, z } from 'zod';
import { apiErrorSchema } from '@portal/contracts/errors';
import { openApiOptions } from './openapi';
import { findForbiddenText } from '@portal/contracts/forms';
import { type ApiKeyScope } from '@portal/contracts/api-keys';
import { AppError, badRequest, forbidden } from './errors';
import type { Services } from './services';
import type { CallerResolver } from './features/auth/verify';
import { checkVerifierRequest, type VerifierAccess } from './features/access/verifier';
import { featureRoutes } from './features';
import { authRoutes } from './features/auth/routes';
import { sharedRateLimitStore } from './storage';

export interface AppOptions {
  services: Services;
  resolveCaller: CallerResolver;
  provider?: Provider;
  /** Folder of the built web app to serve (apps/web/dist); none in API tests. */
  webDist?: string;
  logger?: FastifyServerOptions['logger'];
  /** A logger made beforehand (main.ts, logger.ts), used instead of `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** The rate limits' clock (storage/rate-limits.ts), ms since 1970: tests move it to end a window. Date.now by default. */
  rateLimitClock?: () => number;
}

/** One route as registered: what the isolation matrix (test/isolation.test.ts) walks, so a new route is covered by itself. */
export interface RouteEntry {
  method: string;
  url: string;
  constraints?: Record<string, unknown>;
  public: boolean;
  /** The API key scopes the route accepts (none: closed to keys). */
  apiKeyScopes: readonly ApiKeyScope[];
  /** What a Verifier may do on the route (none: closed to verifiers; features/access/verifier.ts). */
  verifier?: VerifierAccess;
  schema?: { params?: unknown; querystring?: unknown; body?: unknown };
}
const routeTables = new WeakMap<FastifyInstance, RouteEntry[]>();

/** Every route of the app, in registration order (HEAD twins of GET routes left out). */
export function routeTable(app: FastifyInstance): readonly RouteEntry[] {
  return routeTables.get(app) ?? [];
}

/**
 * TRUST_PROXY: unset or 'false' trusts no proxy, so X-Forwarded-For is ignored and request.ip is the peer's address
 * (rate limits cannot be dodged by forging it); 'true' trusts any proxy, otherwise a comma-separated list of
 * proxy addresses or CIDR ranges.
 */
export function trustProxySetting(value: string | undefined): boolean | string[] {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The build's assets/ folder holds only files named by their content's hash (Vite's `[name]-[hash]`): kept a
 * year, never revalidated. Everything else, index.html first, is revalidated on every use, so a new build is
 * seen at the next load and the old chunk names it refers to are never asked for.
 */
export const IMMUTABLE_ASSET = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';
export function staticCacheControl(pathInDist: string): string {
  return /^assets[\\/]/.test(pathInDist) ? IMMUTABLE_ASSET : REVALIDATE;
}

/** The settings script as the build's index.html loads it (apps/web/index.html). */
const SETTINGS_TAG = '<script src="/settings.js"></script>';
const readIndexHtml = (webDist: string) => {
  try {
    return fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * API answers hold one caller's data: never stored by a proxy or the browser, unless a route says otherwise
 * (report data: `private, no-cache` with its ETag).
 */
const API_CACHE_CONTROL = 'no-store';

/** Methods that change nothing (RFC 9110 section 9.2.1, "safe methods"). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * One log entry per request, when it is answered ("GET /api/version 200 3 ms", with the request's and the reply's
 * fields), instead of Fastify's two. At debug level: GET /api/health, asked every few seconds by load balancers, and
 * the requests the app makes of itself (index.html's inline settings.js, `app.inject`).
 */
class OneEntryPerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const ms = Math.round(reply.elapsedTime);
    const entry = { req: request, res: reply, responseTime: ms, ...(error ? { err: error } : {}) };
    const message = `${request.method} ${request.url} ${reply.statusCode} ${ms} ms`;
    if (error) reply.log.error(entry, message);
    else if (request.url.split('?')[0] === '/api/health' || '_lightMyRequest' in request.raw)
      reply.log.debug(entry, message);
    else reply.log.info(entry, message);
  }
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { services } = options;
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? false }),
    logController: new OneEntryPerRequest(),
    genReqId: (req) =>
      typeof req.headers['x-request-id'] === 'string' && /^[\w-]{1,64}$/.test(req.headers['x-request-id'])
        ? req.headers['x-request-id']
        : randomUUID(),
    bodyLimit: 2 * 1024 * 1024,
    trustProxy: trustProxySetting(services.config.TRUST_PROXY),
  });
  const routes: RouteEntry[] = [];
  routeTables.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const config = route.config as
        { public?: boolean; apiKeyScopes?: readonly ApiKeyScope[]; verifier?: VerifierAccess } | undefined;
      routes.push({
        method,
        url: route.url,
        constraints: route.constraints,
        public: Boolean(config?.public),
        apiKeyScopes: config?.apiKeyScopes ?? [],
        verifier: config?.verifier,
        schema: route.schema as RouteEntry['schema'],
      });
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', services.database.db);
  app.decorate('config', services.config);
  app.decorate('services', services);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // Read-your-writes (storage/read-routing.ts): after a caller's request that may have changed something, and
    // before its answer, the primary's WAL location is noted for it in every process.
    if (
      request.caller &&
      services.database.reads.replica &&
      !SAFE_METHODS.has(request.method) &&
      request.routeOptions.config?.reads !== 'replica'
    )
      await services.database.reads.wrote(request.caller.userId).catch((error: unknown) => {
        request.log.warn({ err: error }, 'the read-your-writes location was not noted');
      });
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control'))
      reply.header('cache-control', API_CACHE_CONTROL);
  });

  // Layer 1: external plugins.
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: [
          "'self'",
          ...(services.config.embeddedIssuer ? [] : [new URL(services.config.issuer).origin]),
        ],
        upgradeInsecureRequests: null,
      },
    },
    hsts: services.config.publicUrl.startsWith('https:'),
    crossOriginEmbedderPolicy: false,
  });
  // The counters in the database, shared by every API process on it (storage/rate-limits.ts, decision 0135).
  await app.register(rateLimit, {
    global: false,
    store: sharedRateLimitStore({ db: services.database.db, clock: options.rateLimitClock }),
  });
  await app.register(multipart, {
    limits: { fileSize: services.config.UPLOAD_MAX_BYTES, files: 1, fields: 10 },
  });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  await app.register(
    swagger,
    openApiOptions(services.config.publicUrl, z.toJSONSchema(apiErrorSchema, { target: 'openapi-3.0' })),
  );
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });

  // Layer 2: the application: errors, authentication.
  /** The signed-in caller of every /api route that is not `config.public` (401 without a valid token). */
  const authenticate = async (request: FastifyRequest) => {
    if (request.routeOptions.config?.public) return;
    if (!request.url.startsWith('/api/')) return;
    if (request.url.startsWith('/api/docs')) return;
    const apiKeyHeader = request.headers['x-api-key'];
    const caller = await options.resolveCaller(
      request.headers.authorization,
      Array.isArray(apiKeyHeader) ? apiKeyHeader.join(',') : apiKeyHeader,
    );
    // An API key reaches only the routes that accept one of its scopes (none by default): 403 before any handler.
    if (caller.apiKey) {
      const accepted = request.routeOptions.config?.apiKeyScopes ?? [];
      if (!accepted.some((scope) => caller.apiKey!.scopes.includes(scope)))
        throw forbidden(
          accepted.length
            ? `This API key may not do this: it needs the scope ${accepted.join(' or ')}`
            : 'An API key may not do this: sign in as a user',
        );
    }
    // A Verifier reaches only the routes that open to it, reads within its years (403 before any handler).
    checkVerifierRequest(caller, {
      method: request.method,
      query: request.query,
      access: request.routeOptions.config?.verifier,
      querystring: request.routeOptions.schema?.querystring,
    });
    request.caller = caller;
    // A dashboard or list read goes where the storage layer says for this caller (read-routing.ts).
    request.reads =
      request.routeOptions.config?.reads === 'replica'
        ? await services.database.reads.readsOf(caller.userId)
        : services.database.db;
  };
  // The text rule's backstop (docs/decisions/0062-text-input.md): after the route's schemas have given their field
  // messages, no NUL or lone surrogate left anywhere in the path, query or body (ids, keys) reaches the database.
  const checkText = (request: FastifyRequest) => {
    for (const [part, value] of [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const found = findForbiddenText(value);
      if (found) {
        const key = found.path || part;
        throw badRequest(`${key}: ${found.message}`, { [key]: found.message });
      }
    }
  };
  const validationFailed = (
    request: FastifyRequest,
    reply: FastifyReply,
    issues: { key: string; message?: string }[],
  ) => {
    const fields: Record<string, string> = {};
    for (const { key, message } of issues) if (!fields[key]) fields[key] = message ?? 'Invalid value';
    const first = Object.entries(fields)[0];
    return reply.code(400).send({
      code: 'VALIDATION_FAILED',
      message: first ? `${first[0] ? `${first[0]}: ` : ''}${first[1]}` : 'The request is not valid',
      fields,
      requestId: request.id,
    });
  };
  const answerError = async (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => ({
        key:
          issue.instancePath.replace(/^\//, '').replace(/\//g, '.') ||
          String((issue.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') ?? ''),
        message: issue.message,
      }));
      return validationFailed(request, reply, issues);
    }
    if (error instanceof ZodError) {
      // A schema applied by hand in a handler: the same 400 as the route's own schemas.
      const issue = error.issues[0];
      const key = issue?.path.join('.') ?? '';
      const message = issue?.message ?? 'The request is not valid';
      return reply.code(400).send({
        code: 'VALIDATION_FAILED',
        message: key ? `${key}: ${message}` : message,
        fields: { [key]: message },
        requestId: request.id,
      });
    }
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      return reply.code(error.status).send({
        code: error.code,
        // UNAVAILABLE (503) is written for the caller: what is down and what to do (storage/originals-s3.ts).
        message: error.status >= 500 && error.code !== 'UNAVAILABLE' ? 'Something went wrong' : error.message,
        fields: error.fields,
        requestId: request.id,
      });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status < 500) {
      const code =
        status === 413
          ? 'PAYLOAD_TOO_LARGE'
          : status === 429
            ? 'RATE_LIMITED'
            : status === 404
              ? 'NOT_FOUND'
              : status === 401
                ? 'UNAUTHORIZED'
                : 'BAD_REQUEST';
      return reply.code(status).send({ code, message: (error as Error).message, requestId: request.id });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ code: 'INTERNAL', message: 'Something went wrong', requestId: request.id });
  };
  app.setErrorHandler(answerError);
  const indexHtml = options.webDist ? readIndexHtml(options.webDist) : undefined;
  /**
   * index.html with the settings script inline (under a CSP hash): a load needs no round trip of its own for
   * /settings.js, 600 ms over a satellite link. The same script /settings.js answers; without the tag (another
   * build) the file is sent as it is.
   */
  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    const settings = indexHtml?.includes(SETTINGS_TAG)
      ? await app.inject({ url: '/settings.js' }).catch(() => undefined)
      : undefined;
    const csp = String(reply.getHeader('content-security-policy') ?? '');
    if (!indexHtml || !settings || settings.statusCode !== 200 || !/script-src /.test(csp))
      return reply.type('text/html').sendFile('index.html');
    const script = settings.body;
    const html = indexHtml.replace(SETTINGS_TAG, () => `<script>${script}</script>`);
    const hash = createHash('sha256').update(script).digest('base64');
    const etag = `"${createHash('sha1').update(html).digest('base64url')}"`;
    reply
      .header('content-security-policy', csp.replace(/script-src ([^;]*)/, `script-src $1 'sha256-${hash}'`))
      .header('cache-control', REVALIDATE)
      .header('etag', etag)
      .type('text/html; charset=utf-8');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(html);
  };
  app.setNotFoundHandler((request, reply) => {
    // Without a web build (API tests, `npm run dev`'s API) there is no page to answer with: a 404, never a 500.
    if (request.url.startsWith('/api/') || !indexHtml)
      return reply.code(404).send({ code: 'NOT_FOUND', message: 'Not found', requestId: request.id });
    // Routes of the single-page app: the browser router decides.
    return sendIndex(request, reply);
  });

  // Before the schemas: a caller without a valid token, or a key beyond its scopes, is refused whatever it sent.
  app.addHook('preValidation', authenticate);
  app.addHook('preHandler', async (request) => checkText(request));

  // Layer 3: routes.
  if (options.provider) {
    await app.register(middie);
    const callback = options.provider.callback();
    app.use('/oidc', callback);
  }
  await app.register(authRoutes, { provider: options.provider });
  for (const routes of featureRoutes) await app.register(routes);

  const webDist = options.webDist;
  if (webDist && fs.existsSync(path.join(webDist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside every text asset (apps/web/vite.config.ts): sent by Accept-Encoding.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) =>
        reply.header('cache-control', staticCacheControl(path.relative(webDist, filePath))),
    });
  }
  return app;
}
