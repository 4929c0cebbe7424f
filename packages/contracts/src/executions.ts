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

export const failedExecutionSchema = z.object({
  id: z.string(),
  facilityId: z.string(),
  startedOn: z.string().nullable(),
  finishedOn: z.string().nullable(),
  error: z.string().nullable(),
});
export type FailedExecution = z.infer<typeof failedExecutionSchema>;

/** GET /api/algorithm/calculations: processing status of the caller's ships. `failed` is for SystemAdmin only. */
export const executionStatusSchema = z.object({
  items: z.array(runningExecutionSchema),
  failed: z.array(failedExecutionSchema).optional(),
});
export type ExecutionStatus = z.infer<typeof executionStatusSchema>;
