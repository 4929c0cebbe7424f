import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { auditLogQuerySchema } from '@portal/contracts/audit';
import type { Database } from '../../db/schema';

/** One page of the audit log, newest first, filtered by organization, action and period; with the filtered total. */
export async function auditLogPage(db: Kysely<Database>, query: z.output<typeof auditLogQuerySchema>) {
  const { organizationId, action, from, to, page, pageSize } = query;
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
  return { total, rows };
}

/** The actions the audit log holds, for its filter. */
export function auditLogActions(db: Kysely<Database>) {
  return db.selectFrom('audit_log').select('action').distinct().orderBy('action').execute();
}

/** The latest audit log entries as stored. */
export function latestAuditEntries(db: Kysely<Database>, limit: number) {
  return db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(limit).execute();
}
