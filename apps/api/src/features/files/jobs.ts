import { JOB_NAMES, type JobHandlers } from '../../jobs/contract';
import type { Services } from '../../services';

/**
 * The compress-originals job's handler (features/jobs.ts hands it to the queue): the originals store's sweep of the
 * uploads' originals stored raw (storage/originals.ts), sent a minute after an upload and at each worker's start.
 */
export function fileJobs(services: Services) {
  return {
    [JOB_NAMES.compressOriginals]: async () => {
      await services.database.originals.sweep(services.database.db);
      return { status: 'done' };
    },
  } satisfies Partial<JobHandlers>;
}
