import { sql, type Kysely } from 'kysely';

/**
 * Live windows (issue 33, step 6; docs/decisions/0122-live-windows.md): the windows of minutes whose samples a stream
 * stored and which wait for their execution. One row per ship and data source while it waits: a later request merges
 * its window into the row's list (`windows`, disjoint [from, to) pairs in epoch ms) and counts itself in `requests`,
 * so a busy ship has one row and one job, not one per sample. The window job reads the rows, executes their windows
 * and deletes each row whose `requests` did not move meanwhile (a row that moved waits for the job its request sent).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE execution_windows (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      facility_id uuid NOT NULL REFERENCES facilities(id) ON DELETE CASCADE,
      data_source_id uuid NOT NULL REFERENCES facility_data_sources(id) ON DELETE CASCADE,
      windows jsonb NOT NULL DEFAULT '[]'::jsonb,
      requests integer NOT NULL DEFAULT 0,
      first_requested_on timestamptz NOT NULL DEFAULT now(),
      UNIQUE (facility_id, data_source_id)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE execution_windows;`.execute(db);
}
