import { JOB_NAMES, type JobHandlers } from '../../jobs/contract';
import type { Services } from '../../services';
import { composeDigests } from './digest';
import { fanOutPending } from './fan-out';
import { sendAlertEmails, type MailHooks } from './mail';
import { sweepAlerts } from './sweep';

export { closeMailTransports, type MailHooks } from './mail';

/**
 * The alert jobs' handlers (features/jobs.ts hands them to the queue; their payloads and queues in jobs/contract.ts):
 * - fan-out: every alert of the outbox not fanned out yet, to its deliveries (sent in the engine's transaction);
 * - email: the e-mails of some deliveries, to the SMTP server or the embedded outbox; retried with backoff;
 * - digest: the daily digests of a day (UTC), one e-mail per user who chose them;
 * - sweep: periodic (ALERTS_SWEEP_SECONDS): reminders due, alerts a crash left behind, digests due.
 */
export function alertJobs(services: Services, hooks: { mail?: MailHooks } = {}) {
  return {
    [JOB_NAMES.alertFanOut]: async () => {
      await fanOutPending(services);
      return { status: 'done' };
    },
    [JOB_NAMES.alertEmail]: (data, context) => sendAlertEmails(services, data, context, hooks.mail),
    [JOB_NAMES.alertDigest]: async (data) => {
      await composeDigests(services, data.day);
      return { status: 'done' };
    },
    [JOB_NAMES.alertSweep]: async () => {
      await sweepAlerts(services);
      return { status: 'done' };
    },
  } satisfies Partial<JobHandlers>;
}
