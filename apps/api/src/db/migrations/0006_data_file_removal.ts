import { sql, type Kysely } from 'kysely';

/**
 * Deleting a data file without "Also delete associated data" takes it off the files screen but keeps its raw
 * samples (and its original) for the calculations: the row stays, marked removed. With the box, the row goes
 * and the cascade takes the samples and the original.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE data_files ADD COLUMN removed_on timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE data_files DROP COLUMN removed_on`.execute(db);
}
