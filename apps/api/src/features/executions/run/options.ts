/**
 * Points inside a run where tests step in (apps/api/test/worker-with-hooks.ts): production passes none. They run in
 * the order of a real run, so a test can hold the replacing transaction open or end the process after its commit.
 */
export interface RunHooks {
  /** After the row is marked running (committed), before anything is read: a test holds a run here. */
  afterClaim?: () => Promise<void>;
  /** Inside the replacing transaction, after the values are written and before the row is marked done. */
  beforeCommit?: () => Promise<void>;
  /** After the commit, before the queue hears of the outcome. */
  afterCommit?: () => void;
}

/** Engine options: the time budget (config's EXECUTION_BUDGET_MS), and for tests and benchmarks timings and hooks. */
export interface RunOptions {
  budgetMs?: number;
  timings?: Record<string, number>;
  hooks?: RunHooks;
}
