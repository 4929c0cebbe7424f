import { CompiledQuery, sql, type Kysely } from 'kysely';
import { fromKysely, PgBoss, type JobResult, type JobWithMetadata } from 'pg-boss';
import { executionSettingsSchema, webhookSettingsSchema, type ExecutionSettings } from '../config';
import type { Database } from '../db/schema';
import type { JobContext, RunOutcome } from '../features/executions/run';
import {
  ALERT_JOB_NAMES,
  type AlertDigestJob,
  type AlertEmailJob,
  type AlertFanOutJob,
  type AlertSweepJob,
} from '../features/alerts/jobs';
import {
  INSPECTION_PACK_JOB_NAMES,
  type InspectionPackJob,
  type InspectionPackScheduleJob,
} from '../features/inspection-packs/jobs';
import type { JobQueue, PendingJobs, Services } from '../services';

/**
 * The job queue (pg-boss) on both database kinds (docs/decisions/0040-execution.md):
 * - PostgreSQL: pg-boss gets its own small pool from the connection string; several processes share the queue and
 *   each job is claimed once (SKIP LOCKED).
 * - PGlite: one connection for the whole process, shared with our Kysely pool (size 1). pg-boss goes through that
 *   same pool, so its statements queue up behind ours and never land inside one of our transactions.
 * Jobs are retried with exponential backoff; a worker that dies stops its heartbeat and the job is retried by the
 * supervisor of any live process.
 */

export const JOB_NAMES = {
  execution: 'execution',
  recalculation: 'recalculation',
  compressOriginals: 'compress-originals',
  webhookDelivery: 'webhook-delivery',
  alertFanOut: ALERT_JOB_NAMES.fanOut,
  alertEmail: ALERT_JOB_NAMES.email,
  alertDigest: ALERT_JOB_NAMES.digest,
  alertSweep: ALERT_JOB_NAMES.sweep,
  inspectionPack: INSPECTION_PACK_JOB_NAMES.build,
  inspectionPackSchedule: INSPECTION_PACK_JOB_NAMES.schedule,
} as const;
export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];

/** An execution row (executions.id) to run: its facility, period and kind are in the row. */
export interface ExecutionJob {
  executionId: string;
}

/** A queued recalculation: the calculations whose fields (and dependents) are recomputed over their validity. */
export interface RecalculationJob {
  kind: 'measurement-field' | 'report-field';
  calculationIds: string[];
  /** The execution rows made (queued) with the request, one per ship; absent in jobs sent before they were. */
  executionIds?: string[];
}

/** A sweep over the originals stored raw by uploads (the store's sweep, storage/originals.ts); it carries nothing. */
export type CompressOriginalsJob = Record<string, never>;

/**
 * One attempt of a webhook delivery (features/webhooks/deliver.ts): the delivery row and which attempt this is, so a
 * job sent twice, or one whose attempt is already logged, sends nothing.
 */
export interface WebhookDeliveryJob {
  deliveryId: string;
  attempt: number;
}

export interface JobPayloads {
  execution: ExecutionJob;
  recalculation: RecalculationJob;
  'compress-originals': CompressOriginalsJob;
  'webhook-delivery': WebhookDeliveryJob;
  'alert-fan-out': AlertFanOutJob;
  'alert-email': AlertEmailJob;
  'alert-digest': AlertDigestJob;
  'alert-sweep': AlertSweepJob;
  'inspection-pack': InspectionPackJob;
  'inspection-pack-schedule': InspectionPackScheduleJob;
}

/** Queues that keep one job waiting at most (a sweep needs no second copy): one queued and one running. */
const STATELY: readonly string[] = [
  JOB_NAMES.compressOriginals,
  JOB_NAMES.alertSweep,
  JOB_NAMES.inspectionPackSchedule,
];

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

/** How a job ended: done (or nothing to do), or failed; a permanent failure is not retried (deadletter). */
export type JobOutcome = RunOutcome;
export type JobHandler<N extends JobName> = (data: JobPayloads[N], meta: JobContext) => Promise<JobOutcome>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };

/** The queue's settings (config.ts: QUEUE_*, WEBHOOK_CONCURRENCY); tests and benchmarks override some. */
export type QueueTuning = Omit<ExecutionSettings, 'EXECUTION_BUDGET_MS'> & { WEBHOOK_CONCURRENCY: number };

export interface Queue extends JobQueue {
  boss: PgBoss;
  /** Whether this process runs workers. */
  working: boolean;
  /** Starts the workers (if not yet). */
  work(handlers: JobHandlers): Promise<void>;
  /** Sends a job inside one of our transactions: the job exists exactly when the transaction commits. */
  sendInTransaction<N extends JobName>(
    trx: Kysely<Database>,
    name: N,
    data: JobPayloads[N],
    options?: { startAfter?: Date },
  ): Promise<string>;
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

export async function startQueue(
  services: Services,
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
  for (const name of Object.values(JOB_NAMES)) {
    const existing = await boss.getQueue(name);
    // A sweep needs no second copy waiting: one queued and one running at most.
    // E-mail waits out an SMTP server's outage longer than an execution waits for a retry.
    const retryLimit =
      name === JOB_NAMES.alertEmail ? tuning.ALERTS_EMAIL_RETRY_LIMIT : queueOptions.retryLimit;
    if (!existing)
      await boss.createQueue(name, {
        ...queueOptions,
        retryLimit,
        ...(STATELY.includes(name) ? { policy: 'stately' } : {}),
      });
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
  for (const name of Object.values(JOB_NAMES))
    await boss.getJobById(name, '00000000-0000-0000-0000-000000000000');

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
    pending(names, pendingOptions) {
      return pendingJobs(
        database.db,
        names?.length ? names : Object.values(JOB_NAMES),
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
      for (const name of Object.values(JOB_NAMES)) {
        const handler = handlers[name] as JobHandler<JobName>;
        await boss.work(
          name,
          {
            pollingIntervalSeconds: tuning.QUEUE_POLLING_SECONDS,
            // A delivery mostly waits on its receiver (at most WEBHOOK_TIMEOUT_MS): several go at once.
            localConcurrency:
              name === JOB_NAMES.webhookDelivery ? tuning.WEBHOOK_CONCURRENCY : tuning.QUEUE_CONCURRENCY,
            // pg-boss fetches again only after its polling interval: e-mails (one job per alert) are taken in
            // batches, so a storm of alerts is not sent at one job a second (bench/alerts/fanout.ts).
            batchSize: name === JOB_NAMES.alertEmail ? 25 : 1,
            includeMetadata: true,
            perJobResults: true,
          },
          async (jobs: JobWithMetadata<JobPayloads[JobName]>[]): Promise<JobResult[]> => {
            const results: JobResult[] = [];
            for (const job of jobs) {
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
export function queueOf(services: Services): Queue {
  const queue = services.queue as Queue | undefined;
  if (!queue || !('sendInTransaction' in queue))
    throw new Error('The job queue is not started in this process');
  return queue;
}
