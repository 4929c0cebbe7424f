import pg from 'pg';

/**
 * API test files run two at a time (vitest.config.ts). On PGlite each server has its own database in memory; against
 * a PostgreSQL server (DATABASE_URL) each vitest worker gets a database of its own beside the one named, made here
 * when missing (`test` -> `test_w1`, `test_w2`), and DATABASE_URL names it for the worker's files: a test that
 * empties its database (harness.ts resetPostgres) or spawns server processes with DATABASE_URL then never meets
 * another worker's data.
 */
const base = process.env.DATABASE_URL;
const worker = process.env.VITEST_POOL_ID;
if (base && worker && !process.env.PORTAL_TEST_BASE_DATABASE_URL) {
  const url = new URL(base);
  const name = `${decodeURIComponent(url.pathname.slice(1)) || 'postgres'}_w${worker}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!exists.rowCount) {
      // Two workers may start together: the one that loses the race finds the database made (42P04, or 23505 from
      // pg_database's unique index) and goes on.
      await client
        .query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`)
        .catch((error: { code?: string }) => {
          if (error.code !== '42P04' && error.code !== '23505') throw error;
        });
    }
    // A test's commits need not survive a crash of the PostgreSQL server: its sessions (the tests' pools and the
    // server processes they spawn) commit without waiting for the write-ahead log's flush to disk, 1.4-3.6 ms a
    // commit against 8.5-11.9 ms (measured on a busy 2-core machine); every audited change and rate-limited request
    // commits.
    await client.query(`ALTER DATABASE "${name.replace(/"/g, '""')}" SET synchronous_commit = off`);
  } finally {
    await client.end();
  }
  url.pathname = `/${encodeURIComponent(name)}`;
  process.env.PORTAL_TEST_BASE_DATABASE_URL = base;
  process.env.DATABASE_URL = url.toString();
}
