import { sql, type Kysely } from 'kysely';

/**
 * Originals stored raw by an upload on PostgreSQL are marked 'pending' until they are gzip'ed after the answer
 * (docs/decisions/0050-storage-performance.md); the compress-originals sweep finds the few that a stopped process
 * left without reading the whole table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX data_file_originals_pending_idx ON data_file_originals (data_file_id, part) WHERE compression = 'pending'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX data_file_originals_pending_idx`.execute(db);
}
