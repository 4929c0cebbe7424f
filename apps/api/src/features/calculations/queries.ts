import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';

/** A field of a report: its id and name. */
export function findReportFieldOf(db: Kysely<Database>, reportId: string, fieldId: string) {
  return db
    .selectFrom('report_fields')
    .select(['id', 'name'])
    .where('id', '=', fieldId)
    .where('report_id', '=', reportId)
    .executeTakeFirst();
}
