import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
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
import type { ReportData } from '@portal/contracts/reports';
import type { UptimeMode } from '@portal/contracts/rules';
import { badRequest, notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { withIds } from '../access/params';
import { requireSystemAdmin } from '../access/policy';
import { auditedChange, auditEvent } from '../audit/audit';
import { AnswerCache, reportsVersion } from './cache';
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
import { deleteReportValues } from './service';
import { sanitizeInformation } from './sanitize';
import { reportFieldValueSources } from './sources';
import { reportData, sharedPartials, type Partial } from './values';

const MAX_HOURLY_DAYS = 400;

/** Report definitions (configurator), report values (dashboards), deleting values and exports. */
export async function reportRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  // Answers as sent (JSON bytes), and the partial sums the reports of a dashboard share.
  const answerEntries = app.config.REPORT_DATA_CACHE_ENTRIES;
  /** False with REPORT_DATA_CACHE_ENTRIES=0: every answer is computed afresh (the bench's uncached path). */
  const cacheEnabled = answerEntries > 0;
  const answers = new AnswerCache<Buffer>(answerEntries);
  const partials = new AnswerCache<Promise<Map<string, Partial>>>(200);
  const definitions = new AnswerCache<Promise<Definitions>>(100);
  type Definitions = {
    report: NonNullable<Awaited<ReturnType<typeof findReport>>> | undefined;
    fields: Awaited<ReturnType<typeof reportFields>>;
    sourceOf: Map<string, string>;
  };
  const definitionsOf = (version: string, id: string) => {
    const key = `${version}|${id}`;
    let value = definitions.get(key);
    if (!value) {
      value = Promise.all([findReport(db, id), reportFields(db, id), reportFieldValueSources(db)]).then(
        ([report, fields, sources]) => ({ report, fields, sourceOf: sources.sourceOf }),
      );
      value.catch(() => definitions.clear());
      definitions.set(key, value);
    }
    return value;
  };

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

  // The ships a caller sees, per access version (features/auth/verify.ts): any change of access makes a new key.
  const fleets = new AnswerCache<Promise<Awaited<ReturnType<typeof visibleFleet>>>>(answerEntries);
  const visibleFleetOf = (caller: Caller, ids: string[] | undefined) => {
    if (!caller.accessVersion) return visibleFleet(db, caller, ids);
    const key = JSON.stringify([
      caller.accessVersion,
      caller.userId,
      caller.role,
      caller.organizationId,
      ids ?? null,
    ]);
    let value = fleets.get(key);
    if (!value) {
      value = visibleFleet(db, caller, ids);
      value.catch(() => fleets.clear());
      fleets.set(key, value);
    }
    return value;
  };

  type DataInput = {
    from: string;
    to: string;
    facilityId?: string;
    facilityIds?: string[];
    duration?: UptimeMode;
  };

  /**
   * The ETag of an answer, known before any of it is computed: it names the version of everything report answers
   * depend on (values, calculations, fields, texts), the caller's access version (role, organization, the ships
   * it sees: any change moves it) and the request. So a browser that holds the answer gets its 304 after two
   * cached version reads and a hash, in any process. Undefined for a caller without an access version (the answer
   * then carries no ETag).
   */
  const etagOf = (caller: Caller, version: string, id: string | string[], input: DataInput) =>
    caller.accessVersion === undefined
      ? undefined
      : `"${createHash('sha1')
          .update(
            JSON.stringify([
              version,
              caller.accessVersion,
              caller.userId,
              id,
              input.facilityId ?? null,
              input.facilityIds ?? null,
              input.from,
              input.to,
              input.duration ?? null,
            ]),
          )
          .digest('base64url')}"`;

  const answer = async (caller: Caller, version: string, id: string, input: DataInput): Promise<Buffer> => {
    const { report, fields, sourceOf } = await definitionsOf(version, id);
    if (!report) throw notFound('Report not found');
    const from = new Date(input.from);
    const to = new Date(input.to);
    if (from.getTime() > to.getTime())
      throw badRequest('From must be before to', { to: 'From must be before to' });
    if (input.duration === 'hourly' && to.getTime() - from.getTime() > MAX_HOURLY_DAYS * 86_400_000) {
      throw badRequest(`Hourly values for at most ${MAX_HOURLY_DAYS} days`, {
        duration: 'Use daily for this period',
      });
    }
    const facilityId = input.facilityId ?? null;
    if (!facilityId && report.target === 'Facility')
      throw badRequest('facilityId is required for a ship report', { facilityId: 'Required' });
    // A fleet report asked for one ship covers that ship; otherwise the posted ships, or all the caller sees.
    const fleetIds =
      report.target === 'FacilityGroup' && facilityId && !input.facilityIds
        ? [facilityId]
        : input.facilityIds;
    // One query for the fleet and the ship of a ship report: the visible ships among both.
    const visible = await visibleFleetOf(
      caller,
      fleetIds && facilityId ? [...fleetIds, facilityId] : fleetIds,
    );
    if (facilityId && !visible.some((f) => f.id === facilityId)) throw notFound('Ship not found');
    const fleet = visible.filter((f) => !fleetIds || fleetIds.includes(f.id)).map((f) => f.id);
    // Shared by every caller who sees the same ships: the key holds them, so an answer never goes beyond them.
    const key = createHash('sha1')
      .update(
        JSON.stringify([
          version,
          id,
          facilityId,
          fleet,
          from.getTime(),
          to.getTime(),
          input.duration ?? null,
        ]),
      )
      .digest('base64url');
    const cached = answers.get(key);
    if (cached) return cached;
    const data: ReportData = await reportData(db, {
      report: { id: report.id, target: report.target, information: report.information },
      fields,
      sourceOf,
      facilityId,
      fleet,
      from,
      to,
      duration: input.duration,
      // Without the cache each report aggregates only its own fields (nothing to share the others with).
      partials: cacheEnabled
        ? sharedPartials(db, version, [...new Set(sourceOf.values())], partials)
        : undefined,
    });
    const body = Buffer.from(JSON.stringify(reportDataSchema.parse(data)));
    answers.set(key, body);
    return body;
  };

  /**
   * 304 when the browser holds the answer already (checked before anything is read for it), otherwise the answer.
   * `private, no-cache`: only the browser keeps it, and asks again (with If-None-Match) on every use.
   */
  const send = async (request: WithCaller, reply: FastifyReply, id: string, input: DataInput) => {
    const { caller } = request;
    const version = await reportsVersion(db);
    const etag = etagOf(caller, version, id, input);
    const headers = { 'cache-control': 'private, no-cache', ...(etag ? { etag } : {}) };
    if (etag && request.headers['if-none-match'] === etag) return reply.code(304).headers(headers).send();
    const body = await answer(caller, version, id, input);
    return reply.headers(headers).type('application/json; charset=utf-8').send(body);
  };

  /**
   * Several reports with the same parameters as one answer, `{"reports":{"<id>":<data>,…}}`, built from the answers
   * each report would get alone (and their cache), under one ETag. Any report or ship that is not found makes the
   * whole request not found, with the single report's text.
   */
  const sendMany = async (request: WithCaller, reply: FastifyReply, ids: string[], input: DataInput) => {
    const { caller } = request;
    const unique = [...new Set(ids)];
    const version = await reportsVersion(db);
    const etag = etagOf(caller, version, unique, input);
    const headers = { 'cache-control': 'private, no-cache', ...(etag ? { etag } : {}) };
    if (etag && request.headers['if-none-match'] === etag) return reply.code(304).headers(headers).send();
    const bodies = await Promise.all(unique.map((id) => answer(caller, version, id, input)));
    const parts: Buffer[] = [Buffer.from('{"reports":{')];
    unique.forEach((id, i) => {
      parts.push(Buffer.from(`${i === 0 ? '' : ','}${JSON.stringify(id)}:`), bodies[i]!);
    });
    parts.push(Buffer.from('}}'));
    return reply.headers(headers).type('application/json; charset=utf-8').send(Buffer.concat(parts));
  };

  routes.get(
    '/api/reports/data',
    {
      config: { apiKeyScopes: ['reports:read'] },
      schema: {
        tags: ['reports'],
        querystring: withIds(reportsDataQuerySchema, 'facilityId'),
        response: { 200: reportsDataSchema },
      },
    },
    async (request, reply) => sendMany(request, reply, request.query.reportIds, request.query),
  );

  routes.post(
    '/api/reports/data',
    {
      config: { apiKeyScopes: ['reports:read'] },
      schema: {
        tags: ['reports'],
        body: withIds(reportsDataBodySchema, 'facilityId'),
        response: { 200: reportsDataSchema },
      },
    },
    async (request, reply) => sendMany(request, reply, request.body.reportIds, request.body),
  );

  routes.get(
    '/api/reports/:id/data',
    {
      config: { apiKeyScopes: ['reports:read'] },
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
      config: { apiKeyScopes: ['reports:read'] },
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
