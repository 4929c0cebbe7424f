import { sql, type Kysely } from 'kysely';

/**
 * Issue 19: API keys for integrations, and the execution that an upload queues (docs/decisions/0090).
 *
 * - `api_keys`: an organization's keys. The secret is 32 random bytes shown once; only its SHA-256 is kept. A key
 *   is revoked by `revoked_on` (kept for the audit trail, never listed again). `last_used_on` is written at most
 *   once a minute per key.
 * - A statement trigger moves `access_version` when a key is made, revoked, changed or removed (not when its last
 *   use is noted), so a process that caches a resolved key under the access version (features/auth/verify.ts)
 *   refuses a revoked key on the very next call, in every process.
 * - `executions.origin`: 'request' (Run, a deleted file's recalculation) or 'upload' (queued by an upload);
 *   `executions.uploads`: how many uploads an upload execution gathered. At most one upload execution per ship
 *   waits in the queue unstarted (`attempts = 0`): the unique partial index makes two concurrent uploads (two API
 *   processes) meet on one row, which each widens to the union of the ranges (features/executions/upload.ts). A
 *   retried execution (queued again after a failed attempt) is outside the index: uploads no longer join it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE api_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      name text NOT NULL,
      scopes text[] NOT NULL CHECK (cardinality(scopes) > 0 AND scopes <@ ARRAY['reports:read', 'files:upload']),
      secret_hash text NOT NULL,
      created_by uuid,
      created_on timestamptz NOT NULL DEFAULT now(),
      expires_on timestamptz,
      last_used_on timestamptz,
      revoked_on timestamptz,
      revoked_by uuid
    );
    CREATE INDEX api_keys_organization_idx ON api_keys (organization_id) WHERE revoked_on IS NULL;

    CREATE TRIGGER api_keys_access_version BEFORE INSERT OR DELETE OR TRUNCATE OR UPDATE OF organization_id, scopes, secret_hash, expires_on, revoked_on
      ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();

    ALTER TABLE executions ADD COLUMN origin text NOT NULL DEFAULT 'request' CHECK (origin IN ('request', 'upload'));
    ALTER TABLE executions ADD COLUMN uploads integer NOT NULL DEFAULT 0;
    CREATE UNIQUE INDEX executions_waiting_upload_idx ON executions (facility_id)
      WHERE origin = 'upload' AND state = 'queued' AND attempts = 0;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP INDEX executions_waiting_upload_idx;
    ALTER TABLE executions DROP COLUMN uploads;
    ALTER TABLE executions DROP COLUMN origin;
    DROP TRIGGER api_keys_access_version ON api_keys;
    DROP TABLE api_keys;
  `.execute(db);
}
