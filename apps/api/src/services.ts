import type { DatabaseHandle } from './db/connection';
import type { Config } from './config';

/**
 * What the routes and jobs share: one instance per process, made at start (main.ts) or by a test.
 * Later domains add their services here (queue, storage, ...).
 */
export interface Services {
  config: Config;
  database: DatabaseHandle;
  /** Fire-and-forget hooks that jobs register (e.g. the queue); absent until the worker service starts. */
  queue?: JobQueue;
}

export interface JobQueue {
  send(
    name: string,
    data: object,
    options?: { singletonKey?: string; retryLimit?: number; startAfterSeconds?: number },
  ): Promise<string | null>;
}
