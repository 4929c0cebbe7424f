import type { DatabaseHandle } from './storage/database';
import type { Config } from './config';
import type { JobQueue } from './jobs/contract';

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

/** The queue of this process; an error when it was not started (main.ts starts it in every process). */
export function jobQueueOf(services: Services): JobQueue {
  if (!services.queue) throw new Error('The job queue is not started in this process');
  return services.queue;
}
