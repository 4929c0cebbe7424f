import type { FastifyInstance } from 'fastify';
import { authenticatedRoutes } from '../access/authenticated';
import {
  auditLogActionsSchema,
  auditLogPageSchema,
  auditLogQuerySchema,
  type AuditLogEntry,
} from '@portal/contracts/audit';
import { requireSystemAdmin } from '../access/policy';

/** The audit log for SystemAdmin: who did what, when; filtered by organization, action and period; paged. */
export async function auditLogRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  routes.get(
    '/api/audit-log',
    { schema: { tags: ['audit'], querystring: auditLogQuerySchema, response: { 200: auditLogPageSchema } } },
    async (request) => {
      requireSystemAdmin(request.caller);
      const { organizationId, action, from, to, page, pageSize } = request.query;
      let filtered = db.selectFrom('audit_log as a');
      if (organizationId) filtered = filtered.where('a.organization_id', '=', organizationId);
      if (action) filtered = filtered.where('a.action', '=', action);
      if (from) filtered = filtered.where('a.at', '>=', new Date(from));
      if (to) filtered = filtered.where('a.at', '<=', new Date(to));
      const { total } = await filtered
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .executeTakeFirstOrThrow();
      const rows = await filtered
        .leftJoin('users as u', 'u.id', 'a.user_id')
        .leftJoin('organizations as o', 'o.id', 'a.organization_id')
        .select([
          'a.id',
          'a.at',
          'a.user_id',
          'u.username',
          'a.organization_id',
          'o.name as organization_name',
          'a.action',
          'a.subject',
          'a.detail',
        ])
        .orderBy('a.at', 'desc')
        .orderBy('a.id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute();
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
          detail: typeof r.detail === 'string' ? JSON.parse(r.detail) : (r.detail ?? null),
        })),
        total: Number(total),
        page,
        pageSize,
      };
    },
  );

  routes.get(
    '/api/audit-log/actions',
    { schema: { tags: ['audit'], response: { 200: auditLogActionsSchema } } },
    async (request) => {
      requireSystemAdmin(request.caller);
      const rows = await db.selectFrom('audit_log').select('action').distinct().orderBy('action').execute();
      return rows.map((r) => r.action);
    },
  );
}
