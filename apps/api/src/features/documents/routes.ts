import type { FastifyInstance } from 'fastify';
import { uuidParam } from '../access/params';
import { authenticatedRoutes } from '../access/authenticated';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  DOCUMENT_MESSAGE_DAYS,
  DOCUMENT_MESSAGE_TYPE,
  DOCUMENT_MESSAGES,
  documentDownloadBodySchema,
  documentFieldsSchema,
  documentUploadParamsSchema,
  facilityDocumentSchema,
  newDocumentMessage,
} from '@portal/contracts/documents';
import { DAY_MS } from '@portal/contracts/rules';
import { textProblem } from '@portal/contracts/forms';
import { AppError, badRequest, notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { assertFacilityVisible, facilityVisibleTo, isUuid, requireSystemAdmin } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { attachmentDisposition } from './content-disposition';

export const DOCUMENT_MAX_BYTES = 50 * 1024 * 1024;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A document id of the path; anything else is a document that does not exist. */
const documentDeleteParams = z.object({ fileId: uuidParam(DOCUMENT_MESSAGES.notFound) });

export async function documentRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  const tags = ['documents'];

  routes.get(
    '/api/facilities/documents',
    { schema: { tags, response: { 200: z.array(facilityDocumentSchema) } } },
    async (request) => {
      const { caller } = request;
      const rows = await db
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
      return rows.map((r) => ({
        fileRef: r.file_ref,
        fileId: r.id,
        fileName: r.file_name,
        docType: r.doc_type,
        visitOrActionDate: iso(r.visit_or_action_date),
        docDate: iso(r.doc_date),
        expiry: iso(r.expiry),
        equipmentTag: r.equipment_tag,
        facilityId: r.facility_id,
        facilityName: r.facility_name,
        uploadedOn: iso(r.uploaded_on)!,
      }));
    },
  );

  routes.post(
    '/api/facilities/:id/documents',
    {
      schema: {
        tags,
        params: documentUploadParamsSchema,
        consumes: ['multipart/form-data'],
        response: { 201: facilityDocumentSchema },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const { id } = request.params;
      await assertFacilityVisible(db, caller, id);
      requireSystemAdmin(caller);
      if (!request.isMultipart())
        throw badRequest(DOCUMENT_MESSAGES.fileRequired, { file: DOCUMENT_MESSAGES.fileRequired });
      const fields: Record<string, string> = {};
      let file: { name: string; type: string; content: Buffer } | undefined;
      for await (const part of request.parts({ limits: { fileSize: DOCUMENT_MAX_BYTES, files: 1 } })) {
        if (part.type === 'file') {
          const content = await part.toBuffer();
          if (part.file.truncated)
            throw new AppError('PAYLOAD_TOO_LARGE', 'The document is larger than 50 MB');
          file = { name: part.filename, type: part.mimetype || 'application/octet-stream', content };
        } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      }
      if (!file || !file.name || file.content.length === 0)
        throw badRequest(DOCUMENT_MESSAGES.fileRequired, { file: DOCUMENT_MESSAGES.fileRequired });
      const fileNameProblem = textProblem(file.name);
      if (fileNameProblem) throw badRequest(`file: ${fileNameProblem}`, { file: fileNameProblem });
      const parsed = documentFieldsSchema.safeParse(fields);
      if (!parsed.success) {
        const errors = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
        throw badRequest(Object.values(errors)[0]!, errors);
      }
      const values = parsed.data;
      const facility = await db
        .selectFrom('facilities')
        .select('name')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const row = await auditedChange(
        db,
        caller,
        async (trx) => {
          const inserted = await trx
            .insertInto('facility_documents')
            .values({
              facility_id: id,
              file_name: file.name,
              content_type: file.type,
              content: file.content,
              doc_type: values.docType,
              visit_or_action_date: values.visitOrActionDate,
              doc_date: values.docDate,
              expiry: values.expiry,
              equipment_tag: values.equipmentTag,
              uploaded_by: caller.userId,
            })
            .returning(['id', 'file_ref', 'uploaded_on'])
            .executeTakeFirstOrThrow();
          // The ship's users learn about it from the bell; opening the documents marks it read.
          const now = new Date();
          await trx
            .insertInto('messages')
            .values({
              ...newDocumentMessage(facility.name, file.name),
              type: DOCUMENT_MESSAGE_TYPE,
              facility_id: id,
              show_from: now,
              show_to: new Date(now.getTime() + DOCUMENT_MESSAGE_DAYS * DAY_MS),
              created_by: caller.userId,
            })
            .execute();
          return inserted;
        },
        (row) => ({
          action: 'document.upload',
          subject: id,
          detail: { fileRef: row.file_ref, fileName: file.name },
        }),
      );
      return reply.code(201).send({
        fileRef: row.file_ref,
        fileId: row.id,
        fileName: file.name,
        docType: values.docType,
        visitOrActionDate: values.visitOrActionDate,
        docDate: values.docDate,
        expiry: values.expiry,
        equipmentTag: values.equipmentTag,
        facilityId: id,
        facilityName: facility.name,
        uploadedOn: iso(row.uploaded_on)!,
      });
    },
  );

  /** Documents of the ships the caller sees: a foreign document is not found, as if it did not exist. */
  const visibleDocuments = (caller: Caller) =>
    db.selectFrom('facility_documents as d').where(facilityVisibleTo(db, caller, sql.ref('d.facility_id')));
  const found = <T>(document: T | undefined): T => {
    if (!document) throw notFound(DOCUMENT_MESSAGES.notFound);
    return document;
  };

  routes.post(
    '/api/facilities/documents/download',
    { schema: { tags, body: documentDownloadBodySchema } },
    async (request, reply) => {
      const { caller } = request;
      const { fileRef } = request.body;
      const document = found(
        isUuid(fileRef)
          ? await visibleDocuments(caller)
              .select(['d.file_name', 'd.content_type', 'd.content'])
              .where('d.file_ref', '=', fileRef)
              .executeTakeFirst()
          : undefined,
      );
      return reply
        .header('content-type', document.content_type)
        .header('content-disposition', attachmentDisposition(document.file_name))
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(document.content));
    },
  );

  routes.delete(
    '/api/facilities/documents/:fileId',
    { schema: { tags, params: documentDeleteParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const { caller } = request;
      const { fileId } = request.params;
      // A document of a ship the caller does not see is not revealed (404); one the caller sees is SystemAdmin's (403).
      const document = found(
        await visibleDocuments(caller)
          .select(['d.id', 'd.file_ref', 'd.file_name', 'd.facility_id'])
          .where('d.id', '=', fileId)
          .executeTakeFirst(),
      );
      requireSystemAdmin(caller);
      // The bytes live in the row (facility_documents.content), so they go with it.
      await auditedChange(
        db,
        caller,
        async (trx) => {
          const deleted = await trx
            .deleteFrom('facility_documents')
            .where('id', '=', document.id)
            .returning('id')
            .executeTakeFirst();
          if (!deleted) throw notFound(DOCUMENT_MESSAGES.notFound);
        },
        {
          action: 'document.delete',
          subject: document.facility_id,
          detail: { fileId: document.id, fileRef: document.file_ref, fileName: document.file_name },
        },
      );
      return reply.code(204).send(null);
    },
  );
}
