import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { authenticatedRoutes } from '../access/authenticated';
import { VERIFIER_OWN } from '../access/verifier';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { LOGIN_FAILED_TEXT, clientErrorReportSchema, userProfileSchema } from '@portal/contracts/auth';
import { dummyPasswordHash, verifyPassword } from './passwords';
import { escapeHtml, pageShell } from './provider';
import { recordClientError, signOut, userForSignIn } from './queries';
import { auditedChange, auditEvent } from '../audit/audit';

/** The per-address limit is this many times the per-account one: an office behind one address signs in several people. */
export const LOGIN_ADDRESS_FACTOR = 3;
export const LOGIN_RATE_LIMITED_TEXT =
  'Rate limit reached: too many sign-in attempts. Wait a minute and try again.';
const accountKey = (body: unknown) =>
  String((body as { username?: unknown } | undefined)?.username ?? '')
    .trim()
    .toLowerCase();

const pagesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pages');
const authCss = readFileSync(path.join(pagesDir, 'auth.css'), 'utf8');
const authJs = readFileSync(path.join(pagesDir, 'auth.js'), 'utf8');

/** The sign-in page; away from the portal's address (PUBLIC_URL) auth.js shows where to open it instead. */
function loginPage(uid: string, username: string, error: string | undefined, portalAddress: string): string {
  return pageShell(
    'Sign in',
    `<p class="error" role="alert" hidden data-portal-address="${escapeHtml(portalAddress)}"></p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login" autocomplete="on">
  <label for="username">Username</label>
  <input id="username" name="username" value="${escapeHtml(username)}" autocomplete="username" required autofocus>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button class="primary" type="submit">Sign in</button>
</form>
<p class="hint">Cookies keep you signed in; you accepted them in the portal.</p>`,
  );
}

/** The provider's sign-in interaction (our own page), the caller's profile, sign-out and browser error reports. */
export async function authRoutes(app: FastifyInstance, opts: { provider?: Provider }) {
  const server = app.withTypeProvider<ZodTypeProvider>();
  const routes = authenticatedRoutes(app);
  const { db } = app;
  const signInPage = (uid: string, username: string, error?: string) =>
    loginPage(uid, username, error, app.config.publicUrl);

  server.get(
    '/auth-pages/auth.css',
    { config: { public: true }, schema: { hide: true } },
    async (_req, reply) => reply.type('text/css').send(authCss),
  );
  server.get(
    '/auth-pages/auth.js',
    { config: { public: true }, schema: { hide: true } },
    async (_req, reply) => reply.type('text/javascript').send(authJs),
  );

  const provider = opts.provider;
  if (provider) {
    server.get(
      '/interaction/:uid',
      { config: { public: true }, schema: { hide: true, params: z.object({ uid: z.string() }) } },
      async (request, reply) => {
        const details = await provider.interactionDetails(request.raw, reply.raw);
        if (details.prompt.name === 'login')
          return reply
            .type('text/html')
            .send(signInPage(details.uid, String(details.params.login_hint ?? '')));
        // Consent is granted by loadExistingGrant for our own client; finish any other prompt as is.
        const redirectTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          {},
          { mergeWithLastSubmission: true },
        );
        return reply.redirect(redirectTo, 303);
      },
    );

    // Two limits: per address (one machine guessing many accounts) and per account (many machines guessing one).
    // The address is the peer's unless TRUST_PROXY names the proxy in front (app.ts), so a forged X-Forwarded-For does not reset it.
    const perAddress = app.createRateLimit({
      max: app.config.LOGIN_ATTEMPTS_PER_MINUTE * LOGIN_ADDRESS_FACTOR,
      timeWindow: '1 minute',
      keyGenerator: (request) => `sign-in address ${request.ip}`,
    });
    const perAccount = app.createRateLimit({
      max: app.config.LOGIN_ATTEMPTS_PER_MINUTE,
      timeWindow: '1 minute',
      keyGenerator: (request) => `sign-in account ${accountKey(request.body)}`,
    });
    server.post(
      '/interaction/:uid/login',
      {
        config: { public: true },
        schema: {
          hide: true,
          params: z.object({ uid: z.string() }),
          body: z.object({ username: z.string().max(200), password: z.string().max(500) }),
        },
        preHandler: async (request, reply) => {
          // createRateLimit counts the attempt; `isExceeded` says whether it is one too many.
          const exceeded = (r: Awaited<ReturnType<typeof perAddress>>) => !r.isAllowed && r.isExceeded;
          const address = await perAddress(request);
          const limited = exceeded(address) ? address : await perAccount(request);
          if (!exceeded(limited) || limited.isAllowed) return;
          await auditEvent(
            db,
            { userId: null, organizationId: null },
            {
              action: 'sign-in.rate-limited',
              subject: accountKey(request.body).slice(0, 100),
              detail: { ip: request.ip },
            },
          );
          return reply
            .code(429)
            .header('retry-after', String(limited.ttlInSeconds))
            .type('text/html')
            .send(
              signInPage(request.params.uid, String(request.body.username ?? ''), LOGIN_RATE_LIMITED_TEXT),
            );
        },
      },
      async (request, reply) => {
        const details = await provider.interactionDetails(request.raw, reply.raw);
        const { username, password } = request.body;
        const user = await userForSignIn(db, username);
        const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), password);
        if (!user || !ok) {
          await auditEvent(
            db,
            { userId: user?.id ?? null, organizationId: user?.organization_id ?? null },
            { action: 'sign-in.failed', subject: username.slice(0, 100) },
          );
          return reply
            .code(200)
            .type('text/html')
            .send(signInPage(details.uid, username, LOGIN_FAILED_TEXT));
        }
        await auditEvent(
          db,
          { userId: user.id, organizationId: user.organization_id },
          { action: 'sign-in', subject: username },
        );
        const redirectTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          { login: { accountId: user.id } },
          { mergeWithLastSubmission: false },
        );
        return reply.redirect(redirectTo, 303);
      },
    );
  }

  routes.get(
    '/api/auth/me',
    { config: VERIFIER_OWN, schema: { tags: ['auth'], response: { 200: userProfileSchema } } },
    async (request) => {
      const { caller } = request;
      return {
        sub: caller.userId,
        username: caller.username,
        organizationId: caller.organizationId,
        organizationName: caller.organizationName,
        organizationPriority: caller.organizationPriority,
        roles: [caller.role],
        ...(caller.verifierYears ? { verifierYears: caller.verifierYears } : {}),
      };
    },
  );

  routes.post(
    '/api/auth/logout',
    { config: VERIFIER_OWN, schema: { tags: ['auth'], response: { 204: z.null() } } },
    async (request, reply) => {
      const { caller } = request;
      // Tokens issued up to this second are refused from now on; sessions, grants and refresh tokens end.
      await auditedChange(db, caller, (trx) => signOut(trx, caller.userId), {
        action: 'sign-out',
        subject: caller.username,
      });
      return reply.code(204).send(null);
    },
  );

  server.post(
    '/api/client-errors',
    {
      config: { public: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], body: clientErrorReportSchema, response: { 204: z.null() } },
    },
    async (request, reply) => {
      request.log.warn({ clientError: request.body }, 'error reported by the browser');
      await recordClientError(db, request.body);
      return reply.code(204).send(null);
    },
  );
}
