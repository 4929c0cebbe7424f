import { JOB_NAMES, type JobHandlers } from '../../jobs/contract';
import type { Services } from '../../services';
import { buildInspectionPack } from './build';
import { queueMonthlyPacks } from './schedule';

/**
 * The inspection pack jobs' handlers (features/jobs.ts hands them to the queue; payloads in jobs/contract.ts):
 * - build: one pack, from queued to ready (or failed), its progress stored as it goes (build.ts);
 * - schedule: on the alert sweep's beat: queues the monthly packs due (schedule.ts).
 */
export function inspectionPackJobs(services: Services) {
  return {
    [JOB_NAMES.inspectionPack]: (data, context) => buildInspectionPack(services, data, context),
    [JOB_NAMES.inspectionPackSchedule]: async () => {
      await queueMonthlyPacks(services);
      return { status: 'done' };
    },
  } satisfies Partial<JobHandlers>;
}
