import { startQueue, type Queue, type QueueHost, type QueueTuning } from './queue';
import { ALL_JOB_NAMES, JOB_QUEUES, type EmptyJobName, type JobHandlers } from './contract';

export * from './contract';
export { startQueue, queueOf, type Queue, type QueueHost, type QueueTuning } from './queue';

/**
 * The jobs below the features: the contract (contract.ts: names, payloads, queue policies, handlers, `JobQueue`)
 * and the pg-boss adapter (queue.ts). It knows no feature: `features/jobs.ts` puts the features' handlers together
 * and starts the queue through `startJobQueue`.
 *
 * Starts the queue of this process (every process sends jobs) and, when `work` is set, its workers with the
 * handlers `handlers()` makes. A worker then sends the jobs it sends by itself (`JOB_QUEUES`' `sent`): all of them
 * at its start, those of the beat again every `beatSeconds` (one queued at most: their queues are stately,
 * whichever worker sends them). Stopping the queue stops the beat and calls `onStop`.
 */
export async function startJobQueue(
  host: QueueHost,
  options: {
    work: boolean;
    handlers: () => JobHandlers;
    beatSeconds: number;
    onStop?: () => void;
    tuning?: Partial<QueueTuning>;
    onError?: (error: Error) => void;
  },
): Promise<Queue> {
  const queue = await startQueue(host, { tuning: options.tuning, onError: options.onError });
  if (!options.work) return queue;
  await queue.work(options.handlers());
  const selfSent = (beat: boolean) =>
    ALL_JOB_NAMES.filter((name): name is EmptyJobName => {
      const sent = (JOB_QUEUES[name] as { sent?: string }).sent;
      return beat ? sent === 'at-start-and-every-beat' : sent === 'at-start';
    });
  // Jobs sent once at the start (the originals' sweep): a failure fails the start.
  for (const name of selfSent(false)) await queue.send(name, {});
  const beat = () =>
    Promise.all(selfSent(true).map((name) => queue.send(name, {}))).catch((error: unknown) =>
      options.onError?.(error as Error),
    );
  await beat();
  const timer = setInterval(() => void beat(), options.beatSeconds * 1000);
  timer.unref();
  const stop = queue.stop.bind(queue);
  queue.stop = async (stopOptions) => {
    clearInterval(timer);
    await stop(stopOptions);
    options.onStop?.();
  };
  return queue;
}
