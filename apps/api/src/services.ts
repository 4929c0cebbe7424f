import type { Kysely } from 'kysely';
import type { DatabaseHandle } from './storage/database';
import type { Database } from './db/schema';
import type { Config } from './config';

/**
 * What the routes and jobs share: one instance per process, made at start (main.ts) or by a test.
 */
export interface Services {
  config: Config;
  database: DatabaseHandle;
  /**
   * The job queue (jobs/queue.ts), set when the queue starts: main.ts starts it in every process, with or without
   * workers (every process sends jobs; `--services=worker` runs them). Absent in a test or bench that starts none.
   */
  queue?: JobQueue;
}

/** Sending jobs, as the routes and the engine's callers see the queue (jobs/queue.ts implements it). */
export interface JobQueue {
  send(
    name: string,
    data: object,
    options?: { singletonKey?: string; retryLimit?: number; startAfterSeconds?: number },
  ): Promise<string | null>;
  /** Sends a job inside one of our transactions: the job exists exactly when the transaction commits. */
  sendInTransaction(
    trx: Kysely<Database>,
    name: string,
    data: object,
    options?: { startAfter?: Date },
  ): Promise<string>;
  /**
   * The jobs of these names (all when none given) still to be run: waiting and due within `dueWithinSeconds`
   * (30 s unless given), running, or waiting for their retry; counted per name and state. A job put off further
   * (an e-mail held by quiet hours, the originals' sweep a minute on) is not counted.
   */
  pending(names?: readonly string[], options?: { dueWithinSeconds?: number }): Promise<PendingJobs[]>;
  /**
   * Resolves once `pending` finds nothing (in any process sharing the queue): the barrier after which a test
   * checks that nothing more arrived. Fails after `timeoutMs` (60 s unless given), naming the jobs left.
   */
  drained(
    names?: readonly string[],
    options?: { dueWithinSeconds?: number; timeoutMs?: number },
  ): Promise<void>;
}

/** How many jobs of a name are in a state that will still run (`JobQueue.pending`). */
export interface PendingJobs {
  name: string;
  state: 'created' | 'active' | 'retry';
  count: number;
}

/** The queue of this process; an error when it was not started (main.ts starts it in every process). */
export function jobQueueOf(services: Services): JobQueue {
  if (!services.queue) throw new Error('The job queue is not started in this process');
  return services.queue;
}
