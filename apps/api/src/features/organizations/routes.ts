import type { FastifyInstance } from 'fastify';
import { idParam, withIds } from '../access/params';
import { authenticatedRoutes } from '../access/authenticated';
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
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { Caller } from '../access/caller';
import {
  assertFacilityVisible,
  canManageOrganization,
  isSystemAdmin,
  requireManageOrganization,
  requireSystemAdmin,
} from '../access/policy';
import { auditedChange } from '../audit/audit';
import {
  facilitySharedWith,
  findOrganization,
  findUserOrganization,
  findVisibleFacility,
  grantUserFacility,
  hasSecondaryOrganizations,
  insertOrganization,
  linkKeyTaken,
  linkOrganizations,
  listOrganizations,
  organizationByLinkKey,
  organizationDetail,
  organizationSees,
  organizationUsers,
  organizationWithName,
  organizationsLinked,
  removeOrganizationAccess,
  revokeUserFacility,
  shareFacility,
  transferFacility,
  unlinkOrganizations,
  updateOrganization,
} from './queries';

const noContent = { 204: z.null() };

/** Organization and user ids of the path: anything else is one that does not exist (docs/decisions/0011). */
const organizationIdParams = z.object({ id: idParam() });
// The other organization of an unlink is checked after the caller may manage the first (a User is refused, 403).
const organizationUnlinkParams = z.object({ id: idParam(), otherId: idParam() });
const userFacilityLinkParams = z.object({ userId: idParam(), facilityId: idParam() });
const organizationFacilityParams = withIds(organizationFacilityParamsSchema, 'orgId', 'facilityId');

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
      const sameName = await organizationWithName(db, name);
      if (sameName) throw conflict('An organization with this name already exists');
      let key = linkKey ?? generateLinkKey();
      // A key the client generated may (rarely) be taken already: draw a new one.
      while (await linkKeyTaken(db, key)) key = generateLinkKey();
      const { id } = await auditedChange(
        db,
        caller,
        (trx) => insertOrganization(trx, { name, email, phone, priority, linkKey: key }),
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
      const sameName = await organizationWithName(db, name, id);
      if (sameName) throw conflict('An organization with this name already exists');
      await auditedChange(
        db,
        caller,
        (trx) => updateOrganization(trx, id, { name, email, phone, priority }),
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
      const other = await organizationByLinkKey(db, linkKey);
      if (!other) throw notFound('No organization has this link key');
      if (other.id === own.id)
        throw badRequest('This is your own organization’s link key', {
          linkKey: 'This is your own organization’s link key',
        });
      if (await organizationsLinked(db, id, other.id)) throw conflict(`Already linked to ${other.name}`);
      await auditedChange(db, caller, (trx) => linkOrganizations(trx, id, other.id), {
        action: 'organization.link',
        subject: id,
        detail: { linkedOrganizationId: other.id },
      });
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
      const linked = await organizationsLinked(db, id, otherId);
      if (!linked) throw notFound('Organization not found');
      await auditedChange(db, caller, (trx) => unlinkOrganizations(trx, id, otherId), {
        action: 'organization.unlink',
        subject: id,
        detail: { linkedOrganizationId: otherId },
      });
      return reply.code(204).send(null);
    },
  );

  // --- ship access of users ---------------------------------------------------------------------

  const userFacilityLink = async (caller: Caller, userId: string, facilityId: string) => {
    const user = await findUserOrganization(db, userId);
    if (!user || !canManageOrganization(caller, user.organization_id)) {
      if (user && user.organization_id === caller.organizationId)
        throw forbidden('Only an administrator may do this');
      throw notFound('User not found');
    }
    if (!(await organizationSees(db, user.organization_id, facilityId))) throw notFound('Ship not found');
    return user;
  };

  routes.post(
    '/api/organizations/facilities/:userId/:facilityId/user-facility-link',
    { schema: { tags, params: userFacilityLinkParams, response: noContent } },
    async (request, reply) => {
      const { caller } = request;
      const { userId, facilityId } = request.params;
      const user = await userFacilityLink(caller, userId, facilityId);
      await auditedChange(db, caller, (trx) => grantUserFacility(trx, userId, facilityId), {
        action: 'access.user.grant',
        subject: facilityId,
        detail: { userId, organizationId: user.organization_id },
      });
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
      await auditedChange(db, caller, (trx) => revokeUserFacility(trx, userId, facilityId), {
        action: 'access.user.revoke',
        subject: facilityId,
        detail: { userId, organizationId: user.organization_id },
      });
      return reply.code(204).send(null);
    },
  );

  // --- ship access of linked organizations ------------------------------------------------------

  routes.post(
    '/api/organizations/:orgId/:facilityId/organization-facility-link',
    { schema: { tags, params: organizationFacilityParams, response: noContent } },
    async (request, reply) => {
      const { caller } = request;
      const { orgId, facilityId } = request.params;
      const facility = await findVisibleFacility(db, caller, facilityId);
      // Only the owner shares a ship.
      if (!canManageOrganization(caller, facility.primary_organization_id))
        throw forbidden('Only the organization that owns the ship may share it');
      const linked = await organizationsLinked(db, facility.primary_organization_id, orgId);
      if (!linked) throw notFound('Organization not found');
      await auditedChange(db, caller, (trx) => shareFacility(trx, orgId, facilityId), {
        action: 'access.organization.grant',
        subject: facilityId,
        detail: { organizationId: orgId },
      });
      return reply.code(204).send(null);
    },
  );

  routes.delete(
    '/api/organizations/:orgId/:facilityId/organization-facility-link',
    { schema: { tags, params: organizationFacilityParams, response: noContent } },
    async (request, reply) => {
      const { caller } = request;
      const { orgId, facilityId } = request.params;
      const facility = await findVisibleFacility(db, caller, facilityId);
      // The owner takes a share back, or the secondary organization gives up its own access.
      const mayAct =
        canManageOrganization(caller, facility.primary_organization_id) ||
        canManageOrganization(caller, orgId);
      if (!mayAct) throw forbidden('Only an administrator may do this');
      const share = await facilitySharedWith(db, orgId, facilityId);
      if (!share) throw notFound('Organization not found');
      await auditedChange(db, caller, (trx) => removeOrganizationAccess(trx, orgId, [facilityId]), {
        action: 'access.organization.revoke',
        subject: facilityId,
        detail: { organizationId: orgId },
      });
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
      return hasSecondaryOrganizations(db, request.params.facilityId);
    },
  );

  routes.post(
    '/api/organizations/:orgId/:facilityId/migrate-facility',
    { schema: { tags, params: organizationFacilityParams, response: { 200: organizationRefSchema } } },
    async (request) => {
      const { caller } = request;
      const { orgId, facilityId } = request.params;
      const facility = await findVisibleFacility(db, caller, facilityId);
      requireSystemAdmin(caller);
      const target = await findOrganization(db, orgId);
      if (target.id === facility.primary_organization_id)
        throw badRequest('The ship already belongs to this organization');
      await auditedChange(db, caller, (trx) => transferFacility(trx, facilityId, target.id), {
        action: 'facility.transfer',
        subject: facilityId,
        detail: { from: facility.primary_organization_id, to: target.id },
      });
      return { id: target.id, name: target.name };
    },
  );
}
