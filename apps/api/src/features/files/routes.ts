import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticatedRoutes } from '../access/authenticated';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamSchema } from '@portal/contracts/datasources';
import { textProblem } from '@portal/contracts/forms';
import {
  dataFileParamsSchema,
  dataFileSchema,
  deleteDataFileQuerySchema,
  uploadQuerySchema,
  uploadResponseSchema,
  type UploadResponse,
} from '@portal/contracts/files';
import { AppError, badRequest, notFound } from '../../errors';
import { formatBytes } from '../../readers';
import { withIds } from '../access/params';
import { auditedChange } from '../audit/audit';
import { findVisibleDataSource } from '../datasources/queries';
import { resolveUploadCredential, isUploadAuthorization } from '../ship-info/credentials';
import { JOB_NAMES } from '../../jobs/contract';
import { queueUploadExecution } from '../executions/upload';
import { importUploads, storedWarnings, type ImportUploadInput } from './import';
import { findDataFile, findFacilityDataSource, listDataFiles } from './queries';
import { deleteDataFile } from './service';

/** The upload's files were imported, but the execution of their range could not be queued. */
const UPLOAD_NOT_EXECUTED =
  'The files were imported, but their calculation could not be queued. Select them and press Run.';

/** `file` fields one upload request may carry (other multipart routes take one, app.ts). */
const MAX_FILES_PER_UPLOAD = 1000;

/** Routes a request to the uploader's variant of the upload when it carries an upload credential. */
const UPLOADER_CONSTRAINT: Parameters<FastifyInstance['addConstraintStrategy']>[0] = {
  name: 'uploader',
  storage() {
    const handlers = new Map<unknown, never>();
    return {
      get: (value) => handlers.get(value) ?? null,
      set: (value, store) => void handlers.set(value, store as never),
    };
  },
  // find-my-way treats undefined as "no constraint derived": every other request takes the ordinary route.
  deriveConstraint: (request) => {
    const header = request.headers.authorization;
    return (isUploadAuthorization(typeof header === 'string' ? header : undefined)
      ? 'psdu'
      : undefined) as unknown as string;
  },
  mustMatchWhenDerived: false,
};

export async function fileRoutes(app: FastifyInstance) {
  const server = app.withTypeProvider<ZodTypeProvider>();
  const routes = authenticatedRoutes(app);
  const { db } = app;
  const tags = ['files'];

  routes.get(
    '/api/algorithm/facilitydatasource/:id/file',
    { schema: { tags, params: idParamSchema, response: { 200: z.array(dataFileSchema) } } },
    async (request) => {
      const dataSource = await findVisibleDataSource(db, request.caller, request.params.id);
      const rows = await listDataFiles(db, dataSource);
      return rows.map((r) => ({
        id: r.id,
        fileName: r.file_name,
        timeStampMin: new Date(r.time_stamp_min).toISOString(),
        timeStampMax: new Date(r.time_stamp_max).toISOString(),
        importedOn: new Date(r.imported_on).toISOString(),
        rowCount: r.row_count,
        byteSize: Number(r.byte_size),
        warnings: storedWarnings(r.warnings),
      }));
    },
  );

  /**
   * Imports the upload, then (unless `execute` is false) queues the execution of the imported files' range, or
   * joins the one waiting for the ship (features/executions/upload.ts). The files are committed before: an
   * execution that fails to queue leaves them imported, and the answer says so.
   */
  const upload = async (
    request: FastifyRequest,
    dataSource: { id: string; facility_id: string },
    importedBy: string | null,
    auditedBy: NonNullable<ImportUploadInput['auditedBy']>,
    execute: boolean,
  ): Promise<UploadResponse> => {
    if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data');
    const maxUploadBytes = app.config.UPLOAD_MAX_BYTES;
    try {
      // One byte over the limit reaches the reader, which then rejects the upload with its message. Several `file`
      // fields (a folder, a multi-file selection) are imported together, in batches (importUploads): each file's
      // error is its own and the others are kept, as if sent one by one.
      const parts = request.files({ limits: { fileSize: maxUploadBytes + 1, files: MAX_FILES_PER_UPLOAD } });
      let sent = 0;
      const uploads = (async function* () {
        for await (const part of parts) {
          sent++;
          const fileNameProblem = textProblem(part.filename);
          if (fileNameProblem) throw badRequest(`file: ${fileNameProblem}`, { file: fileNameProblem });
          yield { fileName: part.filename, content: part.file };
        }
        if (sent === 0) throw badRequest('No file was sent');
      })();
      const result = await importUploads(app.services.database, {
        facilityId: dataSource.facility_id,
        dataSourceId: dataSource.id,
        uploads,
        importedBy,
        rules: { maxUploadBytes },
        auditedBy,
        gapWarningSamples: app.config.UPLOAD_GAP_WARNING_SAMPLES,
      });
      // This process compresses the raw originals once they are committed; a sweep a minute later picks up what a
      // stopped process left raw (and a worker sweeps when it starts).
      if (result.ids.length > 0) {
        await app.services.queue
          ?.send(JOB_NAMES.compressOriginals, {}, { startAfterSeconds: 60 })
          .catch((error: unknown) => request.log.warn({ err: error }, 'compress-originals job not sent'));
      }
      let execution: UploadResponse['execution'] = null;
      if (execute && result.ids.length > 0) {
        try {
          execution = await queueUploadExecution(app.services, {
            facilityId: dataSource.facility_id,
            dataFileIds: result.ids,
            requestedBy: importedBy,
            actor: auditedBy.actor,
            detail: auditedBy.detail,
          });
        } catch (error) {
          // The files are imported (committed): the answer says so, and that their execution is for Run.
          request.log.error({ err: error }, 'the execution of an upload was not queued');
          result.errorMessages.push(UPLOAD_NOT_EXECUTED);
        }
      }
      return { ...result, execution };
    } catch (error) {
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        return {
          ids: [],
          errorMessages: [
            `The upload is larger than ${formatBytes(maxUploadBytes)}, the most accepted at once.`,
          ],
          warnings: [],
          execution: null,
        };
      }
      throw error;
    }
  };

  // Upload is for anyone who sees the ship (docs/decisions/0004-permissions.md), and for an API key of the ship's
  // organization with the files:upload scope. By default it queues the execution of the uploaded range.
  routes.post(
    '/api/algorithm/facilitydatasource/:id/file',
    {
      config: { apiKeyScopes: ['files:upload'] },
      schema: {
        tags,
        description:
          'Uploads one data file, or a .zip of them (multipart/form-data, field `file`; several `file` fields are imported together, each file answered on its own). The imported range is executed: the answer names the execution queued, or joined when one was waiting for the ship. Send `execute=false` to import only.',
        params: idParamSchema,
        querystring: uploadQuerySchema,
        response: { 200: uploadResponseSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const dataSource = await findVisibleDataSource(db, caller, request.params.id);
      // An API key uploads as its organization: no user imported the file.
      return upload(
        request,
        dataSource,
        caller.apiKey ? null : caller.userId,
        { actor: caller },
        request.query.execute,
      );
    },
  );

  // The same upload for the onboard uploader: `Bearer psdu_...` (an upload credential of one ship) instead of a
  // user's access token. A route constraint on the header picks this route, which does its own authentication.
  if (!app.hasConstraintStrategy(UPLOADER_CONSTRAINT.name)) app.addConstraintStrategy(UPLOADER_CONSTRAINT);
  server.post(
    '/api/algorithm/facilitydatasource/:id/file',
    {
      constraints: { uploader: 'psdu' },
      config: { public: true },
      schema: {
        hide: true,
        params: withIds(idParamSchema, 'id'),
        querystring: uploadQuerySchema,
        response: { 200: uploadResponseSchema },
      },
    },
    async (request) => {
      const credential = await resolveUploadCredential(db, request.headers.authorization);
      if (!credential)
        throw new AppError('UNAUTHORIZED', 'The upload credential is not valid or was revoked');
      const dataSource = await findFacilityDataSource(db, credential.facilityId, request.params.id);
      if (!dataSource) throw notFound('Data source not found');
      return upload(
        request,
        dataSource,
        null,
        { actor: { userId: null, organizationId: null }, detail: { by: 'uploader' } },
        request.query.execute,
      );
    },
  );

  routes.delete(
    '/api/algorithm/facilitydatasource/:id/file/:fileId',
    {
      schema: {
        tags,
        params: withIds(dataFileParamsSchema, 'id', 'fileId'),
        querystring: deleteDataFileQuerySchema,
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const dataSource = await findVisibleDataSource(db, caller, request.params.id);
      const { fileId } = request.params;
      const file = await findDataFile(db, dataSource.id, fileId);
      if (!file) throw notFound('File not found');
      const { deleteData } = request.query;
      await auditedChange(
        db,
        caller,
        // The cascade takes the original, the timestamps and every raw column of the file; the values derived from
        // its range go too, and the range is calculated again from the files that remain.
        (trx) => deleteDataFile(trx, app.services, dataSource.facility_id, file, deleteData),
        {
          action: 'datafile.delete',
          subject: file.id,
          detail: { facilityId: dataSource.facility_id, fileName: file.file_name, deleteData },
        },
      );
      // The original stored beside the database goes once the deletion is committed.
      if (deleteData)
        await app.services.database.originals.removeDeleted([
          { facilityId: dataSource.facility_id, dataFileId: file.id },
        ]);
      return reply.code(204).send();
    },
  );
}
