import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticatedRoutes, type WithCaller } from '../access/authenticated';
import { z } from 'zod';
import {
  channelAliasParamsSchema,
  channelAliasSchema,
  channelMappingListSchema,
  channelParamsSchema,
  dataSourceBodySchema,
  dataSourceChannelBodySchema,
  dataSourceChannelSchema,
  dataSourceReaderSchema,
  dataSourceSchemaResponse,
  facilityDataSourceParamsSchema,
  idParamSchema,
  importConfigurationBodySchema,
  importConfigurationResponseSchema,
  rawChannelSchema,
  suggestedMappingsQuerySchema,
  suggestedMappingsSchema,
  readerPreviewBodySchema,
  readerPreviewSchema,
  type DataSourceReader,
} from '@portal/contracts/datasources';
import { channelAliasBodySchema } from '@portal/contracts/forms';
import { badRequest, notFound } from '../../errors';
import { formatBytes, READER_DEFINITIONS, readerDefinition, type ReaderDefinition } from '../../readers';
import { withIds } from '../access/params';
import { assertFacilityVisible, requireManageOrganization, requireSystemAdmin } from '../access/policy';
import { findOrganization } from '../organizations/queries';
import { auditedChange } from '../audit/audit';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { JOB_NAMES, queueOf } from '../../jobs';
import {
  channelById,
  deleteChannel,
  deleteChannelAlias,
  listChannelAliases,
  findDataSourceChannel,
  findFacilityDataSource,
  findVisibleDataSource,
  listDataSources,
  sampleChannelsOf,
  toChannel,
} from './queries';
import { mappingsWithUse, ownerAliases, presentSuggestions, suggestionColumns } from './suggestions';
import { previewFileOf, previewReader } from './preview';
import {
  clearSampleFile,
  createChannel,
  createChannelAlias,
  createDataSource,
  deleteDataSource,
  importConfiguration,
  replaceChannels,
  saveSampleFile,
  updateChannel,
  updateDataSource,
} from './service';

const toReader = (r: ReaderDefinition): DataSourceReader => ({
  id: r.id,
  name: r.name,
  defaultConfiguration: JSON.stringify(r.defaultConfiguration, null, 2),
  acceptedFileExtensions: r.acceptedFileExtensions,
  acceptedFileExtensionsByComma: r.acceptedFileExtensions.join(','),
});

/** Sample files are small: the first rows of a logger file are enough to see its channels. */
const channelParams = withIds(channelParamsSchema, 'id', 'channelId');
const aliasParams = withIds(channelAliasParamsSchema, 'id', 'aliasId');

const SAMPLE_MAX_BYTES = 50 * 1024 * 1024;

const previewBody = withIds(readerPreviewBodySchema, 'dataSourceId', 'fileId');
const PREVIEW_DESCRIPTION =
  'The first 20 data rows of a file read with a reader configuration that need not be saved yet: the header, ' +
  'per row the timestamp read (UTC) and the values, and readable mistakes. The file is the sample file of ' +
  'dataSourceId or the uploaded data file fileId of the ship; .../preview/file takes a file sent along instead ' +
  '(multipart: a field `request` with this body as JSON text, then the file).';

const sampleTooLarge = () =>
  badRequest(`A sample file may have at most ${formatBytes(SAMPLE_MAX_BYTES)}; cut it to its first rows.`);

/** The one file of a multipart request, read into memory up to `max` bytes. */
export async function readSingleFile(
  request: FastifyRequest,
  max: number,
): Promise<{ fileName: string; content: Buffer }> {
  if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data');
  const part = await request.file({ limits: { fileSize: max } });
  if (!part) throw badRequest('No file was sent');
  const content = await part.toBuffer();
  return { fileName: part.filename, content };
}

export async function dataSourceRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  /** The ship's carbon ledger is derived again (a fuel flow's consumer or fuel type), in the change's transaction. */
  const queueLedger = (trx: Transaction<Database>, facilityId: string) =>
    queueOf(app.services).sendInTransaction(trx, JOB_NAMES.carbonLedger, { facilityId });
  const tags = ['data sources'];

  routes.get(
    '/api/algorithm/datasourcereader',
    { schema: { tags, response: { 200: z.array(dataSourceReaderSchema) } } },
    async () => READER_DEFINITIONS.map(toReader),
  );

  routes.get(
    '/api/algorithm/datasourcereader/:id',
    { schema: { tags, params: idParamSchema, response: { 200: dataSourceReaderSchema } } },
    async (request) => {
      const reader = readerDefinition(request.params.id);
      if (!reader) throw notFound('Reader not found');
      return toReader(reader);
    },
  );

  routes.get(
    '/api/algorithm/facility/:id/datasource',
    {
      // An uploader's key finds the data source to upload to.
      config: { apiKeyScopes: ['files:upload'] },
      schema: { tags, params: idParamSchema, response: { 200: z.array(dataSourceSchemaResponse) } },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return listDataSources(db, request.params.id);
    },
  );

  routes.post(
    '/api/algorithm/facility/:id/datasource',
    {
      schema: {
        tags,
        params: idParamSchema,
        body: dataSourceBodySchema,
        response: { 201: dataSourceSchemaResponse },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      await assertFacilityVisible(db, caller, request.params.id);
      requireSystemAdmin(caller);
      const id = await auditedChange(
        db,
        caller,
        (trx) => createDataSource(trx, request.params.id, request.body),
        (id) => ({
          action: 'datasource.create',
          subject: id,
          detail: { facilityId: request.params.id, name: request.body.name },
        }),
      );
      const [created] = await listDataSources(db, request.params.id, id);
      return reply.code(201).send(created!);
    },
  );

  routes.put(
    '/api/algorithm/facility/:id/datasource/:dataSourceId',
    {
      schema: {
        tags,
        params: facilityDataSourceParamsSchema,
        body: dataSourceBodySchema,
        response: { 200: dataSourceSchemaResponse },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id, dataSourceId } = request.params;
      const existing = await findFacilityDataSource(db, caller, id, dataSourceId);
      requireSystemAdmin(caller);
      await auditedChange(
        db,
        caller,
        (trx) => updateDataSource(trx, id, dataSourceId, request.body, existing.is_primary),
        {
          action: 'datasource.update',
          subject: dataSourceId,
          detail: { facilityId: id, name: request.body.name },
        },
      );
      const [updated] = await listDataSources(db, id, dataSourceId);
      return updated!;
    },
  );

  routes.delete(
    '/api/algorithm/facility/:id/datasource/:dataSourceId',
    { schema: { tags, params: facilityDataSourceParamsSchema } },
    async (request, reply) => {
      const { caller } = request;
      const { id, dataSourceId } = request.params;
      const existing = await findFacilityDataSource(db, caller, id, dataSourceId);
      requireSystemAdmin(caller);
      const files = await auditedChange(db, caller, (trx) => deleteDataSource(trx, id, dataSourceId), {
        action: 'datasource.delete',
        subject: dataSourceId,
        detail: { facilityId: id, name: existing.name },
      });
      await app.services.database.originals.removeDeleted(files);
      return reply.code(204).send();
    },
  );

  routes.delete(
    '/api/algorithm/facility/:id/datasource/:dataSourceId/samplefileandsamplechannels',
    { schema: { tags, params: facilityDataSourceParamsSchema } },
    async (request, reply) => {
      const { caller } = request;
      const { id, dataSourceId } = request.params;
      await findFacilityDataSource(db, caller, id, dataSourceId);
      requireSystemAdmin(caller);
      await clearSampleFile(db, dataSourceId);
      return reply.code(204).send();
    },
  );

  routes.put(
    '/api/algorithm/facility/:id/datasource/:dataSourceId/SampleFile',
    {
      schema: { tags, params: facilityDataSourceParamsSchema, response: { 200: z.array(rawChannelSchema) } },
    },
    async (request) => {
      const { caller } = request;
      const { id, dataSourceId } = request.params;
      const dataSource = await findFacilityDataSource(db, caller, id, dataSourceId);
      requireSystemAdmin(caller);
      let file;
      try {
        file = await readSingleFile(request, SAMPLE_MAX_BYTES);
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw sampleTooLarge();
        throw error;
      }
      return saveSampleFile(db, dataSource, file);
    },
  );

  routes.post(
    '/api/algorithm/facility/:id/datasource/preview',
    {
      schema: {
        tags,
        description: PREVIEW_DESCRIPTION,
        params: idParamSchema,
        body: previewBody,
        response: { 200: readerPreviewSchema },
      },
    },
    async (request) => {
      const { caller, body } = request;
      await assertFacilityVisible(db, caller, request.params.id);
      requireSystemAdmin(caller);
      const file = await previewFileOf(db, app.services.database.originals, request.params.id, body);
      return previewReader(file, body);
    },
  );

  routes.post(
    '/api/algorithm/facility/:id/datasource/preview/file',
    {
      schema: {
        tags,
        description: PREVIEW_DESCRIPTION,
        consumes: ['multipart/form-data'],
        params: idParamSchema,
        response: { 200: readerPreviewSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      await assertFacilityVisible(db, caller, request.params.id);
      requireSystemAdmin(caller);
      if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data');
      const part = await request.file({ limits: { fileSize: SAMPLE_MAX_BYTES } });
      if (!part) throw badRequest('No file was sent');
      const field = part.fields.request;
      const text = field && !Array.isArray(field) && field.type === 'field' ? String(field.value) : null;
      if (text === null) throw badRequest('Send the preview request as the field request, before the file');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw badRequest('The field request must be valid JSON');
      }
      const body = previewBody.parse(json);
      let content: Buffer;
      try {
        content = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw sampleTooLarge();
        throw error;
      }
      return previewReader({ fileName: part.filename, content }, body);
    },
  );

  routes.get(
    '/api/algorithm/facilitydatasource/:id/samplechannels',
    { schema: { tags, params: idParamSchema, response: { 200: z.array(rawChannelSchema) } } },
    async (request) => {
      const dataSource = await findVisibleDataSource(db, request.caller, request.params.id);
      return sampleChannelsOf(dataSource);
    },
  );

  routes.get(
    '/api/algorithm/facilitydatasource/:id/facilitydatasourcechannels',
    { schema: { tags, params: idParamSchema, response: { 200: z.array(dataSourceChannelSchema) } } },
    async (request) => {
      const dataSource = await findVisibleDataSource(db, request.caller, request.params.id);
      const [listed] = await listDataSources(db, dataSource.facility_id, dataSource.id);
      return listed?.channels ?? [];
    },
  );

  routes.post(
    '/api/algorithm/facilitydatasource/:id/facilitydatasourcechannels',
    {
      schema: {
        tags,
        params: idParamSchema,
        body: dataSourceChannelBodySchema,
        response: { 201: dataSourceChannelSchema },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const dataSource = await findVisibleDataSource(db, caller, request.params.id);
      requireSystemAdmin(caller);
      const created = await auditedChange(
        db,
        caller,
        async (trx) => {
          const made = await createChannel(trx, dataSource, request.body);
          if (made.fuel.consumer !== null) await queueLedger(trx, dataSource.facility_id);
          return made;
        },
        ({ id, fuel }) => ({
          action: 'channel.create',
          subject: id,
          detail: {
            facilityId: dataSource.facility_id,
            dataSourceId: dataSource.id,
            name: request.body.name,
            source: request.body.source,
            ...(fuel.consumer !== null ? { fuel } : {}),
          },
        }),
      );
      const row = await channelById(db, created.id);
      return reply.code(201).send(toChannel(row, dataSource.name));
    },
  );

  routes.put(
    '/api/algorithm/facilitydatasource/:id/facilitydatasourcechannels',
    {
      schema: {
        tags,
        description:
          "Replaces the data source's channel mappings with the list, in one transaction: an item with the id of a " +
          'mapping keeps that mapping (and the calculations that read it), an item without an id is added, a mapping ' +
          'the list leaves out is removed (the audit entry names it). An item with the id of a mapping an earlier ' +
          'list removed brings it back with that id (Undo). The list is checked as a whole; a 400 names every ' +
          "problem by index ('3.name') and changes nothing.",
        params: idParamSchema,
        body: channelMappingListSchema,
        response: { 200: z.array(dataSourceChannelSchema) },
      },
    },
    async (request) => {
      const { caller } = request;
      const dataSource = await findVisibleDataSource(db, caller, request.params.id);
      requireSystemAdmin(caller);
      await auditedChange(
        db,
        caller,
        async (trx) => {
          const change = await replaceChannels(trx, dataSource, request.body);
          if (change.added + change.changed + change.removed + change.restored > 0)
            await queueLedger(trx, dataSource.facility_id);
          return change;
        },
        (change) => ({
          action: 'channel.replace',
          subject: dataSource.id,
          detail: { facilityId: dataSource.facility_id, ...change },
        }),
      );
      const [listed] = await listDataSources(db, dataSource.facility_id, dataSource.id);
      return listed?.channels ?? [];
    },
  );

  routes.get(
    '/api/algorithm/facilitydatasource/:id/suggested-mappings',
    {
      schema: {
        tags,
        description:
          "Proposes a column of the file for every measurement field the ship's approved calculations read from " +
          'this data source (every known field when none is read yet), by known and organization aliases, name ' +
          'similarity, unit and the range of the values. The columns come from the uploaded file `fileId`, else ' +
          'the sample file, else the latest uploaded file.',
        params: idParamSchema,
        querystring: withIds(suggestedMappingsQuerySchema, 'fileId'),
        response: { 200: suggestedMappingsSchema },
      },
    },
    async (request) => {
      const dataSource = await findVisibleDataSource(db, request.caller, request.params.id);
      const [{ fileName, columns }, mappings, { organizationId, aliases }] = await Promise.all([
        suggestionColumns(db, app.services.database.originals, dataSource, request.query.fileId),
        mappingsWithUse(db, dataSource),
        ownerAliases(db, dataSource.facility_id),
      ]);
      return presentSuggestions({ fileName, organizationId, columns, mappings, aliases });
    },
  );

  routes.get(
    '/api/organizations/:id/channel-aliases',
    {
      schema: {
        tags,
        description:
          "The organization's own names of logger columns per measurement field (suggested mappings).",
        params: idParamSchema,
        response: { 200: z.array(channelAliasSchema) },
      },
    },
    async (request) => {
      requireManageOrganization(request.caller, request.params.id);
      await findOrganization(db, request.params.id);
      const rows = await listChannelAliases(db, request.params.id);
      return rows;
    },
  );

  routes.post(
    '/api/organizations/:id/channel-aliases',
    {
      schema: {
        tags,
        params: idParamSchema,
        body: channelAliasBodySchema,
        response: { 201: channelAliasSchema },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const organizationId = request.params.id;
      requireManageOrganization(caller, organizationId);
      await findOrganization(db, organizationId);
      const id = await auditedChange(
        db,
        caller,
        (trx) => createChannelAlias(trx, organizationId, caller.userId, request.body),
        (id) => ({
          action: 'channel-alias.create',
          subject: id,
          detail: { organizationId, field: request.body.field, alias: request.body.alias },
        }),
      );
      const [created] = (await listChannelAliases(db, organizationId)).filter((a) => a.id === id);
      return reply.code(201).send(created!);
    },
  );

  routes.delete(
    '/api/organizations/:id/channel-aliases/:aliasId',
    { schema: { tags, params: aliasParams } },
    async (request, reply) => {
      const { caller } = request;
      const { id: organizationId, aliasId } = request.params;
      requireManageOrganization(caller, organizationId);
      await findOrganization(db, organizationId);
      const alias = (await listChannelAliases(db, organizationId)).find((a) => a.id === aliasId);
      if (!alias) throw notFound('Alias not found');
      await auditedChange(db, caller, (trx) => deleteChannelAlias(trx, aliasId), {
        action: 'channel-alias.delete',
        subject: aliasId,
        detail: { organizationId, field: alias.field, alias: alias.alias },
      });
      return reply.code(204).send();
    },
  );

  const findChannel = async (
    request: WithCaller<FastifyRequest<{ Params: z.infer<typeof channelParams> }>>,
  ) => {
    const { caller } = request;
    const dataSource = await findVisibleDataSource(db, caller, request.params.id);
    const channelId = request.params.channelId;
    const row = await findDataSourceChannel(db, dataSource.id, channelId);
    if (!row) throw notFound('Channel not found');
    requireSystemAdmin(caller);
    return { dataSource, row };
  };

  routes.put(
    '/api/algorithm/facilitydatasource/:id/facilitydatasourcechannels/:channelId',
    {
      schema: {
        tags,
        params: channelParams,
        body: dataSourceChannelBodySchema,
        response: { 200: dataSourceChannelSchema },
      },
    },
    async (request) => {
      const { dataSource, row } = await findChannel(request);
      await auditedChange(
        db,
        request.caller,
        async (trx) => {
          const fuel = await updateChannel(trx, row, request.body);
          if (Object.keys(fuel).length > 0 || row.consumer !== null) await queueLedger(trx, row.facility_id);
          return fuel;
        },
        (fuel) => ({
          action: 'channel.update',
          subject: row.id,
          detail: {
            facilityId: row.facility_id,
            dataSourceId: row.data_source_id,
            name: request.body.name,
            // The fuel attributes that changed, each with its value before and after.
            ...(Object.keys(fuel).length > 0 ? { fuel } : {}),
          },
        }),
      );
      const updated = await channelById(db, row.id);
      return toChannel(updated, dataSource.name);
    },
  );

  routes.delete(
    '/api/algorithm/facilitydatasource/:id/facilitydatasourcechannels/:channelId',
    { schema: { tags, params: channelParams } },
    async (request, reply) => {
      const { row } = await findChannel(request);
      await auditedChange(db, request.caller, (trx) => deleteChannel(trx, row), {
        action: 'channel.delete',
        subject: row.id,
        detail: { facilityId: row.facility_id, dataSourceId: row.data_source_id, name: row.name },
      });
      return reply.code(204).send();
    },
  );

  routes.put(
    '/api/algorithm/facilities/:id/configurations',
    {
      schema: {
        tags,
        params: idParamSchema,
        body: importConfigurationBodySchema,
        response: { 200: importConfigurationResponseSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      const { sourceFacilityId, validFrom } = request.body;
      await assertFacilityVisible(db, caller, id);
      await assertFacilityVisible(db, caller, sourceFacilityId);
      requireSystemAdmin(caller);
      if (sourceFacilityId === id)
        throw badRequest('Choose another ship to copy from', {
          sourceFacilityId: 'Choose another ship to copy from',
        });
      const result = await auditedChange(
        db,
        caller,
        (trx) => importConfiguration(trx, id, sourceFacilityId, validFrom ? new Date(validFrom) : null),
        (result) => ({
          action: 'facility.import-configuration',
          subject: id,
          detail: { sourceFacilityId, ...result },
        }),
      );
      return result;
    },
  );
}
