/**
 * The inspection pack jobs (jobs/queue.ts creates their queues, jobs/index.ts runs them):
 * - build: one pack, from queued to ready (or failed), its progress stored as it goes (build.ts);
 * - schedule: periodic (with the alert sweep): queues the monthly packs due (schedule.ts).
 */
export const INSPECTION_PACK_JOB_NAMES = {
  build: 'inspection-pack',
  schedule: 'inspection-pack-schedule',
} as const;

export interface InspectionPackJob {
  packId: string;
}
export type InspectionPackScheduleJob = Record<string, never>;
