import type { FastifyInstance } from 'fastify';
import { authenticatedRoutes } from '../access/authenticated';
import { z } from 'zod';
import {
  deleteValuesQuerySchema,
  deleteValuesResponseSchema,
  executeBodySchema,
  executeResponseSchema,
  measurementRecalculationQuerySchema,
  recalculationActionResponseSchema,
  recalculationIdsSchema,
  recalculationRequestSchema,
  reportRecalculationQuerySchema,
  RECALCULATION_KINDS,
  type RecalculationKind,
  type RecalculationRequest,
} from '@portal/contracts/execution';
import { CALCULATION_TEXTS } from '@portal/contracts/calculations';
import { badRequest } from '../../errors';
import { assertFacilityVisible, isUuid, requireSystemAdmin } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { deleteMeasurementValues } from '../../storage';
import { enqueueExecution, enqueueRecalculation, removeCancelledRecalculations } from './derived';
import { brokenCalculations } from '../calculations/validation';
import {
  cancelRecalculations,
  facilityDataFiles,
  loadPending,
  markRecalculationsQueued,
  measurementRecalculations,
  removeRecalculations,
  reportRecalculations,
} from './queries';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const jobKind = (kind: RecalculationKind) =>
  kind === 'measurement-fields' ? ('measurement-field' as const) : ('report-field' as const);
/** Longest period one execute request may cover. */
const MAX_PERIOD_DAYS = 5 * 366;

/** Execute, the recalculation queue and the measurement field values delete (spec part 1 section 4, part 2 sections 4 and 7). */
export async function executeRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  routes.post(
    '/api/algorithm/calculations/measurement-field/execute',
    { schema: { tags: ['executions'], body: executeBodySchema, response: { 202: executeResponseSchema } } },
    async (request, reply) => {
      const { caller } = request;
      const { facilityId, from, to, facilityDataSourceFileIds } = request.body;
      await assertFacilityVisible(db, caller, facilityId);
      const fromDate = new Date(from);
      const toDate = new Date(to);
      if (toDate.getTime() - fromDate.getTime() > MAX_PERIOD_DAYS * 86_400_000)
        throw badRequest(`The period may be at most ${MAX_PERIOD_DAYS} days`, {
          to: `At most ${MAX_PERIOD_DAYS} days after from`,
        });
      const fileIds = [...new Set(facilityDataSourceFileIds)];
      const files = fileIds.every(isUuid) ? await facilityDataFiles(db, facilityId, fileIds) : [];
      if (files.length !== fileIds.length)
        throw badRequest('A selected file does not belong to the ship', {
          facilityDataSourceFileIds: 'A selected file does not belong to the ship',
        });
      const id = await auditedChange(
        db,
        caller,
        (trx) =>
          enqueueExecution(
            app.services,
            { facilityId, from: fromDate, to: toDate, dataFileIds: fileIds, requestedBy: caller.userId },
            trx,
          ),
        (id) => ({
          action: 'execution.request',
          subject: id,
          detail: { facilityId, from, to, files: fileIds.length },
        }),
      );
      return reply.code(202).send({ id, state: 'queued' as const });
    },
  );

  routes.get(
    '/api/algorithm/calculations/measurement-fields',
    {
      schema: {
        tags: ['recalculation'],
        querystring: measurementRecalculationQuerySchema,
        response: { 200: z.array(recalculationRequestSchema) },
      },
    },
    async (request) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const { facilityId, recalculationRequested } = request.query;
      await assertFacilityVisible(db, caller, facilityId);
      const rows = await measurementRecalculations(db, facilityId, recalculationRequested);
      return rows.map((r): RecalculationRequest => ({
        id: r.id,
        fieldName: r.field_name,
        reportName: null,
        version: r.version,
        revision: r.revision,
        recalculationRequestedOn: iso(r.recalculation_requested_on),
        recalculationQueuedOn: iso(r.recalculation_queued_on),
      }));
    },
  );

  routes.get(
    '/api/algorithm/calculations/report-fields',
    {
      schema: {
        tags: ['recalculation'],
        querystring: reportRecalculationQuerySchema,
        response: { 200: z.array(recalculationRequestSchema) },
      },
    },
    async (request) => {
      requireSystemAdmin(request.caller);
      const rows = await reportRecalculations(db, request.query.recalculationRequested);
      return rows.map((r): RecalculationRequest => ({
        id: r.id,
        fieldName: r.field_name,
        reportName: r.report_name,
        version: r.version,
        revision: r.revision,
        recalculationRequestedOn: iso(r.recalculation_requested_on),
        recalculationQueuedOn: iso(r.recalculation_queued_on),
      }));
    },
  );

  for (const kind of RECALCULATION_KINDS) {
    const base = `/api/algorithm/calculations/${kind}/recalculation`;
    const schema = {
      tags: ['recalculation'],
      body: recalculationIdsSchema,
      response: { 200: recalculationActionResponseSchema },
    };

    // Remove from queue: requested, not queued -> no recalculation.
    routes.delete(base, { schema }, async (request) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const rows = await loadPending(db, kind, request.body.ids);
      if (rows.some((r) => r.recalculation_queued_on))
        throw badRequest('A queued recalculation cannot be removed; cancel its execution first', {
          ids: 'A selected recalculation is queued',
        });
      const count = await auditedChange(
        db,
        caller,
        (trx) =>
          removeRecalculations(
            trx,
            kind,
            rows.map((r) => r.id),
          ),
        { action: 'recalculation.remove', detail: { kind, ids: request.body.ids } },
      );
      return { count };
    });

    // Cancel execution: queued -> requested again.
    routes.post(`${base}/cancel`, { schema }, async (request) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const rows = await loadPending(db, kind, request.body.ids);
      if (rows.some((r) => !r.recalculation_queued_on))
        throw badRequest('Only queued recalculations can be cancelled', {
          ids: 'A selected recalculation is not queued',
        });
      const count = await auditedChange(
        db,
        caller,
        async (trx) => {
          const ids = rows.map((r) => r.id);
          const cancelled = await cancelRecalculations(trx, kind, ids);
          await removeCancelledRecalculations(trx, jobKind(kind), ids);
          return cancelled;
        },
        { action: 'recalculation.cancel', detail: { kind, ids: request.body.ids } },
      );
      return { count };
    });

    // Execute: requested -> queued, and one job recomputes them.
    routes.post(`${base}/execute`, { schema }, async (request) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const rows = await loadPending(db, kind, request.body.ids);
      if (rows.some((r) => r.recalculation_queued_on))
        throw badRequest('A selected recalculation is queued already', {
          ids: 'A selected recalculation is queued already',
        });
      const ids = rows.map((r) => r.id);
      // Never queue broken code: a calculation saved as a draft with errors stays requested until it is fixed.
      const broken = await brokenCalculations(db, jobKind(kind), ids, (error) =>
        app.log.error({ err: error }, 'calculation evaluation failed'),
      );
      if (broken.length)
        throw badRequest(
          `${CALCULATION_TEXTS.notQueuedWithErrors}: ${broken.map((b) => `${b.fieldName}: ${b.error.message}`).join('; ')}`,
          { ids: 'A selected calculation has errors' },
        );
      const count = await auditedChange(
        db,
        caller,
        async (trx) => {
          const queued = await markRecalculationsQueued(trx, kind, ids);
          // Its execution rows (queued) commit with it: the processing status lists them at once.
          await enqueueRecalculation(app.services, trx, { kind: jobKind(kind), calculationIds: ids });
          return queued;
        },
        { action: 'recalculation.execute', detail: { kind, ids } },
      );
      return { count };
    });
  }

  routes.delete(
    '/api/algorithm/measurement-fields/values',
    {
      schema: {
        tags: ['measurement-fields'],
        querystring: deleteValuesQuerySchema,
        response: { 200: deleteValuesResponseSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const { facilityId, from, to } = request.query;
      await assertFacilityVisible(db, caller, facilityId);
      const measurementChunks = await auditedChange(
        db,
        caller,
        (trx) => deleteMeasurementValues(trx, facilityId, new Date(from), new Date(to)),
        { action: 'measurement-values.delete', subject: facilityId, detail: { from, to } },
      );
      return { measurementChunks };
    },
  );
}
