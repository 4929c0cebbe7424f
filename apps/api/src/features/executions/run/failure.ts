import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema';
import type { JobContext, JobOutcome } from '../../../jobs/contract';
import { ExecutionError } from '../calculations';

/** Sub-step "record a failure": marks it: permanent errors and the last retry fail the row; earlier retries put it back in the queue. */
export async function recordFailure(
  db: Kysely<Database>,
  executionId: string,
  error: unknown,
  context: JobContext,
): Promise<JobOutcome> {
  const permanent = error instanceof ExecutionError;
  const message = error instanceof Error ? error.message : String(error);
  const last = permanent || context.retryCount >= context.retryLimit;
  await db
    .updateTable('executions')
    .set(
      last
        ? { state: 'failed', finished_on: new Date(), error: message }
        : { state: 'queued', error: `Attempt ${context.retryCount + 1} failed, retrying: ${message}` },
    )
    .where('id', '=', executionId)
    .where('state', '!=', 'done')
    .execute();
  return { status: 'failed', error: message, permanent };
}
