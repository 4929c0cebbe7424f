import type { Services } from '../services';
import { runExecution, runRecalculation, type RunOptions } from '../features/executions/run';
import { runWebhookDelivery, type DeliveryOptions } from '../features/webhooks/deliver';
import { JOB_NAMES, startQueue, type Queue, type QueueTuning } from './queue';
import { alertJobHandlers } from '../features/alerts/worker';
import { closeMailTransports, type MailHooks } from '../features/alerts/mail';
import { buildInspectionPack } from '../features/inspection-packs/build';
import { queueMonthlyPacks } from '../features/inspection-packs/schedule';
import { ledgerPorts } from '../features/carbon/ledger-ports';

export {
  startQueue,
  queueOf,
  JOB_NAMES,
  type Queue,
  type JobOutcome,
  type ExecutionJob,
  type RecalculationJob,
  type WebhookDeliveryJob,
} from './queue';

/**
 * The pg-boss adapter (queue.ts: the queue on either database, the job definitions with their typed payloads,
 * retries and backoff) and the wiring of its jobs to the engine's runs (features/executions/run.ts).
 *
 * Starts the queue of this process (every process sends jobs) and, when `work` is set, its workers.
 * main.ts calls it with `work: config.services.worker`.
 */
export async function startJobs(
  services: Services,
  options: {
    work: boolean;
    tuning?: Partial<QueueTuning>;
    run?: RunOptions;
    webhooks?: DeliveryOptions;
    /** The alert e-mail's test hooks (apps/api/test/worker-with-hooks.ts); production passes none. */
    mail?: MailHooks;
    onError?: (error: Error) => void;
  },
): Promise<Queue> {
  const queue = await startQueue(services, { tuning: options.tuning, onError: options.onError });
  if (options.work) {
    const alerts = alertJobHandlers(services, { mail: options.mail });
    const run = { ledgerPorts, ...options.run };
    await queue.work({
      execution: (data, meta) => runExecution(services, data, meta, run),
      recalculation: (data, meta) => runRecalculation(services, data, meta, run),
      'compress-originals': async () => {
        await services.database.originals.sweep(services.database.db);
        return { status: 'done' };
      },
      'webhook-delivery': (data) => runWebhookDelivery(services, data, options.webhooks),
      'alert-fan-out': alerts.fanOut,
      'alert-email': alerts.email,
      'alert-digest': alerts.digest,
      'alert-sweep': alerts.sweep,
      'inspection-pack': (data, meta) => buildInspectionPack(services, data, meta),
      'inspection-pack-schedule': async () => {
        await queueMonthlyPacks(services);
        return { status: 'done' };
      },
    });
    // Originals left raw by uploads whose job was lost (a process stopped in between) are picked up now.
    await queue.send(JOB_NAMES.compressOriginals, {});
    // Alerts a stopped process left behind are fanned out now, and the sweep comes back every ALERTS_SWEEP_SECONDS
    // (reminders, digests): one queued at most (the queue is stately), whichever worker sends it.
    // The monthly inspection packs due are queued on the same beat (features/inspection-packs/schedule.ts).
    const sweep = () =>
      Promise.all([
        queue.send(JOB_NAMES.alertSweep, {}),
        queue.send(JOB_NAMES.inspectionPackSchedule, {}),
      ]).catch((error: unknown) => options.onError?.(error as Error));
    await sweep();
    const seconds = services.config.ALERTS_SWEEP_SECONDS ?? 60;
    const timer = setInterval(() => void sweep(), seconds * 1000);
    timer.unref();
    const stop = queue.stop.bind(queue);
    queue.stop = async (stopOptions) => {
      clearInterval(timer);
      await stop(stopOptions);
      closeMailTransports();
    };
  }
  return queue;
}
