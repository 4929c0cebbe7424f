import { JOB_NAMES, type JobHandlers } from '../../jobs/contract';
import type { Services } from '../../services';
import { applyRetention } from './service';

/** Data retention's job (jobs/contract.ts): on the sweep's beat, partitions made ahead, retention applied. */
export function retentionJobs(services: Services) {
  return {
    [JOB_NAMES.storageMonths]: async () => {
      const { made, archived, deleted } = await applyRetention(services.database.db);
      return made.length + archived.length + deleted > 0
        ? { status: 'done' }
        : { status: 'skipped', reason: 'Every month partition is made and no data is past its retention' };
    },
  } satisfies Partial<JobHandlers>;
}
