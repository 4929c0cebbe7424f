import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { JOB_NAMES } from '../../jobs/contract';
import { jobQueueOf, type Services } from '../../services';
import { audit, type AuditActor } from '../audit/audit';
import { coverageUnion, uploadedPeriod, type UploadCoverage } from './upload-period';

/** The execution an upload queued or joined (the upload's answer names it). */
export interface UploadExecution {
  id: string;
  /** True when the upload joined an execution that was waiting for the ship; false when it queued a new one. */
  joined: boolean;
}

export interface UploadExecutionInput {
  facilityId: string;
  /** The files the upload imported. */
  dataFileIds: string[];
  /** The user who uploaded; null for the onboard uploader and an API key. */
  requestedBy: string | null;
  /** The uploader, for the audit entry ('execution.request', detail.by 'upload'). */
  actor: AuditActor;
  /** Added to the audit entry's detail (who uploaded: `by: 'uploader'`). */
  detail?: Record<string, unknown>;
}

/** How often a transaction that lost the race for the ship's waiting row looks again (it finds the winner's row). */
const ATTEMPTS = 5;

/**
 * Queues the execution of what an upload imported (docs/decisions/0090-api-keys-and-auto-execution.md): the
 * period of its files' samples, on their ship. While an upload execution of the ship waits in the queue (queued,
 * never started), a later upload joins it: the row is locked (FOR UPDATE) and widened to the union of the periods
 * and files (upload-period.ts), so the ship gets one execution, not several overlapping ones. Once it started, the
 * next upload queues a new one, which later uploads join in turn.
 *
 * Race-safe across API processes: the unique partial index of migration 0017 admits one waiting upload execution
 * per ship. Two uploads that find none both insert; the second waits on the index for the first to commit, inserts
 * nothing (ON CONFLICT DO NOTHING) and looks again, in a new transaction, where it finds the first one's row and
 * joins it. On the embedded database transactions run one after the other, so the lock and the index only confirm.
 * The row, its job and the audit entry commit together. Null when the files have no samples.
 */
export async function queueUploadExecution(
  services: Services,
  input: UploadExecutionInput,
): Promise<UploadExecution | null> {
  const { db } = services.database;
  if (input.dataFileIds.length === 0) return null;
  const files = await db
    .selectFrom('data_files')
    .select(['id', 'time_stamp_min', 'time_stamp_max', 'row_count'])
    .where('facility_id', '=', input.facilityId)
    .where('id', 'in', input.dataFileIds)
    .where('row_count', '>', 0)
    .execute();
  const period = uploadedPeriod(files);
  if (!period) return null;
  return queueCoverageExecution(services, input, { ...period, dataFileIds: files.map((f) => f.id) });
}

async function queueCoverageExecution(
  services: Services,
  input: UploadExecutionInput,
  upload: UploadCoverage,
): Promise<UploadExecution> {
  const { db } = services.database;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const queued = await db.transaction().execute(async (trx) => {
      const waiting = await waitingUploadExecution(trx, input.facilityId);
      if (waiting) {
        const union = coverageUnion(
          {
            from: new Date(waiting.period_from).getTime(),
            to: new Date(waiting.period_to).getTime(),
            dataFileIds: waiting.data_file_ids ?? [],
          },
          upload,
        );
        await trx
          .updateTable('executions')
          .set((eb) => ({
            period_from: new Date(union.from),
            period_to: new Date(union.to),
            data_file_ids: JSON.stringify(union.dataFileIds),
            uploads: eb('uploads', '+', 1),
          }))
          .where('id', '=', waiting.id)
          .execute();
        await auditRequest(trx, input, waiting.id, upload, true);
        return { id: waiting.id, joined: true };
      }
      const inserted = await sql<{ id: string }>`
        INSERT INTO executions (facility_id, kind, origin, uploads, period_from, period_to, data_file_ids, state, requested_by)
        VALUES (${input.facilityId}, 'execute', 'upload', 1, ${new Date(upload.from)}, ${new Date(upload.to)},
                ${JSON.stringify(upload.dataFileIds)}::jsonb, 'queued', ${input.requestedBy})
        ON CONFLICT (facility_id) WHERE origin = 'upload' AND state = 'queued' AND attempts = 0 DO NOTHING
        RETURNING id`.execute(trx);
      const row = inserted.rows[0];
      // Another upload's row won the index meanwhile: look again (next transaction) and join it.
      if (!row) return null;
      const jobId = await jobQueueOf(services).sendInTransaction(trx, JOB_NAMES.execution, {
        executionId: row.id,
      });
      await trx.updateTable('executions').set({ job_id: jobId }).where('id', '=', row.id).execute();
      await auditRequest(trx, input, row.id, upload, false);
      return { id: row.id, joined: false };
    });
    if (queued) return queued;
  }
  throw new Error(`No upload execution could be queued or joined for ship ${input.facilityId}`);
}

/** The ship's upload execution that waits unstarted, locked until the transaction ends. */
function waitingUploadExecution(trx: Kysely<Database>, facilityId: string) {
  return trx
    .selectFrom('executions')
    .select(['id', 'period_from', 'period_to', 'data_file_ids'])
    .where('facility_id', '=', facilityId)
    .where('origin', '=', 'upload')
    .where('state', '=', 'queued')
    .where('attempts', '=', 0)
    .forUpdate()
    .executeTakeFirst();
}

async function auditRequest(
  trx: Transaction<Database>,
  input: UploadExecutionInput,
  executionId: string,
  upload: UploadCoverage,
  joined: boolean,
): Promise<void> {
  await audit(trx, {
    ...input.actor,
    action: 'execution.request',
    subject: executionId,
    detail: {
      facilityId: input.facilityId,
      from: new Date(upload.from).toISOString(),
      to: new Date(upload.to).toISOString(),
      files: upload.dataFileIds.length,
      by: 'upload',
      joined,
      ...input.detail,
    },
  });
}
