import { sql, type Kysely } from 'kysely';

/**
 * Rate limits shared by every API process on the database (docs/decisions/0135-shared-rate-limits.md): one counter
 * per limited route (or limiter) and key, a fixed window that starts with its first request, as
 * @fastify/rate-limit's own in-memory store counts. Kept by storage/rate-limits.ts (an atomic upsert per request;
 * expired rows swept on write). The key is a SHA-256 of the route and the caller's key (an address, an account name,
 * a session's token), so no address, name or token is stored. Times are milliseconds since 1970 as the application's
 * clock says (the tests move it), not the database's.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE rate_limit_counters (
      key text PRIMARY KEY,
      hits integer NOT NULL CHECK (hits > 0),
      expires_at_ms bigint NOT NULL
    );
    CREATE INDEX rate_limit_counters_expires ON rate_limit_counters (expires_at_ms);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE rate_limit_counters`.execute(db);
}
