import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { yearQuerySchema } from '@portal/contracts/carbon';
import { costCockpitSchema, fuelPriceInputSchema, fuelPriceSchema } from '@portal/contracts/cost-cockpit';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { isSystemAdmin, requireManageOrganization } from '../access/policy';
import { notFound } from '../../errors';
import { listFuelPrices, setFuelPrice } from './prices';
import { costCockpit } from './service';

const tags = ['cost-cockpit'];
const idParams = z.object({ id: idParam() });
const READ = { apiKeyScopes: ['reports:read'] as const };

/**
 * The cost cockpit (decision 0119): per ship and for the fleet, euros per regime this year and projected, beside the
 * scrubber's economics at the fuel prices the organization enters (its administrator; audited).
 */
export async function costCockpitRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  routes.get(
    '/api/cost-cockpit',
    {
      config: READ,
      schema: {
        tags,
        description:
          "Every ship the caller sees with its euros per regime this year to date and projected to the year's end (EU ETS allowances, FuelEU penalty or surplus, UK ETS allowances; \"not available\" with the reason where the portal has no figure), beside the scrubber's economics: HSFO burnt x (VLSFO - HSFO price) - the fuel its power takes x HSFO price, at the latest fuel prices the caller's organization entered.",
        querystring: yearQuerySchema,
        response: { 200: costCockpitSchema },
      },
    },
    async (request) => costCockpit(db, request.caller, request.query.year),
  );

  routes.get(
    '/api/organizations/:id/fuel-prices',
    {
      config: READ,
      schema: {
        tags,
        description: 'The HSFO and VLSFO prices the organization entered, the latest day first.',
        params: idParams,
        response: { 200: z.array(fuelPriceSchema) },
      },
    },
    async (request) => {
      const { caller } = request;
      if (!isSystemAdmin(caller) && caller.organizationId !== request.params.id)
        throw notFound('Organization not found');
      return listFuelPrices(db, request.params.id);
    },
  );

  routes.post(
    '/api/organizations/:id/fuel-prices',
    {
      schema: {
        tags,
        description:
          "Enters the HSFO and VLSFO prices (€ per tonne) of a day; prices entered again for the same day replace them. By the organization's administrator. Audited.",
        params: idParams,
        body: fuelPriceInputSchema,
        response: { 201: fuelPriceSchema },
      },
    },
    async (request, reply) => {
      requireManageOrganization(request.caller, request.params.id);
      const price = await setFuelPrice(db, request.caller, request.params.id, request.body);
      return reply.code(201).send(price);
    },
  );
}
