import type { FastifyInstance } from 'fastify';
import { uuidParam } from '../access/params';
import { authenticatedRoutes } from '../access/authenticated';
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { generateLinkKey } from '@portal/contracts/forms/organization';
import {
  createOrganizationBodySchema,
  facilityIdParamsSchema,
  hasSecondaryOrganizationsSchema,
  organizationDetailSchema,
  organizationFacilityParamsSchema,
  organizationLinkParamsSchema,
  organizationListItemSchema,
  organizationRefSchema,
  organizationUserSchema,
  updateOrganizationBodySchema,
} from '@portal/contracts/organizations';
import type { Database } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { Caller } from '../access/caller';
import {
  assertFacilityVisible,
  canManageOrganization,
  isSystemAdmin,
  isUuid,
  organizationFacilityIds,
  requireManageOrganization,
  requireSystemAdmin,
} from '../access/policy';
import { auditedChange } from '../audit/audit';
import { findOrganization, listOrganizations, organizationDetail, organizationUsers } from './queries';

const noContent = { 204: z.null() };

/** A ship by id, or "Ship not found" (404) when it does not exist or the caller may not see it. */
async function findVisibleFacility(db: Kysely<Database>, caller: Caller, facilityId: string) {
  await assertFacilityVisible(db, caller, facilityId);
  return db
    .selectFrom('facilities')
    .select(['id', 'name', 'primary_organization_id'])
    .where('id', '=', facilityId)
    .executeTakeFirstOrThrow();
}

async function organizationSees(
  db: Kysely<Database>,
  organizationId: string,
  facilityId: string,
): Promise<boolean> {
  const row = await organizationFacilityIds(db, organizationId)
    .where('facilities.id', '=', facilityId)
    .executeTakeFirst();
  return Boolean(row);
}

/** Takes a ship away from an organization: the share and its users' access to the ship. */
async function removeOrganizationAccess(db: Kysely<Database>, organizationId: string, facilityIds: string[]) {
  if (!facilityIds.length) return;
  await db
    .deleteFrom('organization_facility_access')
    .where('organization_id', '=', organizationId)
    .where('facility_id', 'in', facilityIds)
    .execute();
  await db
    .deleteFrom('user_facility_access')
    .where('facility_id', 'in', facilityIds)
    .where('user_id', 'in', db.selectFrom('users').select('id').where('organization_id', '=', organizationId))
    .execute();
}

/** Organization and user ids of the path: anything else is one that does not exist (docs/decisions/0011). */
const organizationIdParams = z.object({ id: uuidParam('Organization not found') });
// The other organization of an unlink is checked after the caller may manage the first (a User is refused, 403).
const organizationUnlinkParams = z.object({ id: uuidParam('Organization not found'), otherId: z.string() });
const userFacilityLinkParams = z.object({ userId: uuidParam('User not found'), facilityId: z.string() });

export async function organizationRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  const tags = ['organizations'];

  routes.get(
    '/api/organizations',
    { schema: { tags, response: { 200: z.array(organizationListItemSchema) } } },
    async (request) => {
      const { caller } = request;
      return listOrganizations(db, isSystemAdmin(caller) ? undefined : caller.organizationId);
    },
  );

  routes.post(
    '/api/organizations',
    { schema: { tags, body: createOrganizationBodySchema, response: { 201: organizationDetailSchema } } },
    async (request, reply) => {
      const { caller } = request;
      requireSystemAdmin(caller);
      const { name, email, phone, priority, linkKey } = request.body;
      const sameName = await db
        .selectFrom('organizations')
        .select('id')
        .where(sql<boolean>`lower(name) = lower(${name})`)
        .executeTakeFirst();
      if (sameName) throw conflict('An organization with this name already exists');
      let key = linkKey ?? generateLinkKey();
      // A key the client generated may (rarely) be taken already: draw a new one.
      while (await db.selectFrom('organizations').select('id').where('link_key', '=', key).executeTakeFirst())
        key = generateLinkKey();
      const { id } = await auditedChange(
        db,
        caller,
        (trx) =>
          trx
            .insertInto('organizations')
            .values({ name, email, phone, priority, link_key: key })
            .returning('id')
            .executeTakeFirstOrThrow(),
        ({ id }) => ({ action: 'organization.create', subject: id, detail: { name } }),
      );
      return reply.code(201).send(await organizationDetail(db, caller, id));
    },
  );

  routes.get(
    '/api/organizations/:id/organization',
    { schema: { tags, params: organizationIdParams, response: { 200: organizationDetailSchema } } },
    async (request) => {
      const { caller } = request;
      requireManageOrganization(caller, request.params.id);
      return organizationDetail(db, caller, request.params.id);
    },
  );

  routes.put(
    '/api/organizations/:id/update-organization',
    {
      schema: {
        tags,
        params: organizationIdParams,
        body: updateOrganizationBodySchema,
        response: { 200: organizationDetailSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      requireManageOrganization(caller, id);
      const current = await findOrganization(db, id);
      const { name, email, phone, priority } = request.body;
      if (!isSystemAdmin(caller) && (name !== current.name || priority !== current.priority)) {
        throw forbidden('Only a system administrator may change the name or the priority of an organization');
      }
      const sameName = await db
        .selectFrom('organizations')
        .select('id')
        .where(sql<boolean>`lower(name) = lower(${name})`)
        .where('id', '<>', id)
        .executeTakeFirst();
      if (sameName) throw conflict('An organization with this name already exists');
      await auditedChange(
        db,
        caller,
        (trx) =>
          trx
            .updateTable('organizations')
            .set({ name, email, phone, priority })
            .where('id', '=', id)
            .execute(),
        { action: 'organization.update', subject: id, detail: { name, email, phone, priority } },
      );
      return organizationDetail(db, caller, id);
    },
  );

  routes.get(
    '/api/organizations/:id/users',
    {
      schema: {
        tags,
        params: organizationIdParams,
        response: { 200: z.array(organizationUserSchema) },
      },
    },
    async (request) => {
      requireManageOrganization(request.caller, request.params.id);
      await findOrganization(db, request.params.id);
      return organizationUsers(db, request.params.id);
    },
  );

  routes.post(
    '/api/organizations/:id/:linkKey/organization-link',
    { schema: { tags, params: organizationLinkParamsSchema, response: { 200: organizationRefSchema } } },
    async (request) => {
      const { caller } = request;
      const { id, linkKey } = request.params;
      requireManageOrganization(caller, id);
      const own = await findOrganization(db, id);
      const other = await db
        .selectFrom('organizations')
        .select(['id', 'name'])
        .where('link_key', '=', linkKey)
        .executeTakeFirst();
      if (!other) throw notFound('No organization has this link key');
      if (other.id === own.id)
        throw badRequest('This is your own organization’s link key', {
          linkKey: 'This is your own organization’s link key',
        });
      const existing = await db
        .selectFrom('organization_links')
        .select('organization_id')
        .where('organization_id', '=', id)
        .where('linked_organization_id', '=', other.id)
        .executeTakeFirst();
      if (existing) throw conflict(`Already linked to ${other.name}`);
      await auditedChange(
        db,
        caller,
        (trx) =>
          trx
            .insertInto('organization_links')
            .values([
              { organization_id: id, linked_organization_id: other.id },
              { organization_id: other.id, linked_organization_id: id },
            ])
            .onConflict((oc) => oc.doNothing())
            .execute(),
        { action: 'organization.link', subject: id, detail: { linkedOrganizationId: other.id } },
      );
      return other;
    },
  );

  routes.delete(
    '/api/organizations/:id/:otherId',
    { schema: { tags, params: organizationUnlinkParams, response: noContent } },
    async (request, reply) => {
      const { caller } = request;
      const { id, otherId } = request.params;
      requireManageOrganization(caller, id);
      await findOrganization(db, id);
      const link = isUuid(otherId)
        ? await db
            .selectFrom('organization_links')
            .select('linked_organization_id')
            .where('organization_id', '=', id)
            .where('linked_organization_id', '=', otherId)
            .executeTakeFirst()
        : undefined;
      if (!link) throw notFound('Organization not found');
      await auditedChange(
        db,
        caller,
        async (trx) => {
          await trx
            .deleteFrom('organization_links')
            .where((eb) =>
              eb.or([
                eb.and([eb('organization_id', '=', id), eb('linked_organization_id', '=', otherId)]),
                eb.and([eb('organization_id', '=', otherId), eb('linked_organization_id', '=', id)]),
              ]),
            )
            .execute();
          // Without the link neither keeps the other's ships.
          const owned = async (owner: string) =>
            (
              await trx
                .selectFrom('facilities')
                .select('id')
                .where('primary_organization_id', '=', owner)
                .execute()
            ).map((f) => f.id);
          await removeOrganizationAccess(trx, otherId, await owned(id));
          await removeOrganizationAccess(trx, id, await owned(otherId));
        },
        { action: 'organization.unlink', subject: id, detail: { linkedOrganizationId: otherId } },
      );
      return reply.code(204).send(null);
    },
  );

  // --- ship access of users ---------------------------------------------------------------------

  const userFacilityLink = async (caller: Caller, userId: string, facilityId: string) => {
    const user = await db
      .selectFrom('users')
      .select(['id', 'organization_id'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user || !canManageOrganization(caller, user.organization_id)) {
      if (user && user.organization_id === caller.organizationId)
        throw forbidden('Only an administrator may do this');
      throw notFound('User not found');
    }
    if (!isUuid(facilityId) || !(await organizationSees(db, user.organization_id, facilityId)))
      throw notFound('Ship not found');
    return user;
  };

  routes.post(
    '/api/organizations/facilities/:userId/:facilityId/user-facility-link',
    { schema: { tags, params: userFacilityLinkParams, response: noContent } },
    async (request, reply) => {
      const { caller } = request;
      const { userId, facilityId } = request.params;
      const user = await userFacilityLink(caller, userId, facilityId);
      await auditedChange(
        db,
        caller,
        async (trx) => {
          await trx
            .insertInto('user_facility_access')
            .values({ user_id: userId, facility_id: facilityId })
            .onConflict((oc) => oc.doNothing())
            .execute();
        },
        {
          action: 'access.user.grant',
          subject: facilityId,
          detail: { userId, organizationId: user.organization_id },
        },
      );
      return reply.code(204).send(null);
    },
  );

  routes.delete(
    '/api/organizations/facilities/:userId/:facilityId/user-facility-link',
    { schema: { tags, params: userFacilityLinkParams, response: noContent } },
    async (request, reply) => {
      const { caller } = request;
      const { userId, facilityId } = request.params;
      const user = await userFacilityLink(caller, userId, facilityId);
      await auditedChange(
        db,
        caller,
        async (trx) => {
          await trx
            .deleteFrom('user_facility_access')
            .where('user_id', '=', userId)
            .where('facility_id', '=', facilityId)
            .execute();
        },
        {
          action: 'access.user.revoke',
          subject: facilityId,
          detail: { userId, organizationId: user.organization_id },
        },
      );
      return reply.code(204).send(null);
    },
  );

  // --- ship access of linked organizations ------------------------------------------------------

  routes.post(
    '/api/organizations/:orgId/:facilityId/organization-facility-link',
    { schema: { tags, params: organizationFacilityParamsSchema, response: noContent } },
    async (request, reply) => {
      const { caller } = request;
      const { orgId, facilityId } = request.params;
      const facility = await findVisibleFacility(db, caller, facilityId);
      // Only the owner shares a ship.
      if (!canManageOrganization(caller, facility.primary_organization_id))
        throw forbidden('Only the organization that owns the ship may share it');
      const linked = isUuid(orgId)
        ? await db
            .selectFrom('organization_links')
            .select('linked_organization_id')
            .where('organization_id', '=', facility.primary_organization_id)
            .where('linked_organization_id', '=', orgId)
            .executeTakeFirst()
        : undefined;
      if (!linked) throw notFound('Organization not found');
      await auditedChange(
        db,
        caller,
        async (trx) => {
          await trx
            .insertInto('organization_facility_access')
            .values({ organization_id: orgId, facility_id: facilityId })
            .onConflict((oc) => oc.doNothing())
            .execute();
        },
        { action: 'access.organization.grant', subject: facilityId, detail: { organizationId: orgId } },
      );
      return reply.code(204).send(null);
    },
  );

  routes.delete(
    '/api/organizations/:orgId/:facilityId/organization-facility-link',
    { schema: { tags, params: organizationFacilityParamsSchema, response: noContent } },
    async (request, reply) => {
      const { caller } = request;
      const { orgId, facilityId } = request.params;
      const facility = await findVisibleFacility(db, caller, facilityId);
      // The owner takes a share back, or the secondary organization gives up its own access.
      const mayAct =
        canManageOrganization(caller, facility.primary_organization_id) ||
        canManageOrganization(caller, orgId);
      if (!mayAct) throw forbidden('Only an administrator may do this');
      const share = isUuid(orgId)
        ? await db
            .selectFrom('organization_facility_access')
            .select('organization_id')
            .where('organization_id', '=', orgId)
            .where('facility_id', '=', facilityId)
            .executeTakeFirst()
        : undefined;
      if (!share) throw notFound('Organization not found');
      await auditedChange(
        db,
        caller,
        async (trx) => {
          await removeOrganizationAccess(trx, orgId, [facilityId]);
        },
        { action: 'access.organization.revoke', subject: facilityId, detail: { organizationId: orgId } },
      );
      return reply.code(204).send(null);
    },
  );

  // --- transfer -----------------------------------------------------------------------------------

  routes.get(
    '/api/organizations/facilities/:facilityId/has-secondary-organizations',
    { schema: { tags, params: facilityIdParamsSchema, response: { 200: hasSecondaryOrganizationsSchema } } },
    async (request) => {
      const { caller } = request;
      await assertFacilityVisible(db, caller, request.params.facilityId);
      requireSystemAdmin(caller);
      const row = await db
        .selectFrom('organization_facility_access')
        .select('organization_id')
        .where('facility_id', '=', request.params.facilityId)
        .executeTakeFirst();
      return Boolean(row);
    },
  );

  routes.post(
    '/api/organizations/:orgId/:facilityId/migrate-facility',
    { schema: { tags, params: organizationFacilityParamsSchema, response: { 200: organizationRefSchema } } },
    async (request) => {
      const { caller } = request;
      const { orgId, facilityId } = request.params;
      const facility = await findVisibleFacility(db, caller, facilityId);
      requireSystemAdmin(caller);
      const target = await findOrganization(db, orgId);
      if (target.id === facility.primary_organization_id)
        throw badRequest('The ship already belongs to this organization');
      await auditedChange(
        db,
        caller,
        async (trx) => {
          await trx
            .updateTable('facilities')
            .set({ primary_organization_id: target.id })
            .where('id', '=', facilityId)
            .execute();
          // Irreversible: the old owner and every secondary organization lose the ship, with their users.
          await trx
            .deleteFrom('organization_facility_access')
            .where('facility_id', '=', facilityId)
            .execute();
          await trx
            .deleteFrom('user_facility_access')
            .where('facility_id', '=', facilityId)
            .where(
              'user_id',
              'not in',
              trx.selectFrom('users').select('id').where('organization_id', '=', target.id),
            )
            .execute();
        },
        {
          action: 'facility.transfer',
          subject: facilityId,
          detail: { from: facility.primary_organization_id, to: target.id },
        },
      );
      return { id: target.id, name: target.name };
    },
  );
}
