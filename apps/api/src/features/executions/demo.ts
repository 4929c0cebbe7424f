import type { Services } from '../../services';
import { enqueueExecution } from './derived';

export interface DemoExecutionProgress {
  done: number;
  total: number;
  failed: number;
}

export interface DemoExecutionResult {
  executionIds: string[];
  done: number;
  failed: { facilityId: string; error: string | null }[];
  seconds: number;
}

/**
 * Runs the execution of every demo ship over [from, to] through the queue and the real job (the first start calls
 * it after importing the demo files), and waits until all are done or failed. Needs the workers of this or another
 * process running.
 */
export async function executeDemoFleet(
  services: Services,
  options: {
    facilityIds: string[];
    from: Date;
    to: Date;
    onProgress?: (progress: DemoExecutionProgress) => void;
    pollMs?: number;
    timeoutMs?: number;
    /** Stops waiting (the executions go on in the queue, and are run again by the next start's worker if cut). */
    signal?: AbortSignal;
  },
): Promise<DemoExecutionResult> {
  const started = Date.now();
  const { db } = services.database;
  const executionIds: string[] = [];
  for (const facilityId of options.facilityIds)
    executionIds.push(await enqueueExecution(services, { facilityId, from: options.from, to: options.to }));
  const total = executionIds.length;
  const deadline = started + (options.timeoutMs ?? 30 * 60_000);
  let lastReported = -1;
  for (;;) {
    options.signal?.throwIfAborted();
    const rows = executionIds.length
      ? await db
          .selectFrom('executions')
          .select(['id', 'facility_id', 'state', 'error'])
          .where('id', 'in', executionIds)
          .execute()
      : [];
    const finished = rows.filter((r) => r.state === 'done' || r.state === 'failed');
    const failed = rows.filter((r) => r.state === 'failed');
    if (finished.length !== lastReported) {
      options.onProgress?.({ done: finished.length, total, failed: failed.length });
      lastReported = finished.length;
    }
    if (finished.length === total) {
      return {
        executionIds,
        done: total - failed.length,
        failed: failed.map((r) => ({ facilityId: r.facility_id, error: r.error })),
        seconds: (Date.now() - started) / 1000,
      };
    }
    if (Date.now() > deadline)
      throw new Error(`The demo executions did not finish in time (${finished.length} of ${total} finished)`);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
  }
}
