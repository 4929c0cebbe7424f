import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { inTransaction } from '../../db/transaction';

/**
 * Who did it: a signed-in caller, an organization's API key, or nobody (the onboard uploader, a failed sign-in of an
 * unknown name). A key's entries name no user: the key is in the entry's detail (`apiKey`: its id and name).
 */
export interface AuditActor {
  userId: string | null;
  organizationId: string | null;
  /** Set when an API key acts (features/api-keys): a Caller of a key has it. */
  apiKey?: { id: string; name: string };
}

/** What was done, to what. */
export interface AuditAction {
  action: string;
  subject?: string | null;
  detail?: unknown;
}

export type AuditEntry = AuditActor & AuditAction;

/**
 * Writes an audit entry inside the transaction of its change (docs/decisions/0063-audited-changes.md). It takes a
 * `Transaction`, never the database: an entry written beside its change could outlive a change that failed, or a
 * change could stay without its entry. Routes use `auditedChange`; `auditEvent` is for what changes nothing.
 */
export async function audit(trx: Transaction<Database>, entry: AuditEntry): Promise<void> {
  const detail = entry.apiKey
    ? {
        ...(entry.detail && typeof entry.detail === 'object' ? entry.detail : { value: entry.detail }),
        apiKey: { id: entry.apiKey.id, name: entry.apiKey.name },
      }
    : entry.detail;
  await trx
    .insertInto('audit_log')
    .values({
      user_id: entry.apiKey ? null : entry.userId,
      organization_id: entry.organizationId,
      action: entry.action,
      subject: entry.subject ?? null,
      detail: detail === undefined ? null : JSON.stringify(detail),
    })
    .execute();
}

/**
 * Records who did what (sign-ins, approvals, transfers, access changes, deletions); SystemAdmin reads it.
 *
 * A change and its audit entry, committed together: when either fails (a statement refused, the audit insert
 * refused, a server stopped in between) neither stays, so a client that retries makes no duplicate.
 * `change` gets the transaction (helpers it calls that open their own transaction join this one) and returns the
 * change's result, which `auditedChange` returns; `entry` may be computed from that result (a created row's id).
 * Inside `change` only `trx` is used: the database itself is outside the transaction (and on the embedded
 * database, with its one connection, waits for it). Work outside the database (files removed, caches
 * invalidated) belongs after `auditedChange` returns.
 */
export async function auditedChange<T>(
  db: Kysely<Database>,
  actor: AuditActor,
  change: (trx: Transaction<Database>) => Promise<T>,
  entry: AuditAction | ((result: T) => AuditAction),
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await auditedChangeOnce(db, actor, change, entry);
    } catch (error) {
      // PostgreSQL ends one of two transactions that wait for each other (40P01), e.g. a change beside the
      // storage-months job's partition DDL (docs/decisions/0125): rolled back whole, so it runs again as it was.
      if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt === DEADLOCK_ATTEMPTS)
        throw error;
    }
  }
}

/** PostgreSQL's SQLSTATE for a transaction ended to break a deadlock. */
const DEADLOCK_DETECTED = '40P01';
/** How often an audited change is tried when PostgreSQL ends it to break a deadlock. */
const DEADLOCK_ATTEMPTS = 3;

async function auditedChangeOnce<T>(
  db: Kysely<Database>,
  actor: AuditActor,
  change: (trx: Transaction<Database>) => Promise<T>,
  entry: AuditAction | ((result: T) => AuditAction),
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const result = await change(inTransaction(trx));
    const action = typeof entry === 'function' ? entry(result) : entry;
    await audit(trx, {
      userId: actor.userId,
      organizationId: actor.organizationId,
      apiKey: actor.apiKey,
      ...action,
    });
    return result;
  });
}

/**
 * An audited event that changes nothing by itself (a sign-in, a refused sign-in, an export): its entry is written
 * before the answer, so a failing audit insert refuses the event rather than letting it pass unrecorded.
 */
export async function auditEvent(db: Kysely<Database>, actor: AuditActor, entry: AuditAction): Promise<void> {
  await db.transaction().execute((trx) =>
    audit(trx, {
      userId: actor.userId,
      organizationId: actor.organizationId,
      apiKey: actor.apiKey,
      ...entry,
    }),
  );
}
