import type { FastifyInstance } from 'fastify';
import { idParam } from '../access/params';
import { authenticatedRoutes } from '../access/authenticated';
import { z } from 'zod';
import {
  DOCUMENT_MESSAGES,
  documentDownloadBodySchema,
  documentFieldsSchema,
  documentUploadParamsSchema,
  facilityDocumentSchema,
} from '@portal/contracts/documents';
import { textProblem } from '@portal/contracts/forms';
import { AppError, badRequest, notFound } from '../../errors';
import { assertFacilityVisible, requireSystemAdmin } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { attachmentDisposition } from './content-disposition';
import { deleteDocument, documentContent, facilityName, findVisibleDocument, listDocuments } from './queries';
import { addDocument } from './service';

export const DOCUMENT_MAX_BYTES = 50 * 1024 * 1024;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A document id of the path; anything else is a document that does not exist. */
const documentDeleteParams = z.object({ fileId: idParam() });
const documentDownloadBody = documentDownloadBodySchema.extend({
  fileRef: documentDownloadBodySchema.shape.fileRef.pipe(idParam()),
});

export async function documentRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  const tags = ['documents'];

  routes.get(
    '/api/facilities/documents',
    { schema: { tags, response: { 200: z.array(facilityDocumentSchema) } } },
    async (request) => {
      const { caller } = request;
      const rows = await listDocuments(db, caller);
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
      const facility = await facilityName(db, id);
      const row = await auditedChange(
        db,
        caller,
        // The ship's users learn about it from the bell; opening the documents marks it read.
        (trx) => addDocument(trx, caller.userId, { id, name: facility.name }, file, values),
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

  const found = <T>(document: T | undefined): T => {
    if (!document) throw notFound(DOCUMENT_MESSAGES.notFound);
    return document;
  };

  routes.post(
    '/api/facilities/documents/download',
    { schema: { tags, body: documentDownloadBody } },
    async (request, reply) => {
      const { caller } = request;
      const { fileRef } = request.body;
      const document = found(await documentContent(db, caller, fileRef));
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
      const document = found(await findVisibleDocument(db, caller, fileId));
      requireSystemAdmin(caller);
      // The bytes live in the row (facility_documents.content), so they go with it.
      await auditedChange(db, caller, (trx) => deleteDocument(trx, document.id), {
        action: 'document.delete',
        subject: document.facility_id,
        detail: { fileId: document.id, fileRef: document.file_ref, fileName: document.file_name },
      });
      return reply.code(204).send(null);
    },
  );
}
