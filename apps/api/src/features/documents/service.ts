import type { Transaction } from 'kysely';
import {
  DOCUMENT_MESSAGE_DAYS,
  DOCUMENT_MESSAGE_TYPE,
  newDocumentMessage,
  type documentFieldsSchema,
} from '@portal/contracts/documents';
import { DAY_MS } from '@portal/contracts/rules';
import type { z } from 'zod';
import type { Database } from '../../db/schema';

/**
 * Stores a ship's document; the ship's users learn about it from the bell (a document message, marked read when
 * they open the documents).
 */
export async function addDocument(
  trx: Transaction<Database>,
  uploadedBy: string,
  facility: { id: string; name: string },
  file: { name: string; type: string; content: Buffer },
  values: z.output<typeof documentFieldsSchema>,
) {
  const inserted = await trx
    .insertInto('facility_documents')
    .values({
      facility_id: facility.id,
      file_name: file.name,
      content_type: file.type,
      content: file.content,
      doc_type: values.docType,
      visit_or_action_date: values.visitOrActionDate,
      doc_date: values.docDate,
      expiry: values.expiry,
      equipment_tag: values.equipmentTag,
      uploaded_by: uploadedBy,
    })
    .returning(['id', 'file_ref', 'uploaded_on'])
    .executeTakeFirstOrThrow();
  const now = new Date();
  await trx
    .insertInto('messages')
    .values({
      ...newDocumentMessage(facility.name, file.name),
      type: DOCUMENT_MESSAGE_TYPE,
      facility_id: facility.id,
      show_from: now,
      show_to: new Date(now.getTime() + DOCUMENT_MESSAGE_DAYS * DAY_MS),
      created_by: uploadedBy,
    })
    .execute();
  return inserted;
}
