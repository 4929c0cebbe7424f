import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  alertSubscriptionBodySchema,
  alertSubscriptionSchema,
  organizationAlertDefaultsBodySchema,
  organizationAlertDefaultsSchema,
  outboxListSchema,
  outboxQuerySchema,
  outboxResendBodySchema,
  outboxResendResultSchema,
  UNSUBSCRIBE_MESSAGES,
  unsubscribeQuerySchema,
  unsubscribeResultSchema,
  unsubscribeStatusSchema,
} from '@portal/contracts/alerts';
import { badRequest, notFound } from '../../errors';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { isSystemAdmin, requireManageOrganization, requireSystemAdmin } from '../access/policy';
import { organizationExists } from '../facilities/queries';
import { organizationAlertDefaults, outbox, subscriptionOf } from './queries';
import { resendFailedEmails, saveOrganizationAlertDefaults, saveSubscription } from './service';
import { stopAlertEmails, unsubscribeKey, unsubscribeStatus, verifyUnsubscribeToken } from './unsubscribe';

const idParams = z.object({ id: idParam() });

/**
 * Alerts (docs/decisions/0091-alerts.md): the caller's subscription, an organization's defaults (its administrator
 * or a SystemAdmin), and the e-mail outbox (SystemAdmin).
 */
export async function alertRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const server = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app;
  const tags = ['alerts'];

  // The unsubscribe link of the e-mails (unsubscribe.ts): public, the token says whose e-mails.
  const tokenUser = async (token: string) => {
    const userId = verifyUnsubscribeToken(await unsubscribeKey(db), token);
    const status = userId ? await unsubscribeStatus(db, userId) : null;
    if (!userId || !status) throw badRequest(UNSUBSCRIBE_MESSAGES.invalid);
    return { userId, status };
  };
  const unsubscribeConfig = { public: true, rateLimit: { max: 30, timeWindow: '1 minute' } };
  server.get(
    '/api/alerts/unsubscribe',
    {
      config: unsubscribeConfig,
      schema: {
        tags,
        description:
          'The unsubscribe link of an alert e-mail, without signing in: the address and whether alert e-mails are on. Changes nothing (mail scanners open links); POST stops them.',
        querystring: unsubscribeQuerySchema,
        response: { 200: unsubscribeStatusSchema },
      },
    },
    async (request) => (await tokenUser(request.query.token)).status,
  );
  server.post(
    '/api/alerts/unsubscribe',
    {
      config: unsubscribeConfig,
      schema: {
        tags,
        description:
          "Stops the alert e-mails of the token's user (the e-mail's List-Unsubscribe, RFC 8058 one-click, or the page's button): their settings in force without the e-mail channel; the alerts in the portal stay. Audited as the user.",
        querystring: unsubscribeQuerySchema,
        response: { 200: unsubscribeResultSchema },
      },
    },
    async (request) => {
      const { userId } = await tokenUser(request.query.token);
      const stopped = await stopAlertEmails(db, userId);
      return { message: stopped ? UNSUBSCRIBE_MESSAGES.stopped : UNSUBSCRIBE_MESSAGES.alreadyStopped };
    },
  );

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

  routes.post(
    '/api/admin/outbox/resend',
    {
      schema: {
        tags,
        description:
          'Sends failed e-mails again (SystemAdmin): those named by id, or every failed one with allFailed. Each goes back to pending with the job that sends it, in one audited transaction; an e-mail no longer failed is left alone. Answers how many were queued.',
        body: outboxResendBodySchema,
        response: { 200: outboxResendResultSchema },
      },
    },
    async (request) => {
      requireSystemAdmin(request.caller);
      return resendFailedEmails(app.services, request.caller, request.body);
    },
  );
}
