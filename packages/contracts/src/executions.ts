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
 * GET /api/algorithm/calculations/base (the spec's name; GET /api/algorithm/calculations answers the same): processing
 * status of the caller's ships. `items`: queued and running executions (a recalculation is queued from the moment it
 * is requested). `failed`: per ship its last execution when that failed (a later successful one clears it), for every
 * ship the caller sees, i.e. may upload to and run.
 */
export const executionStatusSchema = z.object({
  items: z.array(runningExecutionSchema),
  failed: z.array(failedExecutionSchema).optional(),
});
export type ExecutionStatus = z.infer<typeof executionStatusSchema>;

export const EXECUTION_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type ExecutionState = (typeof EXECUTION_STATES)[number];

/** What a finished run did; counted by the engine as it goes. */
export const executionCountsSchema = z.object({
  /** Files selected for the run (a recalculation selects none: it reads all the ship's samples of its period). */
  files: z.number(),
  /** Timestamps of the primary data source in the period (whole UTC days): where measurement fields are computed. */
  targets: z.number(),
  /** Values (not missing) read from the mapped channels the calculations read. */
  samples: z.number(),
  /** Measurement fields computed, and their values written. */
  measurementFields: z.number(),
  measurementValues: z.number(),
  /** Report fields computed, and their values written (one per field and span). */
  reportFields: z.number(),
  reportValues: z.number(),
});
export type ExecutionCounts = z.infer<typeof executionCountsSchema>;

/** GET /api/executions/{id}: one execution as its ship's users follow it, from queued to done or failed. */
export const executionSchema = z.object({
  id: z.string(),
  facilityId: z.string(),
  /** execute: requested on the files screen (or after a file was deleted), or by uploads; recalculation: from the queue screen. */
  kind: z.enum(['execute', 'recalculation']),
  /** upload: queued by an upload (and joined by the ship's later uploads until it started); request: by a person. */
  origin: z.enum(['request', 'upload']),
  /** How many uploads an upload execution gathered; 0 for a requested one. */
  uploads: z.number(),
  /** The data files it was asked for (all the files of the uploads it gathered). */
  dataFileIds: z.array(z.string()),
  state: z.enum(EXECUTION_STATES),
  /** The period requested (the engine recomputes the whole UTC days it touches). */
  period: z.object({ from: z.string(), to: z.string() }),
  requestedOn: z.string(),
  /** When the last attempt started; null while it waits in the queue. */
  startedOn: z.string().nullable(),
  finishedOn: z.string().nullable(),
  attempts: z.number(),
  /** Null until it is done. */
  counts: executionCountsSchema.nullable(),
  /** Why it failed; while queued after a failed attempt, that attempt's error (it is retried). */
  error: z.string().nullable(),
});
export type Execution = z.infer<typeof executionSchema>;
