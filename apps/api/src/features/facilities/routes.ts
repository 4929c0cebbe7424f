import type { FastifyInstance } from 'fastify';
import { authenticatedRoutes } from '../access/authenticated';
import { sql } from 'kysely';
import { z } from 'zod';
import {
  createFacilityBodySchema,
  createFacilityResponseSchema,
  facilityListQuerySchema,
  facilitySchema,
} from '@portal/contracts/facilities';
import { notFound } from '../../errors';
import { canManageOrganization, isUuid, requireSystemAdmin } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { facilitiesVisibleTo, toFacility } from './queries';

export async function facilityRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;

  routes.get(
    '/api/facilities',
    {
      schema: {
        tags: ['facilities'],
        querystring: facilityListQuerySchema,
        response: { 200: z.array(facilitySchema) },
      },
    },
    async (request) => {
      const { caller } = request;
      const { organizationId, userId } = request.query;
      let query = facilitiesVisibleTo(db, caller);
      if (organizationId) {
        if (!isUuid(organizationId)) return [];
        query = query.where((eb) =>
          eb.or([
            eb('f.primary_organization_id', '=', organizationId),
            eb(
              'f.id',
              'in',
              eb
                .selectFrom('organization_facility_access')
                .select('facility_id')
                .where('organization_id', '=', organizationId),
            ),
          ]),
        );
      }
      if (userId) {
        const user = isUuid(userId)
          ? await db
              .selectFrom('users')
              .select(['id', 'organization_id'])
              .where('id', '=', userId)
              .executeTakeFirst()
          : undefined;
        // Another organization's user is not revealed: their ships are none of the caller's business.
        if (!user || (user.id !== caller.userId && !canManageOrganization(caller, user.organization_id)))
          throw notFound('User not found');
        query = query.where(
          'f.id',
          'in',
          db.selectFrom('user_facility_access').select('facility_id').where('user_id', '=', userId),
        );
      }
      const rows = await query
        .orderBy(sql`lower(f.name)`)
        .orderBy('f.id')
        .execute();
      return rows.map(toFacility);
    },
  );

  routes.post(
    '/api/facilities',
    {
      schema: {
        tags: ['facilities'],
        body: createFacilityBodySchema,
        response: { 201: createFacilityResponseSchema },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const { organizationId, name } = request.body;
      const organization = isUuid(organizationId)
        ? await db
            .selectFrom('organizations')
            .select('id')
            .where('id', '=', organizationId)
            .executeTakeFirst()
        : undefined;
      if (!organization) throw notFound('Organization not found');
      const { id } = await auditedChange(
        db,
        caller,
        (trx) =>
          trx
            .insertInto('facilities')
            .values({ name, primary_organization_id: organizationId })
            .returning('id')
            .executeTakeFirstOrThrow(),
        ({ id }) => ({ action: 'facility.create', subject: id, detail: { name, organizationId } }),
      );
      return reply.code(201).send({ id });
    },
  );
}
