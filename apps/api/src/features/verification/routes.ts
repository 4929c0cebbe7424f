import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PASSWORD_MESSAGES, newPasswordSchema } from '@portal/contracts/forms';
import {
  findingInputSchema,
  findingSchema,
  opinionInputSchema,
  opinionSchema,
  verificationYearResultSchema,
  verificationYearSchema,
  verifierInviteBodySchema,
  verifierSchema,
} from '@portal/contracts/verification';
import { authenticatedRoutes } from '../access/authenticated';
import { idParam } from '../access/params';
import { requireManageOrganization } from '../access/policy';
import { VERIFIER_OWN } from '../access/verifier';
import { escapeHtml, pageShell } from '../auth/provider';
import { acceptInvitation, INVITATION_PATH, inviteVerifier, listVerifiers, openInvitation } from './invite';
import { recordFinding, recordOpinion, verificationYear } from './service';

const tags = ['verification'];
const organizationParams = z.object({ id: idParam() });
const yearParams = z.object({ id: idParam(), year: verificationYearSchema });

/** The page of an invitation's link: choose a password (the sign-in page's look, no script of the portal's app). */
function invitationPage(token: string, username: string, organizationName: string, error?: string): string {
  return pageShell(
    'Choose your password',
    `${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<p>${escapeHtml(organizationName)} invited you as verifier. Your username is <strong>${escapeHtml(username)}</strong>.</p>
<form method="post" action="${INVITATION_PATH}${encodeURIComponent(token)}" autocomplete="on">
  <input type="hidden" name="username" value="${escapeHtml(username)}" autocomplete="username">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="new-password" required autofocus>
  <label for="confirmPassword">Repeat the password</label>
  <input id="confirmPassword" name="confirmPassword" type="password" autocomplete="new-password" required>
  <button class="primary" type="submit">Save the password</button>
</form>
<p class="hint">At least 8 characters, with a letter and a number, without spaces.</p>`,
  );
}

const usedPage = () =>
  pageShell(
    'Invitation',
    `<p class="error" role="alert">This link is not valid or was used already. Sign in with your password, or ask the organization's administrator to invite you again.</p>
<p><a href="/">Open the portal</a></p>`,
  );

/**
 * A verifier's seat (docs/decisions/0115-verifier.md): an organization's administrators invite verifiers and see
 * the verification; the invited verifier reads the year's figures and records findings and opinions
 * (`config.verifier: 'own'`, features/access/verifier.ts). The invitation's link is a page of its own, outside the
 * API, like the sign-in page.
 */
export async function verificationRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const server = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  routes.get(
    '/api/organizations/:id/verifiers',
    {
      schema: {
        tags,
        description: "The organization's invited verifiers with their years. Administrators.",
        params: organizationParams,
        response: { 200: z.array(verifierSchema) },
      },
    },
    async (request) => {
      requireManageOrganization(request.caller, request.params.id);
      return listVerifiers(db, request.params.id);
    },
  );

  routes.post(
    '/api/organizations/:id/verifiers',
    {
      schema: {
        tags,
        description:
          'Invites a verifier for reporting years: a user of role Verifier named by the e-mail address, sent a link to choose a password. Inviting the address again adds years. Administrators; audited.',
        params: organizationParams,
        body: verifierInviteBodySchema,
        response: { 201: verifierSchema },
      },
    },
    async (request, reply) => {
      const verifier = await inviteVerifier(app.services, request.caller, request.params.id, request.body);
      return reply.code(201).send(verifier);
    },
  );

  routes.get(
    '/api/organizations/:id/verification/:year',
    {
      config: VERIFIER_OWN,
      schema: {
        tags,
        description:
          "A year's verification: the organization's ships with their figures, the reconciliation with the differences above 5 % flagged, the evidence, the findings and the opinions (chained), and whether the figures changed since the last opinion. The invited verifier and the organization's administrators.",
        params: yearParams,
        response: { 200: verificationYearResultSchema },
      },
    },
    async (request) => verificationYear(db, request.caller, request.params.id, request.params.year),
  );

  routes.post(
    '/api/organizations/:id/verification/:year/findings',
    {
      config: VERIFIER_OWN,
      schema: {
        tags,
        description:
          'Records a finding (a non-conformity or a misstatement with its values; above 5 % is flagged). The invited verifier; audited.',
        params: yearParams,
        // The ship's id goes through the id rule (features/access/params.ts): anything else is no ship.
        body: findingInputSchema.extend({ facilityId: idParam().nullable() }),
        response: { 201: findingSchema },
      },
    },
    async (request, reply) => {
      const finding = await recordFinding(
        db,
        request.caller,
        request.params.id,
        request.params.year,
        request.body,
      );
      return reply.code(201).send(finding);
    },
  );

  routes.post(
    '/api/organizations/:id/verification/:year/opinions',
    {
      config: VERIFIER_OWN,
      schema: {
        tags,
        description:
          "Records the opinion on the year's figures as they are now, chained to the one before; it fixes their fingerprint, and a later change of the figures shows as a new version. The invited verifier; audited.",
        params: yearParams,
        body: opinionInputSchema,
        response: { 201: opinionSchema },
      },
    },
    async (request, reply) => {
      const opinion = await recordOpinion(
        db,
        request.caller,
        request.params.id,
        request.params.year,
        request.body,
      );
      return reply.code(201).send(opinion);
    },
  );

  const tokenParams = z.object({ token: z.string().max(200) });
  server.get(
    `${INVITATION_PATH}:token`,
    { config: { public: true }, schema: { hide: true, params: tokenParams } },
    async (request, reply) => {
      const invitation = await openInvitation(db, request.params.token);
      reply.type('text/html').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      if (!invitation) return reply.code(404).send(usedPage());
      return reply.send(
        invitationPage(request.params.token, invitation.username, invitation.organization_name),
      );
    },
  );

  server.post(
    `${INVITATION_PATH}:token`,
    {
      config: { public: true, rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        hide: true,
        params: tokenParams,
        body: z.object({
          password: z.string().max(500),
          confirmPassword: z.string().max(500),
          username: z.string().max(300).optional(),
        }),
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      reply.type('text/html').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      const invitation = await openInvitation(db, token);
      if (!invitation) return reply.code(404).send(usedPage());
      const { password, confirmPassword } = request.body;
      const checked = newPasswordSchema.safeParse(password);
      const problem = !checked.success
        ? checked.error.issues[0]!.message
        : password !== confirmPassword
          ? PASSWORD_MESSAGES.mismatch
          : null;
      if (problem)
        return reply
          .code(400)
          .send(invitationPage(token, invitation.username, invitation.organization_name, problem));
      if (!(await acceptInvitation(db, token, password))) return reply.code(404).send(usedPage());
      return reply.send(
        pageShell(
          'Password saved',
          `<p>Sign in with the username <strong>${escapeHtml(invitation.username)}</strong> and your new password.</p>
<p><a class="primary" href="/">Open the portal</a></p>`,
        ),
      );
    },
  );
}
