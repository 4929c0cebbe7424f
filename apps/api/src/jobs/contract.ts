import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * The jobs' contract, below the features (docs/decisions/0070-where-things-go.md, "A new job"): every job's name
 * and payload, how its queue behaves, what a handler gets and returns, and the `JobQueue` that sends them. The
 * features import it to send jobs and to type their handlers; each feature's `jobs.ts` exports its handlers and
 * `features/jobs.ts` hands them to the queue (queue.ts). Nothing here imports a feature.
 */

// ---- Payloads -------------------------------------------------------------------------------------------------

/** An execution row (executions.id) to run: its facility, period and kind are in the row (features/executions). */
export interface ExecutionJob {
  executionId: string;
}

/**
 * The windows of minutes a stream stored samples in, executed (features/executions/live.ts): the windows wait in
 * execution_windows, the job names only the ship. One waiting and one running per ship (the singleton key is the
 * ship, the queue is `perKey`), so a busy ship's requests are coalesced into the next run.
 */
export interface WindowExecutionJob {
  facilityId: string;
}

/** A queued recalculation: the calculations whose fields (and dependents) are recomputed over their validity. */
export interface RecalculationJob {
  kind: 'measurement-field' | 'report-field';
  calculationIds: string[];
  /**
   * The execution rows made (queued) with the request, one per ship (enqueueRecalculation, executions/derived.ts).
   * A job sent before they were made with it has none: it makes its own, found again by its job id.
   */
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

/** Every alert of the outbox not fanned out yet, to its deliveries (sent in the engine's transaction). */
export type AlertFanOutJob = Record<string, never>;
/** The e-mails of some deliveries, to the SMTP server or the embedded outbox; retried with backoff. */
export interface AlertEmailJob {
  deliveryIds: string[];
}
/** The daily digests of a day (UTC), one e-mail per user who chose them. */
export interface AlertDigestJob {
  /** YYYY-MM-DD (UTC): the day whose alerts the digests list. */
  day: string;
}
/** Periodic: reminders due, alerts a crash left behind, digests due (features/alerts/sweep.ts). */
export type AlertSweepJob = Record<string, never>;

/** One inspection pack, from queued to ready (or failed), its progress stored as it goes (inspection-packs/build.ts). */
export interface InspectionPackJob {
  packId: string;
}
/** Periodic: queues the monthly inspection packs due (inspection-packs/schedule.ts). */
export type InspectionPackScheduleJob = Record<string, never>;

/**
 * The carbon ledger of a ship derived again over all its data (features/executions/run-ledger.ts): its ports, its
 * fuel flows' mapping or their fuel types changed. One waiting per ship (the singleton key is the ship).
 */
export interface CarbonLedgerJob {
  facilityId: string;
}
/** An organization's ports changed: the ledger of each of its ships is derived again (one carbon-ledger job each). */
export interface CarbonLedgerPortsJob {
  organizationId: string;
}
/**
 * Periodic: the compliance calendar's reminders due, each deadline's once per organization, to its administrators
 * in the bell and by e-mail (features/compliance-calendar/reminders.ts).
 */
export type ComplianceRemindersJob = Record<string, never>;

/**
 * Periodic: the month partitions of the stored series made ahead (and for rows waiting in a default partition), the
 * months past every organization's retention archived, deletions an administrator chose applied
 * (features/retention/service.ts, storage/partitions.ts; docs/decisions/0125-partitions-and-retention.md).
 */
export type StorageMonthsJob = Record<string, never>;

/**
 * The UK ETS annual emissions report of a ship and year sent to the regulator's METS API (features/uk-ets/send.ts):
 * what the report needs beyond the ship's details, and who asked (the result is audited in their name).
 */
export interface UkEtsMetsSendJob {
  facilityId: string;
  year: number;
  companyImoNumber: string;
  flag: string;
  iceClass: string;
  companyNature: string;
  requestedBy: {
    userId: string | null;
    organizationId: string | null;
    apiKey?: { id: string; name: string };
  };
}

/**
 * The list of jobs: each job's name (the pg-boss queue's) and its payload. A new job is a line here, a line in
 * `JOB_NAMES` and in `JOB_QUEUES` below (the compiler asks for both) and its handler in its feature's `jobs.ts`
 * (the compiler asks for it in `features/jobs.ts`).
 */
export interface JobPayloads {
  execution: ExecutionJob;
  'window-execution': WindowExecutionJob;
  recalculation: RecalculationJob;
  'compress-originals': CompressOriginalsJob;
  'webhook-delivery': WebhookDeliveryJob;
  'alert-fan-out': AlertFanOutJob;
  'alert-email': AlertEmailJob;
  'alert-digest': AlertDigestJob;
  'alert-sweep': AlertSweepJob;
  'inspection-pack': InspectionPackJob;
  'inspection-pack-schedule': InspectionPackScheduleJob;
  'carbon-ledger': CarbonLedgerJob;
  'carbon-ledger-ports': CarbonLedgerPortsJob;
  'uk-ets-mets-send': UkEtsMetsSendJob;
  'compliance-reminders': ComplianceRemindersJob;
  'storage-months': StorageMonthsJob;
}
export type JobName = keyof JobPayloads;
export type JobPayload<N extends JobName> = JobPayloads[N];

/** The names as constants: code outside this file sends `JOB_NAMES.execution`, never a string of its own. */
export const JOB_NAMES = {
  execution: 'execution',
  windowExecution: 'window-execution',
  recalculation: 'recalculation',
  compressOriginals: 'compress-originals',
  webhookDelivery: 'webhook-delivery',
  alertFanOut: 'alert-fan-out',
  alertEmail: 'alert-email',
  alertDigest: 'alert-digest',
  alertSweep: 'alert-sweep',
  inspectionPack: 'inspection-pack',
  inspectionPackSchedule: 'inspection-pack-schedule',
  carbonLedger: 'carbon-ledger',
  carbonLedgerPorts: 'carbon-ledger-ports',
  ukEtsMetsSend: 'uk-ets-mets-send',
  complianceReminders: 'compliance-reminders',
  storageMonths: 'storage-months',
} as const satisfies Record<string, JobName>;

// Every job of JobPayloads has its constant (a compile error names the one missing).
const everyJobNamed: Record<Exclude<JobName, (typeof JOB_NAMES)[keyof typeof JOB_NAMES]>, never> = {};
void everyJobNamed;

// ---- Queues ---------------------------------------------------------------------------------------------------

/** The jobs that carry nothing, which a worker may send by itself (at its start, on the sweep's beat). */
export type EmptyJobName = {
  [N in JobName]: JobPayloads[N] extends Record<string, never> ? N : never;
}[JobName];

/** How a job's queue behaves, beyond the queue's settings (config.ts: QUEUE_*). */
export interface JobQueuePolicy {
  /** One job waiting at most, one running (pg-boss's stately policy): a sweep needs no second copy. */
  stately?: boolean;
  /**
   * One job waiting and one running per singleton key, and jobs of other keys never held back by them (the live
   * windows: docs/decisions/0122-live-windows.md). pg-boss's `short` policy keeps one waiting per key; the worker
   * runs a job only when no other job of its key is active (read from the job table when the job is taken), and
   * otherwise sends it again a second later (joining the key's waiting one) and ends it. Not pg-boss's stately
   * policy: its fetch leaves out the keys its queue cache holds active, a list its monitor writes every
   * QUEUE_SUPERVISE_SECONDS and each process reads every 60 s, so a job sent after its key's run could wait a
   * minute with nothing running (bench/results/live-alerts.md); and a job whose key is active at the head of the
   * queue made every fetch fail on the policy's index, holding back every other key behind it.
   */
  perKey?: boolean;
  /** Retries: the queue's QUEUE_RETRY_LIMIT unless a setting of its own says otherwise. */
  retryLimit?: 'ALERTS_EMAIL_RETRY_LIMIT';
  /** Jobs run at once per worker: QUEUE_CONCURRENCY unless a setting of its own says otherwise. */
  concurrency?: 'WEBHOOK_CONCURRENCY';
  /** Jobs taken per fetch (pg-boss fetches again only after its polling interval); 1 unless given. */
  batchSize?: number;
}

/** A job a worker sends by itself: once when it starts, or also on every beat of the sweep (ALERTS_SWEEP_SECONDS). */
export interface SelfSentJob {
  sent: 'at-start' | 'at-start-and-every-beat';
}

/** Every job's queue; the keys are the runtime list of the jobs (queue.ts creates and works one queue each). */
export const JOB_QUEUES: {
  readonly [N in JobName]: JobQueuePolicy &
    (N extends EmptyJobName ? Partial<SelfSentJob> : { sent?: never });
} = {
  execution: {},
  // One waiting and one running per ship (its singleton key): later requests join the waiting one's windows.
  'window-execution': { perKey: true },
  recalculation: {},
  // Originals left raw by uploads whose job was lost (a process stopped in between) are picked up at each start.
  'compress-originals': { stately: true, sent: 'at-start' },
  // A delivery mostly waits on its receiver (at most WEBHOOK_TIMEOUT_MS): several go at once.
  'webhook-delivery': { concurrency: 'WEBHOOK_CONCURRENCY' },
  'alert-fan-out': {},
  // E-mail waits out an SMTP server's outage longer than an execution waits for a retry; one job per alert, taken
  // in batches, so a storm of alerts is not sent at one job a second (bench/alerts/fanout.ts).
  'alert-email': { retryLimit: 'ALERTS_EMAIL_RETRY_LIMIT', batchSize: 25 },
  'alert-digest': {},
  // Alerts a stopped process left behind are fanned out at each start, and reminders and digests come on the beat.
  'alert-sweep': { stately: true, sent: 'at-start-and-every-beat' },
  'inspection-pack': {},
  // The monthly inspection packs due are queued on the same beat.
  'inspection-pack-schedule': { stately: true, sent: 'at-start-and-every-beat' },
  'carbon-ledger': {},
  'carbon-ledger-ports': {},
  'uk-ets-mets-send': {},
  // The deadline reminders due are written on the same beat; each is sent once (its row's key), so one job is enough.
  'compliance-reminders': { stately: true, sent: 'at-start-and-every-beat' },
  // Partitions ahead and retention: at each start (a month may have begun while stopped) and on the beat.
  'storage-months': { stately: true, sent: 'at-start-and-every-beat' },
};

/** Every job's name, in the order of `JOB_QUEUES`. */
export const ALL_JOB_NAMES = Object.keys(JOB_QUEUES) as JobName[];

// ---- Handlers -------------------------------------------------------------------------------------------------

/** The job's attempt: its id (an execution records it on its row) and how many retries it had and may have. */
export interface JobContext {
  jobId: string;
  retryCount: number;
  retryLimit: number;
}

/** How a job ended: done (or nothing to do), or failed; a permanent failure is not retried (deadletter). */
export type JobOutcome =
  | { status: 'done' }
  | { status: 'skipped'; reason: string }
  | { status: 'failed'; error: string; permanent: boolean };

export type JobHandler<N extends JobName> = (data: JobPayload<N>, context: JobContext) => Promise<JobOutcome>;
/** A handler for every job: what a worker runs (features/jobs.ts puts them together from the features'). */
export type JobHandlers = { [N in JobName]: JobHandler<N> };

// ---- Sending --------------------------------------------------------------------------------------------------

export interface JobSendOptions {
  singletonKey?: string;
  retryLimit?: number;
  startAfterSeconds?: number;
}

/** How many jobs of a name are in a state that will still run (`JobQueue.pending`). */
export interface PendingJobs {
  name: string;
  state: 'created' | 'active' | 'retry';
  count: number;
}

/** Sending jobs, as the routes, the engine and the jobs see the queue (queue.ts implements it). */
export interface JobQueue {
  send<N extends JobName>(name: N, data: JobPayload<N>, options?: JobSendOptions): Promise<string | null>;
  /** Sends a job inside one of our transactions: the job exists exactly when the transaction commits. */
  sendInTransaction<N extends JobName>(
    trx: Kysely<Database>,
    name: N,
    data: JobPayload<N>,
    options?: { startAfter?: Date },
  ): Promise<string>;
  /**
   * Sends a job of a stately or `perKey` queue inside one of our transactions under a singleton key: null when one
   * of that key already waits (the waiting one does the work), else the job's id.
   */
  sendSingletonInTransaction<N extends JobName>(
    trx: Kysely<Database>,
    name: N,
    data: JobPayload<N>,
    options: { singletonKey: string; startAfter?: Date },
  ): Promise<string | null>;
  /**
   * The jobs of these names (all when none given) still to be run: waiting and due within `dueWithinSeconds`
   * (30 s unless given), running, or waiting for their retry; counted per name and state. A job put off further
   * (an e-mail held by quiet hours, the originals' sweep a minute on) is not counted.
   */
  pending(names?: readonly JobName[], options?: { dueWithinSeconds?: number }): Promise<PendingJobs[]>;
  /**
   * Resolves once `pending` finds nothing (in any process sharing the queue): the barrier after which a test
   * checks that nothing more arrived. Fails after `timeoutMs` (60 s unless given), naming the jobs left.
   */
  drained(
    names?: readonly JobName[],
    options?: { dueWithinSeconds?: number; timeoutMs?: number },
  ): Promise<void>;
}
