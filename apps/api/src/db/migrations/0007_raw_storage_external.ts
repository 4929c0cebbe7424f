import { sql, type Kysely } from 'kysely';

/**
 * Raw columns (doubles) and gzip originals do not compress further: storing them EXTERNAL skips PostgreSQL's pglz
 * attempt on every value, which halved the insert time of 50 columns of 300,000 samples on PostgreSQL 15
 * (18 s -> 8.4 s, bench/results/ingest.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE raw_values ALTER COLUMN "values" SET STORAGE EXTERNAL;
    ALTER TABLE raw_timestamps ALTER COLUMN timestamps SET STORAGE EXTERNAL;
    ALTER TABLE data_file_originals ALTER COLUMN content SET STORAGE EXTERNAL;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE raw_values ALTER COLUMN "values" SET STORAGE EXTENDED;
    ALTER TABLE raw_timestamps ALTER COLUMN timestamps SET STORAGE EXTENDED;
    ALTER TABLE data_file_originals ALTER COLUMN content SET STORAGE EXTENDED;
  `.execute(db);
}
