import { JOB_NAMES, type JobHandlers } from '../../jobs/contract';
import type { Services } from '../../services';
import { sendToMets } from './send';

/** The UK ETS job's handler (features/jobs.ts hands it to the queue; payload in jobs/contract.ts). */
export function ukEtsJobs(services: Services) {
  return {
    [JOB_NAMES.ukEtsMetsSend]: (data, context) =>
      sendToMets(services.database.db, services.config, data, context),
  } satisfies Partial<JobHandlers>;
}
