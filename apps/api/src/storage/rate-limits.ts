import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Database } from '../db/schema';

/**
 * The rate limits' counters in the database (`rate_limit_counters`, migration 0039; decision 0135), so that every
 * API process on one database counts against the same limit: a client behind a load balancer spreading its requests
 * over N processes no longer gets N times the limit, as it did with @fastify/rate-limit's in-memory store.
 *
 * It is a store for @fastify/rate-limit (its `store` option): the plugin keeps the route options, the keys, the
 * headers and the 429 answers; only the counting moved. The counting is the in-memory store's: a fixed window that
 * starts with a key's first request and lasts `timeWindow`; a request in an ended window starts a new one. One
 * statement per request (an INSERT ... ON CONFLICT DO UPDATE, atomic under concurrent requests of several
 * processes); the rows of ended windows are deleted on a write at most once per `sweepEveryMs` per process.
 *
 * Each limited route (and each limiter of `app.createRateLimit`) counts on its own, as the in-memory store's child
 * stores did: its method and URL prefix the key, all of it hashed (SHA-256), so no address, account name or token
 * is stored. `continueExceeding` and `exponentialBackoff` are not supported (no route uses them): a route asking for
 * either is refused when it is registered.
 */
export interface SharedRateLimitOptions {
  db: Kysely<Database>;
  /** Milliseconds since 1970; the tests move it to end a window without waiting. Date.now by default. */
  clock?: () => number;
  /** How often at most a process deletes ended windows' rows (ms); one minute by default. */
  sweepEveryMs?: number;
}

export interface RateLimitCount {
  /** Requests counted in the window, this one included. */
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

const DEFAULT_SWEEP_MS = 60_000;

/** The store class @fastify/rate-limit makes (`store` option) over `options.db`. */
export function sharedRateLimitStore(options: SharedRateLimitOptions): FastifyRateLimitStoreCtor {
  const counters = rateLimitCounters(options);
  const make = (namespace: string): FastifyRateLimitStore & { read: FastifyRateLimitStore['incr'] } => ({
    incr: (key, callback, timeWindow) => {
      counters.count(namespace, key, timeWindow).then(
        (count) => callback(null, count),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
    read: (key, callback) => {
      counters.peek(namespace, key).then(
        (count) => callback(null, count),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
    child: (routeOptions) => make(namespaceOf(routeOptions)),
  });
  return function SharedRateLimitStore(settings: {
    continueExceeding?: boolean;
    exponentialBackoff?: boolean;
  }) {
    refuseUnsupported(settings);
    return make('');
  } as unknown as FastifyRateLimitStoreCtor;
}

/** A route's (or a limiter's) own counters: its method and URL; a limiter of app.createRateLimit has none. */
function namespaceOf(params: unknown): string {
  refuseUnsupported(params as { continueExceeding?: boolean; exponentialBackoff?: boolean });
  const { routeInfo, groupId } = params as {
    routeInfo?: { method?: unknown; url?: unknown };
    groupId?: unknown;
  };
  // Routes of one group share their counters (the plugin adds the group to the key).
  if (typeof groupId === 'string') return 'group';
  if (!routeInfo?.url) return 'limiter';
  return `${[routeInfo.method].flat().join(',')} ${String(routeInfo.url)}`;
}

function refuseUnsupported(settings: { continueExceeding?: boolean; exponentialBackoff?: boolean }): void {
  if (settings.continueExceeding || settings.exponentialBackoff)
    throw new Error(
      'The shared rate limit store (storage/rate-limits.ts) does not support continueExceeding or exponentialBackoff',
    );
}

/** The counting itself, for the store above and the bench (bench/rate-limits). */
export function rateLimitCounters(options: SharedRateLimitOptions) {
  const { db } = options;
  const clock = options.clock ?? Date.now;
  const sweepEveryMs = options.sweepEveryMs ?? DEFAULT_SWEEP_MS;
  let nextSweep = 0;
  const hashed = (namespace: string, key: string) =>
    createHash('sha256').update(namespace).update('\0').update(key).digest('base64url');

  return {
    /** Counts one request of `key` in its window (a new window when there is none or it ended). */
    async count(namespace: string, key: string, windowMs: number): Promise<RateLimitCount> {
      const now = Math.floor(clock());
      const row = await db
        .insertInto('rate_limit_counters')
        .values({ key: hashed(namespace, key), hits: 1, expires_at_ms: now + windowMs })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet({
            // Both read the row as it was: an ended window starts again at one.
            hits: sql<number>`CASE WHEN rate_limit_counters.expires_at_ms <= ${now}::bigint THEN 1 ELSE rate_limit_counters.hits + 1 END`,
            expires_at_ms: sql<number>`CASE WHEN rate_limit_counters.expires_at_ms <= ${now}::bigint THEN excluded.expires_at_ms ELSE rate_limit_counters.expires_at_ms END`,
          }),
        )
        .returning(['hits', 'expires_at_ms'])
        .executeTakeFirstOrThrow();
      if (now >= nextSweep) {
        nextSweep = now + sweepEveryMs;
        await sweepRateLimits(db, now);
      }
      return { current: row.hits, ttl: Math.max(0, Number(row.expires_at_ms) - now) };
    },
    /** The count of `key` without counting (zero when its window ended). */
    async peek(namespace: string, key: string): Promise<RateLimitCount> {
      const now = Math.floor(clock());
      const row = await db
        .selectFrom('rate_limit_counters')
        .select(['hits', 'expires_at_ms'])
        .where('key', '=', hashed(namespace, key))
        .where('expires_at_ms', '>', now)
        .executeTakeFirst();
      return row ? { current: row.hits, ttl: Number(row.expires_at_ms) - now } : { current: 0, ttl: 0 };
    },
  };
}

/** Deletes the counters whose window ended by `now`; how many. */
export async function sweepRateLimits(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db
    .deleteFrom('rate_limit_counters')
    .where('expires_at_ms', '<=', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
