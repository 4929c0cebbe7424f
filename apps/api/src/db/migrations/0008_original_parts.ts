import { sql, type Kysely } from 'kysely';

/**
 * The original of a data file is stored in parts (each a complete gzip member of up to 8 MB of the upload), so no
 * statement or row carries a whole large upload and the parts are compressed in parallel
 * (docs/decisions/0050-storage-performance.md). Existing originals become part 0.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE data_file_originals ADD COLUMN part integer NOT NULL DEFAULT 0;
    ALTER TABLE data_file_originals DROP CONSTRAINT data_file_originals_pkey;
    ALTER TABLE data_file_originals ADD PRIMARY KEY (facility_id, data_file_id, part);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DELETE FROM data_file_originals WHERE part > 0;
    ALTER TABLE data_file_originals DROP CONSTRAINT data_file_originals_pkey;
    ALTER TABLE data_file_originals ADD PRIMARY KEY (facility_id, data_file_id);
    ALTER TABLE data_file_originals DROP COLUMN part;
  `.execute(db);
}
