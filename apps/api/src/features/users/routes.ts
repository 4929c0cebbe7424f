import type { FastifyInstance } from 'fastify';
import { idParam } from '../access/params';
import { authenticatedRoutes } from '../access/authenticated';
import { z } from 'zod';
import type { Role } from '@portal/contracts/rules';
import {
  createUserBodySchema,
  updateUserBodySchema,
  userResponseSchema,
  visitBodySchema,
  visitResponseSchema,
} from '@portal/contracts/users';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { isSystemAdmin, requireManageOrganization } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { hashPassword } from '../auth/passwords';
import { assignableRoles, findOrganization, organizationUsers } from '../organizations/queries';
import {
  deleteUser,
  findUser,
  insertUser,
  lookAlikeUsername,
  updateUser,
  userOrganization,
  usernameTaken,
} from './queries';
import { recordVisit } from './service';

/** A UserAdmin cannot make a SystemAdmin (403); nobody makes one outside the provider organization (400). */
function checkRole(caller: Caller, organization: { is_provider: boolean }, role: Role) {
  if (assignableRoles(caller, organization).some((r) => r.name === role)) return;
  if (role === 'SystemAdmin' && !isSystemAdmin(caller))
    throw forbidden('Only a system administrator may give the SystemAdmin role');
  throw badRequest('This role cannot be given in this organization', {
    roles: 'This role cannot be given in this organization',
  });
}

/** A user id of the path; anything else is a user that does not exist. */
const userIdParams = z.object({ id: idParam() });
/** The organization a user is created in. */
const createUserParams = z.object({ id: idParam() });

export async function userRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  const tags = ['users'];

  const taken = () => conflict('A user with this username already exists');
  /** Refuses a username taken (regardless of case) or one that looks like another user's (docs/decisions/0062). */
  const checkUsername = async (username: string, exceptId?: string) => {
    if (await usernameTaken(db, username, exceptId)) throw taken();
    if (await lookAlikeUsername(db, username, exceptId))
      throw conflict('A user with a username that looks the same already exists', {
        username: 'Looks the same as an existing username: choose another',
      });
  };

  /**
   * The user to change. Another organization's user answers exactly as a missing one ("User not found"), so an id
   * tells nothing; a SystemAdmin is changed only by a SystemAdmin.
   */
  const findManagedUser = async (caller: Caller, id: string) => {
    const user = await findUser(db, id);
    if (!user || (!isSystemAdmin(caller) && user.organization_id !== caller.organizationId))
      throw notFound('User not found');
    requireManageOrganization(caller, user.organization_id);
    if (user.role === 'SystemAdmin' && !isSystemAdmin(caller))
      throw forbidden('Only a system administrator may change a system administrator');
    return user;
  };
  const answer = async (organizationId: string, id: string) =>
    (await organizationUsers(db, organizationId)).find((u) => u.id === id)!;

  routes.post(
    '/api/organizations/:id/users',
    {
      schema: {
        tags,
        params: createUserParams,
        body: createUserBodySchema,
        response: { 201: userResponseSchema },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const { id: orgId } = request.params;
      requireManageOrganization(caller, orgId);
      const organization = await findOrganization(db, orgId);
      const { username, password, roles } = request.body;
      checkRole(caller, organization, roles[0]!);
      await checkUsername(username);
      const passwordHash = await hashPassword(password);
      const { id } = await auditedChange(
        db,
        caller,
        (trx) => insertUser(trx, { organizationId: orgId, username, passwordHash, role: roles[0]! }),
        ({ id }) => ({
          action: 'user.create',
          subject: id,
          detail: { username, role: roles[0], organizationId: orgId },
        }),
      );
      return reply.code(201).send(await answer(orgId, id));
    },
  );

  routes.put(
    '/api/users/:id',
    {
      schema: {
        tags,
        params: userIdParams,
        body: updateUserBodySchema,
        response: { 200: userResponseSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const user = await findManagedUser(caller, request.params.id);
      const organization = await findOrganization(db, user.organization_id);
      const { username, password, roles } = request.body;
      if (roles[0] !== user.role) checkRole(caller, organization, roles[0]!);
      await checkUsername(username, user.id);
      const passwordHash = password ? await hashPassword(password) : null;
      await auditedChange(
        db,
        caller,
        (trx) =>
          updateUser(trx, user.id, {
            username,
            role: roles[0]!,
            passwordHash,
            // A password set by an administrator ends the user's sessions (not the administrator's own).
            endSessions: user.id !== caller.userId,
          }),
        {
          action: 'user.update',
          subject: user.id,
          detail: { username, role: roles[0], passwordChanged: Boolean(password) },
        },
      );
      return answer(user.organization_id, user.id);
    },
  );

  routes.delete(
    '/api/users/:id',
    { schema: { tags, params: userIdParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const { caller } = request;
      const user = await findManagedUser(caller, request.params.id);
      if (user.id === caller.userId) throw badRequest('You cannot delete your own user');
      await auditedChange(db, caller, (trx) => deleteUser(trx, user.id), {
        action: 'user.delete',
        subject: user.id,
        detail: { username: user.username },
      });
      return reply.code(204).send(null);
    },
  );

  routes.put(
    '/api/users/:id/visit',
    {
      schema: {
        tags,
        params: userIdParams,
        body: visitBodySchema,
        response: { 200: visitResponseSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      // Visits are the caller's own: nobody records one for somebody else.
      if (request.params.id !== caller.userId) {
        const other = await userOrganization(db, request.params.id);
        if (other && other.organization_id === caller.organizationId)
          throw forbidden('Only the user may record a visit');
        throw notFound('User not found');
      }
      const { section } = request.body;
      // Opening the documents marks the active document messages of the caller's ships as read.
      const { visitedOn, messagesMarkedRead } = await recordVisit(db, caller, section);
      return {
        section,
        visitedOn: new Date(visitedOn).toISOString(),
        messagesMarkedRead,
      };
    },
  );
}
