import type { FastifyInstance } from 'fastify';
import { authenticatedRoutes } from '../access/authenticated';
import {
  auditLogActionsSchema,
  auditLogPageSchema,
  auditLogQuerySchema,
  type AuditLogEntry,
} from '@portal/contracts/audit';
import { requireSystemAdmin } from '../access/policy';
import { auditLogActions, auditLogPage, entryNames } from './queries';

/** A detail as stored: a driver may hand jsonb over as its text; a string detail is itself (was a 500). */
function detailValue(detail: unknown): unknown {
  if (typeof detail !== 'string') return detail ?? null;
  try {
    return JSON.parse(detail) as unknown;
  } catch {
    return detail;
  }
}

/** The audit log for SystemAdmin: who did what, when; filtered by organization, action and period; paged. */
export async function auditLogRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);

  routes.get(
    '/api/audit-log',
    {
      config: { reads: 'replica' },
      schema: { tags: ['audit'], querystring: auditLogQuerySchema, response: { 200: auditLogPageSchema } },
    },
    async (request) => {
      requireSystemAdmin(request.caller);
      const { page, pageSize } = request.query;
      const { total, rows } = await auditLogPage(request.reads, request.query);
      return {
        items: rows.map((r): AuditLogEntry => ({
          id: String(r.id),
          at: new Date(r.at).toISOString(),
          userId: r.user_id,
          username: r.username ?? null,
          organizationId: r.organization_id,
          organizationName: r.organization_name ?? null,
          action: r.action,
          subject: r.subject,
          subjectName: r.subject_user ?? r.subject_facility ?? r.subject_organization ?? null,
          names: entryNames(r),
          detail: detailValue(r.detail),
        })),
        total: Number(total),
        page,
        pageSize,
      };
    },
  );

  routes.get(
    '/api/audit-log/actions',
    { config: { reads: 'replica' }, schema: { tags: ['audit'], response: { 200: auditLogActionsSchema } } },
    async (request) => {
      requireSystemAdmin(request.caller);
      const rows = await auditLogActions(request.reads);
      return rows.map((r) => r.action);
    },
  );
}
