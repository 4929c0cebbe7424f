import { JOB_NAMES, type JobHandlers } from '../../jobs/contract';
import type { Services } from '../../services';
import { runWebhookDelivery, type DeliveryOptions } from './deliver';

/** The webhook-delivery job's handler (features/jobs.ts hands it to the queue): one attempt of a delivery. */
export function webhookJobs(services: Services, options: DeliveryOptions = {}) {
  return {
    [JOB_NAMES.webhookDelivery]: (data) => runWebhookDelivery(services, data, options),
  } satisfies Partial<JobHandlers>;
}
