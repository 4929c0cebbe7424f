import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  DEFAULT_DATA_HEALTH_THRESHOLDS,
  HEALTH_SUMMARY_DAYS,
  MAX_HEALTH_PERIOD_DAYS,
  dataHealthQuerySchema,
  dataHealthSchema,
  dataHealthSummarySchema,
  dataHealthThresholdEntrySchema,
  dataHealthThresholdsBodySchema,
} from '@portal/contracts/data-health';
import { DAY_MS } from '@portal/contracts/rules';
import { badRequest, notFound } from '../../errors';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { isSystemAdmin, requireManageOrganization } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { organizationExists } from '../facilities/queries';
import { findVisibleFacility, listThresholds, saveThresholds, summaryRows } from './queries';
import { computeDataHealth, dataHealthSummaries, summaryPeriod } from './service';

const tags = ['data health'];
const idParams = z.object({ id: idParam() });

/** Data health (issue 17, docs/decisions/0071-data-health.md): per ship, the ship list's badges, the thresholds. */
export async function dataHealthRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  // For anyone who sees the ship, as its files are.
  routes.get(
    '/api/facilities/:id/data-health',
    {
      schema: {
        tags,
        description: `The health of each mapped channel of the ship over [from, to] (UTC ISO 8601): coverage against the data source's measure frequency, the last value, and the intervals flagged stale (no value for the threshold's hours while the ship has data, measured up to the ship's latest sample, not up to now), flat-lined (the same value for the threshold's hours while the engine runs: ENGINE_LOAD above idle, else FUEL_FLOW above 50 kg/h) and out of range (outside the measurement field's min and max). Without a period: the last ${HEALTH_SUMMARY_DAYS} days up to the ship's latest data. At most ${MAX_HEALTH_PERIOD_DAYS} days at once.`,
        params: idParams,
        querystring: dataHealthQuerySchema,
        response: { 200: dataHealthSchema },
      },
    },
    async (request) => {
      const facility = await findVisibleFacility(db, request.caller, request.params.id);
      if (!facility) throw notFound('Ship not found');
      const fallback = summaryPeriod(facility.data_timestamp_max) ?? {
        from: new Date(Date.now() - HEALTH_SUMMARY_DAYS * DAY_MS),
        to: new Date(),
      };
      const to = request.query.to ? new Date(request.query.to) : fallback.to;
      const from = request.query.from
        ? new Date(request.query.from)
        : new Date(to.getTime() - HEALTH_SUMMARY_DAYS * DAY_MS);
      if (from >= to) throw badRequest('The period must end after it starts');
      if (to.getTime() - from.getTime() > MAX_HEALTH_PERIOD_DAYS * DAY_MS)
        throw badRequest(`The period may span at most ${MAX_HEALTH_PERIOD_DAYS} days`);
      return computeDataHealth(db, facility, { from, to });
    },
  );

  routes.get(
    '/api/data-health/summaries',
    {
      schema: {
        tags,
        description: `The ship list's badge of every ship the caller sees: its channels flagged over the last ${HEALTH_SUMMARY_DAYS} days of its data. Stored per ship and computed again when its files, data sources, mappings or thresholds changed.`,
        response: { 200: z.array(dataHealthSummarySchema) },
      },
    },
    async (request) => dataHealthSummaries(db, await summaryRows(db, request.caller)),
  );

  routes.get(
    '/api/organizations/:id/data-health-thresholds',
    {
      schema: {
        tags,
        description:
          "The data health thresholds of the organization's ships per measurement field: the organization's own, or the default (isDefault).",
        params: idParams,
        response: { 200: z.array(dataHealthThresholdEntrySchema) },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      if (!isSystemAdmin(caller) && caller.organizationId !== id) throw notFound('Organization not found');
      if (!(await organizationExists(db, id))) throw notFound('Organization not found');
      return listThresholds(db, id, DEFAULT_DATA_HEALTH_THRESHOLDS);
    },
  );

  routes.put(
    '/api/organizations/:id/data-health-thresholds',
    {
      schema: {
        tags,
        description:
          "Sets the data health thresholds of the organization's ships for the fields given (an administrator of the organization, or a SystemAdmin); an entry with useDefault goes back to the default. Answers the thresholds in force.",
        params: idParams,
        body: dataHealthThresholdsBodySchema,
        response: { 200: z.array(dataHealthThresholdEntrySchema) },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      requireManageOrganization(caller, id);
      if (!(await organizationExists(db, id))) throw notFound('Organization not found');
      await auditedChange(db, caller, (trx) => saveThresholds(trx, id, request.body), {
        action: 'datahealth.thresholds',
        subject: id,
        detail: { fields: request.body.thresholds.map((t) => t.fieldName) },
      });
      return listThresholds(db, id, DEFAULT_DATA_HEALTH_THRESHOLDS);
    },
  );
}
