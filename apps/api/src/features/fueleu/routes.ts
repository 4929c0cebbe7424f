import type { FastifyInstance } from 'fastify';
import { LEDGER_READS } from '../access/verifier';
import { z } from 'zod';
import {
  fuelEuFlexibilityInputSchema,
  fuelEuOrganizationYearSchema,
  fuelEuPoolInputSchema,
  fuelEuPoolSchema,
  fuelEuShipYearSchema,
  fuelEuYearQuerySchema,
} from '@portal/contracts/fueleu';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { assertFacilityVisible } from '../access/policy';
import { fuelEuShipYear } from './ship-year';
import { createPool, deletePool, getPool, organizationYear, setFlexibility, updatePool } from './service';

const tags = ['fueleu'];
const idParams = z.object({ id: idParam() });
const poolParams = z.object({ id: idParam(), poolId: idParam() });
const READ = LEDGER_READS;

/**
 * FuelEU Maritime's API (Regulation (EU) 2023/1805; docs/decisions/0113-fueleu.md): a ship's year from the carbon
 * ledger, its banking and borrowing, and an organization's year with its pools. Everyone who sees a ship reads its
 * year; the ship's own organization's administrators decide banking, borrowing and pools. Another organization's
 * ship, organization or pool answers as a missing one.
 */
export async function fuelEuRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  routes.get(
    '/api/facilities/:id/fueleu',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The ship's FuelEU year: energy in scope (100 % at berth and between Member States' ports, 50 % to or from a third country or an outermost region), well-to-wake GHG intensity, the year's limit, compliance balance, penalty with the consecutive deficit years, banking, borrowing and pool, so far and projected to the year's end.",
        params: idParams,
        querystring: fuelEuYearQuerySchema,
        response: { 200: fuelEuShipYearSchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      return fuelEuShipYear(db, request.params.id, request.query.year);
    },
  );

  routes.put(
    '/api/facilities/:id/fueleu/flexibility',
    {
      schema: {
        tags,
        description:
          "Records the ship's banking (a surplus carried to the next year) or borrowing (an advance surplus from the next year, 1.1 times it repaid) of a year, within the limits of Art. 20: a surplus only, at most the deficit and 2 % of the limit times the energy, not two years running. Zero for both removes the record. The ship's organization's administrators. Audited.",
        params: idParams,
        body: fuelEuFlexibilityInputSchema,
        response: { 200: fuelEuShipYearSchema },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      const { year, ...amounts } = request.body;
      return setFlexibility(db, request.caller, request.params.id, year, amounts);
    },
  );

  routes.get(
    '/api/organizations/:id/fueleu',
    {
      config: READ,
      schema: {
        tags,
        description:
          "The organization's FuelEU year: each of its ships' year, its pools with their validity under today's balances, and the totals (balance and penalty in euros, so far and projected).",
        params: idParams,
        querystring: fuelEuYearQuerySchema,
        response: { 200: fuelEuOrganizationYearSchema },
      },
    },
    async (request) => organizationYear(db, request.caller, request.params.id, request.query.year),
  );

  routes.post(
    '/api/organizations/:id/fueleu/pools',
    {
      schema: {
        tags,
        description:
          "Forms a pool of the organization's ships for a year with what it allocates to each (Art. 21): valid only if the ships' balances add up to no less than zero, the allocations add up to that total, no ship with a deficit ends with a higher one and no ship with a surplus ends with a deficit; a ship is in one pool a year. Administrators. Audited.",
        params: idParams,
        body: fuelEuPoolInputSchema,
        response: { 201: fuelEuPoolSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createPool(db, request.caller, request.params.id, request.body)),
  );

  routes.get(
    '/api/organizations/:id/fueleu/pools/:poolId',
    {
      config: READ,
      schema: {
        tags,
        description: 'A pool with its ships, their balances as calculated today and its validity.',
        params: poolParams,
        response: { 200: fuelEuPoolSchema },
      },
    },
    async (request) => getPool(db, request.caller, request.params.id, request.params.poolId),
  );

  routes.put(
    '/api/organizations/:id/fueleu/pools/:poolId',
    {
      schema: {
        tags,
        description:
          "Changes a pool's name, year, ships or allocations, checked as when it was formed. Audited.",
        params: poolParams,
        body: fuelEuPoolInputSchema,
        response: { 200: fuelEuPoolSchema },
      },
    },
    async (request) => updatePool(db, request.caller, request.params.id, request.params.poolId, request.body),
  );

  routes.delete(
    '/api/organizations/:id/fueleu/pools/:poolId',
    {
      schema: {
        tags,
        description: 'Dissolves a pool. Audited.',
        params: poolParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await deletePool(db, request.caller, request.params.id, request.params.poolId);
      return reply.code(204).send(null);
    },
  );
}
