/**
 * The alert jobs (jobs/queue.ts creates their queues, jobs/index.ts runs them with worker.ts):
 * - fan-out: every alert of the outbox not fanned out yet, to its deliveries (sent in the engine's transaction);
 * - email: the e-mails of some deliveries, to the SMTP server or the embedded outbox; retried with backoff;
 * - digest: the daily digests of a day (UTC), one e-mail per user who chose them;
 * - sweep: periodic (ALERTS_SWEEP_SECONDS): reminders due, alerts a crash left behind, digests due.
 */
export const ALERT_JOB_NAMES = {
  fanOut: 'alert-fan-out',
  email: 'alert-email',
  digest: 'alert-digest',
  sweep: 'alert-sweep',
} as const;

export type AlertFanOutJob = Record<string, never>;
export interface AlertEmailJob {
  deliveryIds: string[];
}
export interface AlertDigestJob {
  /** YYYY-MM-DD (UTC): the day whose alerts the digests list. */
  day: string;
}
export type AlertSweepJob = Record<string, never>;
