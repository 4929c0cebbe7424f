import { JOB_NAMES, type JobHandlers } from '../../jobs/contract';
import type { Services } from '../../services';
import { sendDueDeadlineReminders } from './reminders';

/** The compliance calendar's job (jobs/contract.ts): on the alert sweep's beat, the deadline reminders due. */
export function complianceCalendarJobs(services: Services) {
  return {
    [JOB_NAMES.complianceReminders]: async () => {
      const written = await sendDueDeadlineReminders(services);
      return written ? { status: 'done' } : { status: 'skipped', reason: 'No deadline reminder due' };
    },
  } satisfies Partial<JobHandlers>;
}
