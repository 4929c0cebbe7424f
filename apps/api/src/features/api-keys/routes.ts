import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiKeySchema, createdApiKeySchema } from '@portal/contracts/api-keys';
import { API_KEY_MESSAGES, createApiKeyBodySchema } from '@portal/contracts/forms/api-key';
import { badRequest, notFound } from '../../errors';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { requireManageOrganization } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { findOrganization } from '../organizations/queries';
import {
  apiKeyNameTaken,
  findApiKey,
  insertApiKey,
  listApiKeys,
  presentApiKey,
  revokeApiKey,
} from './queries';
import { formatApiKey, newApiKeySecret } from './secret';

const organizationParams = z.object({ id: idParam() });
const keyParams = z.object({ id: idParam(), keyId: idParam() });

/**
 * An organization's API keys (docs/decisions/0090-api-keys-and-auto-execution.md): its UserAdmin, or a SystemAdmin,
 * lists, creates and revokes them. The secret is in the creation's answer only. Another organization's keys answer
 * 404, as its other objects do; a User of the organization gets 403. Each change is audited in its transaction.
 */
export async function apiKeyRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  const tags = ['api-keys'];

  routes.get(
    '/api/organizations/:id/api-keys',
    { schema: { tags, params: organizationParams, response: { 200: z.array(apiKeySchema) } } },
    async (request) => {
      requireManageOrganization(request.caller, request.params.id);
      await findOrganization(db, request.params.id);
      return listApiKeys(db, request.params.id);
    },
  );

  routes.post(
    '/api/organizations/:id/api-keys',
    {
      schema: {
        tags,
        description:
          'Creates an API key of the organization. The answer holds the key (`spk_...`) this once: only its SHA-256 is kept.',
        params: organizationParams,
        body: createApiKeyBodySchema,
        response: { 201: createdApiKeySchema },
      },
    },
    async (request, reply) => {
      const { caller } = request;
      const organizationId = request.params.id;
      requireManageOrganization(caller, organizationId);
      await findOrganization(db, organizationId);
      const { name, scopes, expiresOn } = request.body;
      if (await apiKeyNameTaken(db, organizationId, name))
        throw badRequest(`name: ${API_KEY_MESSAGES.nameTaken}`, { name: API_KEY_MESSAGES.nameTaken });
      const id = randomUUID();
      const { secret, hash } = newApiKeySecret();
      const row = await auditedChange(
        db,
        caller,
        (trx) =>
          insertApiKey(trx, {
            id,
            organizationId,
            name,
            scopes,
            secretHash: hash,
            createdBy: caller.userId,
            expiresOn,
          }),
        { action: 'apikey.create', subject: id, detail: { organizationId, name, scopes, expiresOn } },
      );
      return reply.code(201).send({
        ...presentApiKey({ ...row, created_by: caller.username }),
        key: formatApiKey(id, secret),
      });
    },
  );

  routes.delete(
    '/api/organizations/:id/api-keys/:keyId',
    { schema: { tags, params: keyParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const { caller } = request;
      const { id: organizationId, keyId } = request.params;
      requireManageOrganization(caller, organizationId);
      await findOrganization(db, organizationId);
      const key = await findApiKey(db, organizationId, keyId);
      if (!key) throw notFound('API key not found');
      await auditedChange(db, caller, (trx) => revokeApiKey(trx, key.id, caller.userId), {
        action: 'apikey.revoke',
        subject: key.id,
        detail: { organizationId, name: key.name },
      });
      return reply.code(204).send(null);
    },
  );
}
