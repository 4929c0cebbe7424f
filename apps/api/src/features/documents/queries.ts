import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { notFound } from '../../errors';
import { DOCUMENT_MESSAGES } from '@portal/contracts/documents';
import type { Caller } from '../access/caller';
import { facilityVisibleTo } from '../access/policy';

/** The documents of the ships the caller sees, by ship name, newest visit or action first. */
export function listDocuments(db: Kysely<Database>, caller: Caller) {
  return db
    .selectFrom('facility_documents as d')
    .innerJoin('facilities as f', 'f.id', 'd.facility_id')
    .select([
      'd.id',
      'd.file_ref',
      'd.file_name',
      'd.doc_type',
      'd.visit_or_action_date',
      'd.doc_date',
      'd.expiry',
      'd.equipment_tag',
      'd.uploaded_on',
      'd.facility_id',
      'f.name as facility_name',
    ])
    .where(facilityVisibleTo(db, caller, sql.ref('d.facility_id')))
    .orderBy(sql`lower(f.name)`)
    .orderBy(sql`d.visit_or_action_date desc nulls last`)
    .orderBy('d.uploaded_on', 'desc')
    .execute();
}

/** The name of a ship that exists. */
export function facilityName(db: Kysely<Database>, facilityId: string) {
  return db.selectFrom('facilities').select('name').where('id', '=', facilityId).executeTakeFirstOrThrow();
}

/** Documents of the ships the caller sees: a foreign document is not found, as if it did not exist. */
const visibleDocuments = (db: Kysely<Database>, caller: Caller) =>
  db.selectFrom('facility_documents as d').where(facilityVisibleTo(db, caller, sql.ref('d.facility_id')));

/** A document's content by its reference, if the caller sees its ship. */
export function documentContent(db: Kysely<Database>, caller: Caller, fileRef: string) {
  return visibleDocuments(db, caller)
    .select(['d.file_name', 'd.content_type', 'd.content'])
    .where('d.file_ref', '=', fileRef)
    .executeTakeFirst();
}

/** A document by id, if the caller sees its ship. */
export function findVisibleDocument(db: Kysely<Database>, caller: Caller, id: string) {
  return visibleDocuments(db, caller)
    .select(['d.id', 'd.file_ref', 'd.file_name', 'd.facility_id'])
    .where('d.id', '=', id)
    .executeTakeFirst();
}

/** Deletes a document with its bytes (they live in the row), or "Document not found" (404). */
export async function deleteDocument(trx: Transaction<Database>, id: string): Promise<void> {
  const deleted = await trx
    .deleteFrom('facility_documents')
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  if (!deleted) throw notFound(DOCUMENT_MESSAGES.notFound);
}
