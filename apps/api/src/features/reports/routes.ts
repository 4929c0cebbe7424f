import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { authenticatedRoutes, type WithCaller } from '../access/authenticated';
import { z } from 'zod';
import {
  deleteReportValuesQuerySchema,
  deleteReportValuesResponseSchema,
  reportDataBodySchema,
  reportDataQuerySchema,
  reportDataSchema,
  reportIdParamsSchema,
  reportListItemSchema,
  reportsDataBodySchema,
  reportsDataQuerySchema,
  reportsDataSchema,
  reportSchema,
  updateReportBodySchema,
} from '@portal/contracts/reports';
import { EXPORT_FILE_NAME, exportBodySchema } from '@portal/contracts/exports';
import { badRequest, notFound } from '../../errors';
import { withIds } from '../access/params';
import { requireSystemAdmin } from '../access/policy';
import { auditedChange, auditEvent } from '../audit/audit';
import { deleteReportValues } from '../../storage';
import { exportWorkbook } from './export';
import {
  facilityExists,
  findReport,
  listReports,
  reportDetail,
  reportFields,
  updateReportInformation,
  visibleFleet,
} from './queries';
import { sanitizeInformation } from './sanitize';
import { reportFieldValueSources } from './sources';
import { reportAnswers, sendAnswer, type ReportDataInput } from './report-data';

/** Report definitions (configurator), report values (dashboards), deleting values and exports. */
export async function reportRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  // The dashboards' answers with their caches, one per process (report-data.ts).
  const data = reportAnswers({ cacheEntries: app.config.REPORT_DATA_CACHE_ENTRIES });

  routes.get(
    '/api/algorithm/reports',
    { schema: { tags: ['reports'], response: { 200: z.array(reportListItemSchema) } } },
    async (request) => {
      requireSystemAdmin(request.caller);
      return listReports(db);
    },
  );

  routes.get(
    '/api/algorithm/reports/:id',
    { schema: { tags: ['reports'], params: reportIdParamsSchema, response: { 200: reportSchema } } },
    async (request) => {
      requireSystemAdmin(request.caller);
      const report = await reportDetail(db, request.params.id);
      if (!report) throw notFound('Report not found');
      return report;
    },
  );

  routes.put(
    '/api/algorithm/reports/:id/update-report',
    {
      schema: {
        tags: ['reports'],
        params: reportIdParamsSchema,
        body: updateReportBodySchema,
        response: { 200: reportSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const { id } = request.params;
      const information = sanitizeInformation(request.body.information);
      await auditedChange(db, caller, (trx) => updateReportInformation(trx, id, information), {
        action: 'report.update',
        subject: id,
      });
      return (await reportDetail(db, id))!;
    },
  );

  /**
   * One report's answer (an id) or several as one (ids, each once): 304 when the browser holds the answer already
   * (its ETag is checked before anything is read for it), otherwise the answer. `private, no-cache`: only the
   * browser keeps it, and asks again (with If-None-Match) on every use.
   */
  const send = async (
    request: WithCaller & { reads: Kysely<Database> },
    reply: FastifyReply,
    ids: string | string[],
    input: ReportDataInput,
  ) => {
    const { caller, reads } = request;
    const unique = typeof ids === 'string' ? ids : [...new Set(ids)];
    const version = await data.version(reads);
    const etag = data.etag(caller, version, unique, input);
    return sendAnswer(request, reply, etag, () =>
      typeof unique === 'string'
        ? data.answer(reads, caller, version, unique, input)
        : data.answers(reads, caller, version, unique, input),
    );
  };

  routes.get(
    '/api/reports/data',
    {
      config: { apiKeyScopes: ['reports:read'], reads: 'replica' },
      schema: {
        tags: ['reports'],
        querystring: withIds(reportsDataQuerySchema, 'facilityId'),
        response: { 200: reportsDataSchema },
      },
    },
    async (request, reply) => send(request, reply, request.query.reportIds, request.query),
  );

  routes.post(
    '/api/reports/data',
    {
      config: { apiKeyScopes: ['reports:read'], reads: 'replica' },
      schema: {
        tags: ['reports'],
        body: withIds(reportsDataBodySchema, 'facilityId'),
        response: { 200: reportsDataSchema },
      },
    },
    async (request, reply) => send(request, reply, request.body.reportIds, request.body),
  );

  routes.get(
    '/api/reports/:id/data',
    {
      config: { apiKeyScopes: ['reports:read'], reads: 'replica' },
      schema: {
        tags: ['reports'],
        params: reportIdParamsSchema,
        querystring: withIds(reportDataQuerySchema, 'facilityId'),
        response: { 200: reportDataSchema },
      },
    },
    async (request, reply) => send(request, reply, request.params.id, request.query),
  );

  routes.post(
    '/api/reports/:id/data',
    {
      config: { apiKeyScopes: ['reports:read'], reads: 'replica' },
      schema: {
        tags: ['reports'],
        params: reportIdParamsSchema,
        body: withIds(reportDataBodySchema, 'facilityId'),
        response: { 200: reportDataSchema },
      },
    },
    async (request, reply) => send(request, reply, request.params.id, request.body),
  );

  routes.delete(
    '/api/algorithm/reports/values',
    {
      schema: {
        tags: ['reports'],
        querystring: withIds(deleteReportValuesQuerySchema, 'facilityId'),
        response: { 200: deleteReportValuesResponseSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const { facilityId } = request.query;
      const from = new Date(request.query.from);
      const to = new Date(request.query.to);
      if (from.getTime() > to.getTime())
        throw badRequest('From must be before to', { to: 'From must be before to' });
      const facility = await facilityExists(db, facilityId);
      if (!facility) throw notFound('Ship not found');
      const deleted = await auditedChange(
        db,
        caller,
        (trx) => deleteReportValues(trx, facilityId, from, to),
        (deleted) => ({ action: 'report-values.delete', subject: facilityId, detail: { from, to, deleted } }),
      );
      return { deleted };
    },
  );

  routes.post(
    '/api/algorithm/exports',
    { schema: { tags: ['reports'], body: exportBodySchema } },
    async (request, reply) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const { reportCode, fieldNames, facilityIds, from, to, resolution, fullPrecision } = request.body;
      const report = await findReport(db, reportCode);
      if (!report) throw notFound('Report not found');
      const allFields = await reportFields(db, reportCode);
      const unknown = (fieldNames ?? []).filter((n) => !allFields.some((f) => f.name === n));
      if (unknown.length)
        throw badRequest(`Unknown field ${unknown.join(', ')}`, {
          fieldNames: `Unknown field ${unknown.join(', ')}`,
        });
      const sources = await reportFieldValueSources(db);
      const sourceOf = (f: (typeof allFields)[number]) => sources.sourceOf.get(f.id) ?? f.id;
      // Without a choice, one column per distinct hourly series: the lifetime and per-ship variants of the same values would repeat it.
      const chosen = fieldNames?.length
        ? allFields.filter((f) => fieldNames.includes(f.name))
        : allFields.filter((f, i) => allFields.findIndex((g) => sourceOf(g) === sourceOf(f)) === i);
      const ships = await visibleFleet(db, caller, facilityIds);
      if (ships.length === 0) throw notFound('Ship not found');
      await auditEvent(db, caller, {
        action: 'report.export',
        subject: reportCode,
        detail: { from, to, resolution, ships: ships.length },
      });
      const stream = exportWorkbook(db, {
        report,
        fields: chosen,
        sourceOf: sources.sourceOf,
        ships,
        from: new Date(from),
        to: new Date(to),
        resolution,
        fullPrecision,
      });
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${EXPORT_FILE_NAME}"`)
        .send(stream);
    },
  );
}
