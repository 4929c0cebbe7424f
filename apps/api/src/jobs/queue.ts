import { CompiledQuery, sql, type Kysely } from 'kysely';
import { fromKysely, PgBoss, type JobResult, type JobWithMetadata } from 'pg-boss';
import { executionSettingsSchema, webhookSettingsSchema, type ExecutionSettings } from '../config';
import type { Database } from '../db/schema';
import type { DatabaseHandle } from '../storage/database';
import {
  ALL_JOB_NAMES,
  JOB_QUEUES,
  type JobHandler,
  type JobHandlers,
  type JobName,
  type JobPayloads,
  type JobQueue,
  type PendingJobs,
} from './contract';

/**
 * The job queue (pg-boss) on both database kinds (docs/decisions/0040-execution.md):
 * - PostgreSQL: pg-boss gets its own small pool from the connection string; several processes share the queue and
 *   each job is claimed once (SKIP LOCKED).
 * - PGlite: one connection for the whole process, shared with our Kysely pool (size 1). pg-boss goes through that
 *   same pool, so its statements queue up behind ours and never land inside one of our transactions.
 * Jobs are retried with exponential backoff; a worker that dies stops its heartbeat and the job is retried by the
 * supervisor of any live process. The jobs, their payloads and their queues' policies are contract.ts's.
 */

/** How far ahead `pending` looks for jobs waiting to start, unless told (see `JobQueue.pending`). */
const DUE_WITHIN_SECONDS = 30;
/** How long `drained` waits, unless told, and how often it looks again. */
const DRAINED_TIMEOUT_MS = 60_000;
const DRAINED_POLL_MS = 100;

/**
 * The jobs of `names` that will still run, from pg-boss's job table (every process's, whichever worker holds them):
 * created and due within `dueWithinSeconds`, active, or waiting for a retry.
 */
export async function pendingJobs(
  db: Kysely<Database>,
  names: readonly string[],
  dueWithinSeconds = DUE_WITHIN_SECONDS,
): Promise<PendingJobs[]> {
  const { rows } = await sql<PendingJobs>`
    select name, state::text as state, count(*)::int as count from pgboss.job
    where name = any(${[...names]}::text[])
      and (state in ('active', 'retry')
           or (state = 'created' and start_after <= now() + make_interval(secs => ${dueWithinSeconds})))
    group by name, state
    order by name, state`.execute(db);
  return rows;
}

/** The queue's settings (config.ts: QUEUE_*, WEBHOOK_CONCURRENCY); tests and benchmarks override some. */
export type QueueTuning = Omit<ExecutionSettings, 'EXECUTION_BUDGET_MS'> & { WEBHOOK_CONCURRENCY: number };

export interface Queue extends JobQueue {
  boss: PgBoss;
  /** Whether this process runs workers. */
  working: boolean;
  /** Starts the workers (if not yet). */
  work(handlers: JobHandlers): Promise<void>;
  stop(options?: { graceful?: boolean; timeoutMs?: number }): Promise<void>;
}

/**
 * pg-boss's database adapter over our Kysely pool, for PGlite. Each statement holds the one connection for its own
 * duration; a multi-statement block that fails half-way (a BEGIN ... COMMIT of pg-boss) is rolled back on the same
 * connection before it is released, so no aborted transaction is left for the next query.
 */
export function kyselyAdapter(db: Kysely<Database>) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      return db.connection().execute(async (connection) => {
        try {
          const result = await connection.executeQuery(CompiledQuery.raw(text, values ?? []));
          // A multi-statement text gives one result per statement on node-postgres; pg-boss wants the rows of all.
          const rows = Array.isArray(result)
            ? (result as { rows?: unknown[] }[]).flatMap((r) => r.rows ?? [])
            : [...result.rows];
          return { rows: rows as any[] };
        } catch (error) {
          if (!values?.length && /\bBEGIN\b/i.test(text))
            await connection.executeQuery(CompiledQuery.raw('ROLLBACK')).catch(() => undefined);
          throw error;
        }
      });
    },
  };
}

/**
 * What the queue needs of the process (services.ts's `Services` is one): its configuration (a benchmark's may be
 * partial: the defaults fill it), its database, and the place the started queue goes.
 */
export interface QueueHost {
  config?: unknown;
  database: DatabaseHandle;
  queue?: JobQueue;
}

export async function startQueue(
  services: QueueHost,
  options: { tuning?: Partial<QueueTuning>; onError?: (error: Error) => void } = {},
): Promise<Queue> {
  // The process's configuration; a partial one (a benchmark's) gets the defaults.
  const tuning = {
    ...executionSettingsSchema.parse(services.config ?? {}),
    WEBHOOK_CONCURRENCY: webhookSettingsSchema.parse(services.config ?? {}).WEBHOOK_CONCURRENCY,
    ...options.tuning,
  };
  const { database } = services;
  const common = {
    superviseIntervalSeconds: tuning.QUEUE_SUPERVISE_SECONDS,
    monitorIntervalSeconds: tuning.QUEUE_SUPERVISE_SECONDS,
    schedule: false,
    application_name: 'portal-queue',
  };
  const boss =
    database.kind === 'postgres'
      ? new PgBoss({ ...common, connectionString: database.connectionString!, max: 4 })
      : new PgBoss({ ...common, backend: 'pglite', db: kyselyAdapter(database.db) });
  boss.on('error', (error) => (options.onError ?? ((e) => console.error('queue error:', e.message)))(error));
  await boss.start();
  const queueOptions = {
    retryLimit: tuning.QUEUE_RETRY_LIMIT,
    retryDelay: tuning.QUEUE_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    retryDelayMax: tuning.QUEUE_RETRY_DELAY_MAX_SECONDS,
    heartbeatSeconds: tuning.QUEUE_HEARTBEAT_SECONDS,
    // A long execution (years of a ship) stays alive by its heartbeat; this is only the outer bound.
    expireInSeconds: 6 * 60 * 60,
  };
  for (const name of ALL_JOB_NAMES) {
    const policy = JOB_QUEUES[name];
    const bossPolicy = policy.perKey ? 'short' : policy.stately ? 'stately' : 'standard';
    const existing = await boss.getQueue(name);
    const retryLimit = policy.retryLimit ? tuning[policy.retryLimit] : queueOptions.retryLimit;
    if (existing && (existing.policy ?? 'standard') !== bossPolicy) {
      // pg-boss cannot change a queue's policy (the window jobs' was stately before): the queue is made again and
      // the jobs that waited in it are sent again.
      const { rows: waiting } = await sql<{ data: object; key: string | null }>`
        select data, singleton_key as key from pgboss.job
        where name = ${name} and state in ('created', 'retry')`.execute(database.db);
      await boss.deleteQueue(name);
      await boss.createQueue(name, { ...queueOptions, retryLimit, policy: bossPolicy });
      for (const job of waiting) await boss.send(name, job.data, job.key ? { singletonKey: job.key } : {});
    } else if (!existing) await boss.createQueue(name, { ...queueOptions, retryLimit, policy: bossPolicy });
    else
      await boss.updateQueue(name, {
        retryLimit,
        retryDelay: queueOptions.retryDelay,
        retryBackoff: true,
        retryDelayMax: queueOptions.retryDelayMax,
        expireInSeconds: queueOptions.expireInSeconds,
      });
  }
  // pg-boss caches its queues at start, before ours existed. A cache miss inside sendInTransaction would query through
  // pg-boss's own connection, which on PGlite is the one our transaction holds: warm the cache now.
  for (const name of ALL_JOB_NAMES) await boss.getJobById(name, '00000000-0000-0000-0000-000000000000');

  /** Whether a job of the same name and singleton key as `job`, not `job`, is running (the job table, now). */
  const otherOfKeyActive = async (name: string, job: JobWithMetadata<unknown>) => {
    const { rows } = await sql`
      select 1 from pgboss.job
      where name = ${name} and singleton_key = ${job.singletonKey} and state = 'active' and id <> ${job.id}::uuid
      limit 1`.execute(database.db);
    return rows.length > 0;
  };

  let working = false;
  const queue: Queue = {
    boss,
    get working() {
      return working;
    },
    async send(name, data, sendOptions) {
      return boss.send(name, data, {
        ...(sendOptions?.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
        ...(sendOptions?.retryLimit !== undefined ? { retryLimit: sendOptions.retryLimit } : {}),
        ...(sendOptions?.startAfterSeconds !== undefined
          ? { startAfter: sendOptions.startAfterSeconds }
          : {}),
      });
    },
    async sendInTransaction(trx, name, data, sendOptions) {
      const id = await boss.send(name, data as object, {
        db: fromKysely(trx),
        ...(sendOptions?.startAfter ? { startAfter: sendOptions.startAfter } : {}),
      });
      if (!id) throw new Error(`The ${name} job was not created`);
      return id;
    },
    async sendSingletonInTransaction(trx, name, data, sendOptions) {
      return boss.send(name, data as object, {
        db: fromKysely(trx),
        singletonKey: sendOptions.singletonKey,
        ...(sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {}),
      });
    },
    pending(names, pendingOptions) {
      return pendingJobs(
        database.db,
        names?.length ? names : ALL_JOB_NAMES,
        pendingOptions?.dueWithinSeconds,
      );
    },
    async drained(names, drainedOptions) {
      const timeoutMs = drainedOptions?.timeoutMs ?? DRAINED_TIMEOUT_MS;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const left = await queue.pending(names, drainedOptions);
        if (left.length === 0) return;
        if (Date.now() >= deadline)
          throw new Error(
            `The job queue did not drain within ${timeoutMs} ms: ${left.map((l) => `${l.count} ${l.name} ${l.state}`).join(', ')}`,
          );
        await new Promise((resolve) => setTimeout(resolve, DRAINED_POLL_MS));
      }
    },
    async work(handlers) {
      if (working) return;
      working = true;
      for (const name of ALL_JOB_NAMES) {
        const handler = handlers[name] as JobHandler<JobName>;
        const policy = JOB_QUEUES[name];
        await boss.work(
          name,
          {
            pollingIntervalSeconds: tuning.QUEUE_POLLING_SECONDS,
            localConcurrency: tuning[policy.concurrency ?? 'QUEUE_CONCURRENCY'],
            batchSize: policy.batchSize ?? 1,
            includeMetadata: true,
            perJobResults: true,
          },
          async (jobs: JobWithMetadata<JobPayloads[JobName]>[]): Promise<JobResult[]> => {
            const results: JobResult[] = [];
            for (const job of jobs) {
              if (policy.perKey && job.singletonKey && (await otherOfKeyActive(name, job))) {
                // Another job of its key runs (on another worker): this one is sent again a second later, joining
                // the key's waiting one if there is one, so the key's runs never overlap and none is lost.
                await boss.send(name, job.data as object, { singletonKey: job.singletonKey, startAfter: 1 });
                results.push({
                  id: job.id,
                  status: 'completed',
                  output: { status: 'skipped', reason: 'Another job of its key was running: sent again' },
                });
                continue;
              }
              const outcome = await handler(job.data, {
                jobId: job.id,
                retryCount: job.retryCount,
                retryLimit: job.retryLimit,
              });
              if (outcome.status !== 'failed')
                results.push({ id: job.id, status: 'completed', output: outcome });
              // A calculation error is a property of the data and the calculations: retrying would fail the same way.
              else
                results.push({
                  id: job.id,
                  status: outcome.permanent ? 'deadletter' : 'failed',
                  output: { message: outcome.error },
                });
            }
            return results;
          },
        );
      }
    },
    async stop(stopOptions) {
      await boss.stop({
        graceful: stopOptions?.graceful ?? true,
        timeout: stopOptions?.timeoutMs ?? 10_000,
        close: true,
      });
    },
  };
  services.queue = queue;
  return queue;
}

/** The queue of this process; an error when it was not started (main.ts starts it in every process). */
export function queueOf(services: Pick<QueueHost, 'queue'>): Queue {
  const queue = services.queue as Queue | undefined;
  if (!queue || !('sendInTransaction' in queue))
    throw new Error('The job queue is not started in this process');
  return queue;
}
