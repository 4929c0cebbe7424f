/**
 * Running executions, as the execution jobs do (jobs.ts hands them the queue's jobs). An execution row (executions)
 * is what users see: queued -> running -> done | failed. A run is idempotent: its values replace the period's values
 * in one transaction that also marks the row done, so a rerun after a crash finds the row done and changes nothing,
 * and a rerun after a crash mid-way computes the same values again (docs/decisions/0040-execution.md). What the
 * engine needs of alerts and data health comes through `ports` (ports.ts).
 *
 * Its parts, in run/: one execution (execution.ts) and its failure (failure.ts); a recalculation (recalculation.ts),
 * its plan (recalculation-plan.ts) and the plan's pure rules (recalculation-scope.ts); the hooks and options
 * (options.ts).
 */

export { runExecution } from './run/execution';
export type { RunHooks, RunOptions } from './run/options';
export { runRecalculation } from './run/recalculation';
export { planRecalculation } from './run/recalculation-plan';
