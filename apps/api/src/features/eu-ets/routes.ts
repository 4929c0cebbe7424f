import type { FastifyInstance, FastifyReply } from 'fastify';
import { LEDGER_READS } from '../access/verifier';
import { z } from 'zod';
import {
  euCompanyYearSchema,
  euExportQuerySchema,
  euShipYearSchema,
  euYearQuerySchema,
  euaPriceInputSchema,
  euaPriceSchema,
} from '@portal/contracts/eu-ets';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { assertFacilityVisible, requireManageOrganization } from '../access/policy';
import { notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { requireSeeOrganizationPorts } from '../ports/service';
import { companyCsv, companyWorkbook, shipCsv, shipWorkbook } from './export';
import { findPrice, listPrices, removePrice, setPrice } from './prices';
import { companyYear, shipYear } from './service';

const tags = ['eu-ets'];
const idParams = z.object({ id: idParam() });
const READ = LEDGER_READS;

/** Who sees an organization's EU ETS figures and prices: its own users and a SystemAdmin (else 404). */
const requireSeeOrganization = (caller: Caller, organizationId: string) =>
  requireSeeOrganizationPorts(caller, organizationId);

const fileBase = (name: string, what: string, year: number) =>
  `${name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'export'}_${what}_${year}`;

function sendExport(
  reply: FastifyReply,
  format: 'xlsx' | 'csv',
  base: string,
  csv: () => string,
  xlsx: () => Promise<Buffer>,
) {
  if (format === 'csv')
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${base}.csv"`)
      .send(csv());
  return xlsx().then((body) =>
    reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="${base}.xlsx"`)
      .send(body),
  );
}

/**
 * EU MRV and EU ETS (docs/decisions/0112-eu-ets.md): a ship's year and a company's (the organization's), their
 * THETIS-MRV exports, and the allowance prices an organization enters. Everyone who sees a ship reads its figures;
 * an organization's aggregate and prices are its users' (and a SystemAdmin's); its UserAdmin enters prices.
 */
export async function euEtsRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  routes.get(
    '/api/facilities/:id/eu-ets',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The ship's EU MRV / EU ETS year: each voyage and stay at berth of the year with CO2, CH4, N2O and CO2e under the MRV's factors, its scope by its ports' EU/EEA membership on its dates (100 % between EU/EEA ports and at berth in them, 50 % with one end outside), the totals, the allowances due with the phase-in (40 % of 2024, 70 % of 2025, 100 % from 2026; CH4 and N2O from 2026), projected to the year end, in euros at the latest allowance price entered on or before priceDay.",
        params: idParams,
        querystring: euYearQuerySchema,
        response: { 200: euShipYearSchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return shipYear(db, request.params.id, request.query.year, request.query.priceDay);
    },
  );

  routes.get(
    '/api/facilities/:id/eu-ets/export',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The ship's EU MRV emissions report of a year in THETIS-MRV's layout (the results of the annual monitoring per gas, then the EU ETS part), with its voyages and stays, as .xlsx (dates as dates, numbers as numbers) or CSV.",
        params: idParams,
        querystring: euExportQuerySchema,
      },
    },
    async (request, reply) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      const { year, format, priceDay } = request.query;
      const report = await shipYear(db, request.params.id, year, priceDay);
      return sendExport(
        reply,
        format,
        fileBase(report.shipName, 'EU_MRV', year),
        () => shipCsv(report),
        () => shipWorkbook(report),
      );
    },
  );

  routes.get(
    '/api/organizations/:id/eu-ets',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The company's EU MRV / EU ETS year (the organization's own ships the caller sees): each ship's emissions, in-scope emissions, allowances due and their cost, and their sum.",
        params: idParams,
        querystring: euYearQuerySchema,
        response: { 200: euCompanyYearSchema },
      },
    },
    async (request) => {
      requireSeeOrganization(request.caller, request.params.id);
      return companyYear(db, request.caller, request.params.id, request.query.year, request.query.priceDay);
    },
  );

  routes.get(
    '/api/organizations/:id/eu-ets/export',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The company's aggregate of a year (the emissions report at company level) as .xlsx or CSV: the totals, the EU ETS part and one row per ship.",
        params: idParams,
        querystring: euExportQuerySchema,
      },
    },
    async (request, reply) => {
      requireSeeOrganization(request.caller, request.params.id);
      const { year, format, priceDay } = request.query;
      const report = await companyYear(db, request.caller, request.params.id, year, priceDay);
      return sendExport(
        reply,
        format,
        fileBase(report.organizationName, 'EU_ETS_company', year),
        () => companyCsv(report),
        () => companyWorkbook(report),
      );
    },
  );

  routes.get(
    '/api/organizations/:id/eua-prices',
    {
      config: READ,
      schema: {
        tags,
        description: 'The EU allowance prices the organization entered, the latest day first.',
        params: idParams,
        response: { 200: z.array(euaPriceSchema) },
      },
    },
    async (request) => {
      requireSeeOrganization(request.caller, request.params.id);
      return listPrices(db, request.params.id);
    },
  );

  routes.post(
    '/api/organizations/:id/eua-prices',
    {
      schema: {
        tags,
        description:
          'Enters the price of one EU allowance (€ per t CO2e) from a day; a price entered again for the same day replaces it. By the organization’s administrator. Audited.',
        params: idParams,
        body: euaPriceInputSchema,
        response: { 201: euaPriceSchema },
      },
    },
    async (request, reply) => {
      requireManageOrganization(request.caller, request.params.id);
      const price = await setPrice(db, request.caller, request.params.id, request.body);
      return reply.code(201).send(price);
    },
  );

  routes.delete(
    '/api/eua-prices/:id',
    {
      schema: {
        tags,
        description:
          'Removes an allowance price entered by mistake. By the organization’s administrator. Audited.',
        params: idParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const price = await findPrice(db, request.params.id);
      try {
        requireManageOrganization(request.caller, price.organizationId);
      } catch (error) {
        // Another organization's price is not found; one's own answers 403 to a user who may not manage it.
        if (request.caller.organizationId !== price.organizationId)
          throw notFound('Allowance price not found');
        throw error;
      }
      await removePrice(db, request.caller, price);
      return reply.code(204).send(null);
    },
  );
}
