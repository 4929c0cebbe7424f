import { execFileSync } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { authenticatedRoutes } from '../access/authenticated';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ENVIRONMENT_STAGE_COLOURS } from '@portal/contracts/environment';
import { versionSchema, type PortalSettings } from '@portal/contracts/environment';
import { PACKAGE_VERSION } from '@portal/contracts/version';
import { maintenanceSchema } from '@portal/contracts/settings';
import { requireSystemAdmin } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { latestAuditEntries } from '../audit/queries';
import { readMaintenance, writeMaintenance } from './maintenance';

function buildNumber(configured: string | undefined): string {
  if (configured) return configured;
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return new Date().toISOString().slice(0, 10).replace(/-/g, '');
  }
}

const DEFAULT_DISCLAIMERS: Record<string, string> = {
  Local:
    '<p>This portal runs on a developer machine. The ships and numbers are a <strong>demo fleet</strong>.</p>',
  'Dev site': '<p>Development site: data may be reset at any time.</p>',
  'Test site': '<p>Test site: do not rely on these numbers for compliance.</p>',
  'Demo site': '<p>Demo site: the ships and numbers are generated.</p>',
};

/** Version, the settings script the SPA loads first, and the run-time maintenance switch. */
export async function settingsRoutes(app: FastifyInstance) {
  const server = app.withTypeProvider<ZodTypeProvider>();
  const routes = authenticatedRoutes(app);
  const build = buildNumber(app.config.BUILD_NUMBER);
  const config = app.config;

  server.get(
    '/api/version',
    { config: { public: true }, schema: { tags: ['settings'], response: { 200: versionSchema } } },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return { version: PACKAGE_VERSION, build };
    },
  );

  server.get('/settings.js', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => {
    const stage = config.ENVIRONMENT_STAGE;
    const settings: PortalSettings = {
      apiBaseUrl: '/api/',
      oidc: { authority: config.issuer, clientId: config.OIDC_CLIENT_ID, scope: 'openid profile' },
      environment: {
        name: stage,
        color: ENVIRONMENT_STAGE_COLOURS[stage],
        html: config.ENVIRONMENT_DISCLAIMER ?? DEFAULT_DISCLAIMERS[stage] ?? '',
      },
      maintenance: (await readMaintenance(app.db)).maintenance,
      supportPhone: config.SUPPORT_PHONE,
      companyText: config.COMPANY_TEXT,
      traceSampleRate: config.TRACE_SAMPLE_RATE,
      publicUrl: config.publicUrl,
      version: { version: PACKAGE_VERSION, build },
    };
    // JSON is valid JavaScript; escaping "<" keeps a "</script>" in a disclaimer harmless.
    const json = JSON.stringify(settings).replace(/</g, '\\u003c');
    return reply
      .header('cache-control', 'no-store')
      .type('text/javascript; charset=utf-8')
      .send(`window.settings = ${json};\n`);
  });

  routes.get(
    '/api/settings/maintenance',
    { schema: { tags: ['settings'], response: { 200: maintenanceSchema } } },
    async () => readMaintenance(app.db),
  );

  routes.put(
    '/api/settings/maintenance',
    { schema: { tags: ['settings'], body: maintenanceSchema, response: { 200: maintenanceSchema } } },
    async (request) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      await auditedChange(app.db, caller, (trx) => writeMaintenance(trx, request.body), {
        action: 'maintenance.set',
        detail: request.body,
      });
      return readMaintenance(app.db);
    },
  );

  routes.get(
    '/api/settings/audit-log',
    {
      schema: {
        tags: ['settings'],
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(200) }),
      },
    },
    async (request) => {
      requireSystemAdmin(request.caller);
      return latestAuditEntries(app.db, request.query.limit);
    },
  );
}
