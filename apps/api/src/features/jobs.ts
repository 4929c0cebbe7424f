import { startJobQueue, type JobHandlers, type Queue, type QueueTuning } from '../jobs';
import type { Services } from '../services';
import { alertJobs, closeMailTransports, type MailHooks } from './alerts/jobs';
import { complianceCalendarJobs } from './compliance-calendar/jobs';
import { enginePortsOf } from './engine-ports';
import { executionJobs } from './executions/jobs';
import type { RunOptions } from './executions/run';
import { fileJobs } from './files/jobs';
import { inspectionPackJobs } from './inspection-packs/jobs';
import type { DeliveryOptions } from './webhooks/deliver';
import { webhookJobs } from './webhooks/jobs';
import { ukEtsJobs } from './uk-ets/jobs';
import { retentionJobs } from './retention/jobs';

/** What a worker's handlers may be given: the tests' and benchmarks' options and hooks (production passes none). */
export interface FeatureJobOptions {
  run?: RunOptions;
  webhooks?: DeliveryOptions;
  /** The alert e-mail's test hooks (apps/api/test/worker-with-hooks.ts). */
  mail?: MailHooks;
}

/**
 * The handler of every job (jobs/contract.ts), from the features that own them, each feature's `jobs.ts`; the
 * engine gets its ports here (engine-ports.ts). A job without a handler is a compile error.
 */
export function featureJobHandlers(services: Services, options: FeatureJobOptions = {}): JobHandlers {
  return {
    ...executionJobs(services, enginePortsOf(services), options.run),
    ...fileJobs(services),
    ...webhookJobs(services, options.webhooks),
    ...alertJobs(services, { mail: options.mail }),
    ...inspectionPackJobs(services),
    ...ukEtsJobs(services),
    ...complianceCalendarJobs(services),
    ...retentionJobs(services),
  };
}

/**
 * Starts the queue of this process (every process sends jobs) and, when `work` is set, its workers with the
 * features' handlers; the sweeps go at the start and every ALERTS_SWEEP_SECONDS (jobs/index.ts). main.ts calls it
 * with `work: config.services.worker`.
 */
export function startJobs(
  services: Services,
  options: FeatureJobOptions & {
    work: boolean;
    tuning?: Partial<QueueTuning>;
    onError?: (error: Error) => void;
  },
): Promise<Queue> {
  return startJobQueue(services, {
    work: options.work,
    handlers: () => featureJobHandlers(services, options),
    beatSeconds: services.config.ALERTS_SWEEP_SECONDS ?? 60,
    onStop: closeMailTransports,
    tuning: options.tuning,
    onError: options.onError,
  });
}
