import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  webhookBodySchema,
  webhookDeliveriesQuerySchema,
  webhookDeliverySchema,
  webhookSchema,
  webhookWithSecretSchema,
} from '@portal/contracts/webhooks';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import {
  createWebhook,
  deleteWebhook,
  findWebhook,
  listDeliveries,
  listWebhooks,
  requireWebhookAdmin,
  rotateWebhookSecret,
  sendTestDelivery,
  updateWebhook,
} from './service';

const tags = ['webhooks'];
const orgParams = z.object({ id: idParam() });
const webhookParams = z.object({ id: idParam(), webhookId: idParam() });

/**
 * An organization's webhooks (issue 19, docs/decisions/0092-webhooks.md, docs/webhooks.md): for its UserAdmins and
 * SystemAdmins; another organization's answer as missing ones. Changes are audited in their transaction.
 */
export async function webhookRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  const services = app.services;

  routes.get(
    '/api/organizations/:id/webhooks',
    {
      schema: {
        tags,
        description: "The organization's webhooks, each with its newest delivery; the secrets are not shown.",
        params: orgParams,
        response: { 200: z.array(webhookSchema) },
      },
    },
    async (request) => {
      await requireWebhookAdmin(db, request.caller, request.params.id);
      return listWebhooks(db, request.params.id);
    },
  );

  routes.post(
    '/api/organizations/:id/webhooks',
    {
      schema: {
        tags,
        description:
          'Adds a webhook: an http(s) URL that resolves to a public address (unless the operator allows private networks), the event types it gets, enabled or not. The answer holds the signing secret: the only time it is shown.',
        params: orgParams,
        body: webhookBodySchema,
        response: { 201: webhookWithSecretSchema },
      },
    },
    async (request, reply) => {
      await requireWebhookAdmin(db, request.caller, request.params.id);
      const webhook = await createWebhook(services, request.caller, request.params.id, request.body);
      return reply.code(201).send(webhook);
    },
  );

  routes.put(
    '/api/organizations/:id/webhooks/:webhookId',
    {
      schema: {
        tags,
        description: "Changes a webhook's URL, event types and whether it is enabled; the secret stays.",
        params: webhookParams,
        body: webhookBodySchema,
        response: { 200: webhookSchema },
      },
    },
    async (request) => {
      const { id, webhookId } = request.params;
      await requireWebhookAdmin(db, request.caller, id);
      return updateWebhook(services, request.caller, id, webhookId, request.body);
    },
  );

  routes.delete(
    '/api/organizations/:id/webhooks/:webhookId',
    {
      schema: { tags, description: 'Removes a webhook and its delivery log.', params: webhookParams },
    },
    async (request, reply) => {
      const { id, webhookId } = request.params;
      await requireWebhookAdmin(db, request.caller, id);
      await deleteWebhook(services, request.caller, id, webhookId);
      return reply.code(204).send();
    },
  );

  routes.post(
    '/api/organizations/:id/webhooks/:webhookId/rotate-secret',
    {
      schema: {
        tags,
        description:
          'Gives the webhook a new signing secret, shown in the answer only; deliveries from now on are signed with it.',
        params: webhookParams,
        response: { 200: webhookWithSecretSchema },
      },
    },
    async (request) => {
      const { id, webhookId } = request.params;
      await requireWebhookAdmin(db, request.caller, id);
      return rotateWebhookSecret(services, request.caller, id, webhookId);
    },
  );

  routes.post(
    '/api/organizations/:id/webhooks/:webhookId/test',
    {
      schema: {
        tags,
        description:
          "Queues a delivery of kind 'test' to the webhook (enabled or not), signed, logged and retried like the others.",
        params: webhookParams,
        response: { 202: webhookDeliverySchema },
      },
    },
    async (request, reply) => {
      const { id, webhookId } = request.params;
      await requireWebhookAdmin(db, request.caller, id);
      return reply.code(202).send(await sendTestDelivery(services, request.caller, id, webhookId));
    },
  );

  routes.get(
    '/api/organizations/:id/webhooks/:webhookId/deliveries',
    {
      schema: {
        tags,
        description:
          'The delivery log: the newest deliveries first, each with its status, next try and every attempt (time, outcome, response code, error, duration).',
        params: webhookParams,
        querystring: webhookDeliveriesQuerySchema,
        response: { 200: z.array(webhookDeliverySchema) },
      },
    },
    async (request) => {
      const { id, webhookId } = request.params;
      await requireWebhookAdmin(db, request.caller, id);
      await findWebhook(db, id, webhookId);
      return listDeliveries(db, webhookId, { limit: request.query.limit });
    },
  );
}
