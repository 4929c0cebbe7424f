import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  alertSubscriptionBodySchema,
  alertSubscriptionSchema,
  organizationAlertDefaultsBodySchema,
  organizationAlertDefaultsSchema,
  outboxListSchema,
  outboxQuerySchema,
} from '@portal/contracts/alerts';
import { notFound } from '../../errors';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { isSystemAdmin, requireManageOrganization, requireSystemAdmin } from '../access/policy';
import { organizationExists } from '../facilities/queries';
import { organizationAlertDefaults, outbox, subscriptionOf } from './queries';
import { saveOrganizationAlertDefaults, saveSubscription } from './service';

const idParams = z.object({ id: idParam() });

/**
 * Alerts (docs/decisions/0091-alerts.md): the caller's subscription, an organization's defaults (its administrator
 * or a SystemAdmin), and the e-mail outbox (SystemAdmin).
 */
export async function alertRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  const tags = ['alerts'];

  routes.get(
    '/api/profile/alert-subscription',
    {
      schema: {
        tags,
        description:
          "The caller's alerts as in force (their own settings, else their organization's defaults, else the portal's), the address e-mails go to, and e-mails of the last 30 days that could not be delivered.",
        response: { 200: alertSubscriptionSchema },
      },
    },
    async (request) => subscriptionOf(db, request.caller),
  );

  routes.put(
    '/api/profile/alert-subscription',
    {
      schema: {
        tags,
        description:
          "Sets the caller's own alert settings and address, or goes back to the organization's defaults with useDefaults. Ships chosen must be ships the caller sees; ships by organization are for a SystemAdmin.",
        body: alertSubscriptionBodySchema,
        response: { 200: alertSubscriptionSchema },
      },
    },
    async (request) => {
      await saveSubscription(db, request.caller, request.body);
      return subscriptionOf(db, request.caller);
    },
  );

  routes.get(
    '/api/organizations/:id/alert-defaults',
    {
      schema: {
        tags,
        description:
          "The alert settings of the organization's users who have none of their own, and the hours a report-required event may wait for an acknowledgement before the reminder.",
        params: idParams,
        response: { 200: organizationAlertDefaultsSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      if (!isSystemAdmin(caller) && caller.organizationId !== id) throw notFound('Organization not found');
      if (!(await organizationExists(db, id))) throw notFound('Organization not found');
      return organizationAlertDefaults(db, id);
    },
  );

  routes.put(
    '/api/organizations/:id/alert-defaults',
    {
      schema: {
        tags,
        description:
          "Sets the organization's alert defaults and reminder hours (its administrator or a SystemAdmin), or goes back to the portal's defaults with useDefaults.",
        params: idParams,
        body: organizationAlertDefaultsBodySchema,
        response: { 200: organizationAlertDefaultsSchema },
      },
    },
    async (request) => {
      const { caller } = request;
      const { id } = request.params;
      requireManageOrganization(caller, id);
      if (!(await organizationExists(db, id))) throw notFound('Organization not found');
      await saveOrganizationAlertDefaults(db, caller, id, request.body);
      return organizationAlertDefaults(db, id);
    },
  );

  routes.get(
    '/api/admin/outbox',
    {
      schema: {
        tags,
        description:
          'Every e-mail the portal composed (alerts and digests), newest first, with its state: sent (to the SMTP server, or kept here when no SMTP_URL is set), pending, or failed with the error. SystemAdmin only.',
        querystring: outboxQuerySchema,
        response: { 200: outboxListSchema },
      },
    },
    async (request) => {
      requireSystemAdmin(request.caller);
      return outbox(db, request.query, app.config.SMTP_URL ? 'smtp' : 'outbox');
    },
  );
}
