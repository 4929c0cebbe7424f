/** One rate limit's counter, shared by every API process (migration 0039_shared_rate_limits, storage/rate-limits.ts). */
export interface RateLimitCountersTable {
  /** SHA-256 (base64url) of the limited route or limiter and the caller's key. */
  key: string;
  hits: number;
  /** The end of the window, in milliseconds since 1970 by the application's clock. */
  expires_at_ms: number;
}

export interface RateLimitTables {
  rate_limit_counters: RateLimitCountersTable;
}
