import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

export interface AuditEntry {
  userId: string | null;
  organizationId: string | null;
  action: string;
  subject?: string | null;
  detail?: unknown;
}

/** Records who did what (sign-ins, approvals, transfers, access changes, deletions); SystemAdmin reads it. */
export async function audit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      user_id: entry.userId,
      organization_id: entry.organizationId,
      action: entry.action,
      subject: entry.subject ?? null,
      detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
    })
    .execute();
}

/**
 * A change and its audit entry by the caller, committed together: a server stopped in between leaves neither
 * (faults.test.ts kills it there).
 */
export async function auditedChange(
  db: Kysely<Database>,
  caller: { userId: string; organizationId: string },
  entry: Omit<AuditEntry, 'userId' | 'organizationId'>,
  change: (trx: Kysely<Database>) => Promise<unknown>,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await change(trx);
    await audit(trx, { userId: caller.userId, organizationId: caller.organizationId, ...entry });
  });
}
