import type { Services } from '../../services';
import type { JobContext, RunOutcome } from '../executions/run';
import { composeDigests } from './digest';
import { fanOutPending } from './fan-out';
import type { AlertDigestJob, AlertEmailJob } from './jobs';
import { sendAlertEmails, type MailHooks } from './mail';
import { sweepAlerts } from './sweep';

/** The alert jobs' work (jobs/index.ts hands the queue's jobs to these). */
export function alertJobHandlers(services: Services, hooks: { mail?: MailHooks } = {}) {
  return {
    fanOut: async (): Promise<RunOutcome> => {
      await fanOutPending(services);
      return { status: 'done' };
    },
    email: (data: AlertEmailJob, context: JobContext) => sendAlertEmails(services, data, context, hooks.mail),
    digest: async (data: AlertDigestJob): Promise<RunOutcome> => {
      await composeDigests(services, data.day);
      return { status: 'done' };
    },
    sweep: async (): Promise<RunOutcome> => {
      await sweepAlerts(services);
      return { status: 'done' };
    },
  };
}
