import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { databaseAdapterFactory } from './oidc-adapter';
import type { ProviderKeys } from './keys';

export const WEB_CLIENT_SCOPE = 'openid profile';
export const API_SCOPE = 'api';

/** Token and session lifetimes (docs/decisions/0003-identity.md). */
export const LIFETIMES = {
  accessTokenSeconds: 30 * 60,
  idTokenSeconds: 30 * 60,
  /** A refresh token unused this long expires: the idle limit. */
  idleSeconds: 2 * 60 * 60,
  /** No renewal extends a sign-in beyond this: the absolute limit. */
  absoluteSeconds: 12 * 60 * 60,
  interactionSeconds: 30 * 60,
} as const;

export interface ProviderOptions {
  issuer: string;
  clientId: string;
  audience: string;
  redirectOrigins: string[];
  keys: ProviderKeys;
  db: Kysely<Database>;
  loadClaims(
    accountId: string,
  ): Promise<{ organizationId: string; role: string; username: string } | undefined>;
}

export function createProvider(options: ProviderOptions): Provider {
  const { db, audience } = options;
  const redirectUris = options.redirectOrigins.map((o) => `${o}/login`);
  const postLogoutUris = options.redirectOrigins.map((o) => `${o}/login`);

  const configuration: Configuration = {
    adapter: databaseAdapterFactory(db),
    clients: [
      {
        client_id: options.clientId,
        client_name: 'Scrubber fleet monitoring portal',
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: redirectUris,
        post_logout_redirect_uris: postLogoutUris,
      },
    ],
    jwks: { keys: options.keys.signing as never },
    cookies: { keys: options.keys.cookieKeys },
    pkce: { required: () => true },
    claims: { openid: ['sub'], profile: ['preferred_username', 'organizationId', 'role'] },
    async findAccount(_ctx, sub) {
      const claims = await options.loadClaims(sub);
      if (!claims) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          preferred_username: claims.username,
          organizationId: claims.organizationId,
          role: claims.role,
        }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.body = logoutPage(form);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.body = pageShell(
            'Signed out',
            '<p>You are signed out.</p><p><a href="/">Sign in again</a></p>',
          );
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => {
          if (resourceIndicator !== audience) throw new errors.InvalidTarget();
          return {
            scope: API_SCOPE,
            audience,
            accessTokenTTL: LIFETIMES.accessTokenSeconds,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    async extraTokenClaims(_ctx, token) {
      const accountId = 'accountId' in token ? token.accountId : undefined;
      if (!accountId) return undefined;
      const claims = await options.loadClaims(accountId);
      return claims ? { organizationId: claims.organizationId, role: claims.role } : undefined;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // First-party client: grant the portal's scopes without a consent screen.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const clientId = ctx.oidc.client!.clientId;
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(clientId);
      if (grantId) {
        const grant = await ctx.oidc.provider.Grant.find(grantId);
        if (grant) return grant;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId, accountId: ctx.oidc.session!.accountId });
      grant.addOIDCScope(WEB_CLIENT_SCOPE);
      grant.addOIDCClaims(['preferred_username', 'organizationId', 'role']);
      grant.addResourceScope(audience, API_SCOPE);
      await grant.save();
      ctx.oidc.session!.grantIdFor(clientId, grant.jti);
      return grant;
    },
    ttl: {
      AccessToken: LIFETIMES.accessTokenSeconds,
      IdToken: LIFETIMES.idTokenSeconds,
      AuthorizationCode: 60,
      Interaction: LIFETIMES.interactionSeconds,
      Session: LIFETIMES.absoluteSeconds,
      Grant: LIFETIMES.absoluteSeconds,
      RefreshToken: (_ctx, token) => {
        const initiallyIssued =
          (token as unknown as { iiat?: number; iat?: number }).iiat ?? Math.floor(Date.now() / 1000);
        const absoluteRemaining = initiallyIssued + LIFETIMES.absoluteSeconds - Math.floor(Date.now() / 1000);
        return Math.max(1, Math.min(LIFETIMES.idleSeconds, absoluteRemaining));
      },
    },
    clientBasedCORS: (_ctx, origin) => options.redirectOrigins.includes(origin),
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = pageShell(
        'Sign-in problem',
        `<p class="error">${escapeHtml(String(out.error_description ?? out.error))}</p><p><a href="/">Back to the portal</a></p>`,
      );
    },
  };

  const provider = new Provider(options.issuer, configuration);
  provider.proxy = true;
  return provider;
}

export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** The look of the provider's own pages: the portal's colours, no script but our static one. */
export function pageShell(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Scrubber fleet monitoring</title>
<link rel="stylesheet" href="/auth-pages/auth.css"></head>
<body><main class="card"><div class="brand">Scrubber fleet monitoring</div><h1>${escapeHtml(title)}</h1>${body}</main>
<script src="/auth-pages/auth.js" defer></script></body></html>`;
}

function logoutPage(form: string): string {
  return pageShell(
    'Signing out',
    `${form}<p>You are being signed out.</p><button type="submit" form="op.logoutForm" value="yes" name="logout" class="primary" data-autosubmit>Sign out</button>`,
  );
}
