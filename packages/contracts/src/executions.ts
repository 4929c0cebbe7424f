import { z } from 'zod';

/** A running (or queued) execution: the ship list shows Processing with its start time. */
export const runningExecutionSchema = z.object({
  id: z.string(),
  facilityId: z.string(),
  /** When the job started; for a job still waiting in the queue, when it was requested. */
  startedOn: z.string(),
  state: z.enum(['queued', 'running']),
});
export type RunningExecution = z.infer<typeof runningExecutionSchema>;

/** The last execution of a ship, when it failed: Failed with its time and error on the ship list and the files screen. */
export const failedExecutionSchema = z.object({
  id: z.string(),
  facilityId: z.string(),
  startedOn: z.string().nullable(),
  finishedOn: z.string().nullable(),
  error: z.string().nullable(),
});
export type FailedExecution = z.infer<typeof failedExecutionSchema>;

/**
 * GET /api/algorithm/calculations: processing status of the caller's ships. `failed`: per ship its last execution when
 * that failed (a later successful one clears it), for every ship the caller sees.
 */
export const executionStatusSchema = z.object({
  items: z.array(runningExecutionSchema),
  failed: z.array(failedExecutionSchema).optional(),
});
export type ExecutionStatus = z.infer<typeof executionStatusSchema>;
