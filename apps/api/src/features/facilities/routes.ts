import type { FastifyInstance } from 'fastify';
import { authenticatedRoutes } from '../access/authenticated';
import { VERIFIER_READS } from '../access/verifier';
import { z } from 'zod';
import {
  createFacilityBodySchema,
  createFacilityResponseSchema,
  facilityListQuerySchema,
  facilitySchema,
} from '@portal/contracts/facilities';
import { notFound } from '../../errors';
import { idParam, withIds } from '../access/params';
import { canManageOrganization, requireSystemAdmin } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { findUser, insertFacility, listFacilities, organizationExists, toFacility } from './queries';

export async function facilityRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  routes.get(
    '/api/facilities',
    {
      // An integration finds its ships here (an API key: the ships its organization sees).
      config: { apiKeyScopes: ['reports:read', 'files:upload'], ...VERIFIER_READS },
      schema: {
        tags: ['facilities'],
        querystring: withIds(facilityListQuerySchema, 'organizationId', 'userId'),
        response: { 200: z.array(facilitySchema) },
      },
    },
    async (request) => {
      const { caller } = request;
      const { organizationId, userId } = request.query;
      if (userId) {
        const user = await findUser(db, userId);
        // Another organization's user is not revealed: their ships are none of the caller's business.
        if (!user || (user.id !== caller.userId && !canManageOrganization(caller, user.organization_id)))
          throw notFound('User not found');
      }
      const rows = await listFacilities(db, caller, { organizationId, userId });
      return rows.map(toFacility);
    },
  );

  routes.post(
    '/api/facilities',
    {
      schema: {
        tags: ['facilities'],
        body: createFacilityBodySchema.extend({
          organizationId: createFacilityBodySchema.shape.organizationId.pipe(idParam()),
        }),
        response: { 201: createFacilityResponseSchema },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const { organizationId, name } = request.body;
      if (!(await organizationExists(db, organizationId))) throw notFound('Organization not found');
      const { id } = await auditedChange(
        db,
        caller,
        (trx) => insertFacility(trx, { name, organizationId }),
        ({ id }) => ({ action: 'facility.create', subject: id, detail: { name, organizationId } }),
      );
      return reply.code(201).send({ id });
    },
  );
}
