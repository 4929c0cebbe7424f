import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Verifier, VerifierInviteBody } from '@portal/contracts/verification';
import { generatePassword } from '@portal/contracts/forms';
import type { Database } from '../../db/schema';
import { JOB_NAMES, type AlertEmailJob } from '../../jobs/contract';
import { jobQueueOf, type Services } from '../../services';
import { conflict, notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { requireManageOrganization } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { hashPassword } from '../auth/passwords';
import { escapeHtml } from '../auth/provider';
import { lookAlikeUsername } from '../users/queries';

/**
 * Inviting a verifier (docs/decisions/0115-verifier.md): a user of role Verifier in the organization, named by the
 * e-mail address, with the years it may verify, and an e-mail through the alerts' mail path (alert_deliveries and
 * the alert-email job: SMTP, or the embedded outbox) with a link, used once, to choose a password. The verifier then
 * signs in as everyone does. Inviting an address again adds years and sends a new link while the first is unused.
 */

export const INVITATION_PATH = '/invitation/';
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export function invitationMail(options: { organizationName: string; years: number[]; link: string }) {
  const years = options.years.join(', ');
  const subject = `You are invited to verify the emissions of ${options.organizationName} for ${years}`;
  const summary = `${options.organizationName} invites you as verifier of its ships' monitoring of ${years}. You can read the carbon ledger, the bunker delivery notes, the record book and the reconciliation of those years, and record your findings and opinion.`;
  const how = 'Open the link to choose your password, then sign in with this e-mail address as username.';
  const text = `${summary}\n\n${how}\n${options.link}\n`;
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;max-width:640px"><h1 style="font-size:18px">${escapeHtml(subject)}</h1><p>${escapeHtml(summary)}</p><p>${escapeHtml(how)}</p><p><a href="${escapeHtml(options.link)}">Choose your password</a></p></body></html>`;
  return { subject, text, html };
}

export async function listVerifiers(db: Kysely<Database>, organizationId: string): Promise<Verifier[]> {
  const rows = await db
    .selectFrom('verifier_invitations as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select(['u.id', 'u.username', 'i.email', 'i.invited_on', 'i.accepted_on'])
    .where('i.organization_id', '=', organizationId)
    .where('u.organization_id', '=', organizationId)
    .orderBy('i.invited_on')
    .execute();
  const years = rows.length
    ? await db
        .selectFrom('verifier_years')
        .select(['user_id', 'year'])
        .where(
          'user_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('year')
        .execute()
    : [];
  return rows.map((r) => ({
    userId: r.id,
    username: r.username,
    email: r.email,
    years: years.filter((y) => y.user_id === r.id).map((y) => y.year),
    invitedOn: new Date(r.invited_on).toISOString(),
    acceptedOn: r.accepted_on ? new Date(r.accepted_on).toISOString() : null,
  }));
}

export async function inviteVerifier(
  services: Services,
  caller: Caller,
  organizationId: string,
  body: VerifierInviteBody,
): Promise<Verifier> {
  const { db } = services.database;
  requireManageOrganization(caller, organizationId);
  const organization = await db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  if (!organization) throw notFound('Organization not found');
  const email = body.email.toLowerCase();
  const years = [...new Set(body.years)].sort((a, b) => a - b);
  const existing = await db
    .selectFrom('users')
    .select(['id', 'role', 'organization_id'])
    .where((eb) => eb(eb.fn('lower', ['username']), '=', email))
    .executeTakeFirst();
  if (existing && (existing.role !== 'Verifier' || existing.organization_id !== organizationId))
    throw conflict('A user with this username already exists', {
      email: 'This address is the username of another user',
    });
  if (!existing && (await lookAlikeUsername(db, email)))
    throw conflict('A user with a username that looks the same already exists', {
      email: 'Looks the same as an existing username',
    });
  const token = randomBytes(32).toString('base64url');
  // Nobody knows this password: the verifier chooses its own from the link.
  const passwordHash = existing
    ? null
    : await hashPassword(generatePassword() + randomBytes(16).toString('hex'));
  const userId = await auditedChange(
    db,
    caller,
    async (trx) => {
      const id =
        existing?.id ??
        (
          await trx
            .insertInto('users')
            .values({
              organization_id: organizationId,
              username: email,
              password_hash: passwordHash!,
              role: 'Verifier',
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      await trx
        .insertInto('verifier_years')
        .values(years.map((year) => ({ user_id: id, year })))
        .onConflict((oc) => oc.doNothing())
        .execute();
      const invitation = await trx
        .insertInto('verifier_invitations')
        .values({
          user_id: id,
          organization_id: organizationId,
          email,
          token_sha256: tokenHash(token),
          invited_by: caller.apiKey ? null : caller.userId,
        })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet((eb) => ({
            // An unused link is replaced by the new one; once used, the verifier signs in with its password.
            token_sha256: eb
              .case()
              .when('verifier_invitations.accepted_on', 'is', null)
              .then(tokenHash(token))
              .else(eb.ref('verifier_invitations.token_sha256'))
              .end(),
            invited_on: new Date(),
          })),
        )
        .returning(['accepted_on'])
        .executeTakeFirstOrThrow();
      const allYears = (
        await trx
          .selectFrom('verifier_years')
          .select('year')
          .where('user_id', '=', id)
          .orderBy('year')
          .execute()
      ).map((y) => y.year);
      const link = invitation.accepted_on
        ? services.config.publicUrl.replace(/\/$/, '') + '/'
        : `${services.config.publicUrl.replace(/\/$/, '')}${INVITATION_PATH}${token}`;
      const mail = invitationMail({ organizationName: organization.name, years: allYears, link });
      const delivery = await trx
        .insertInto('alert_deliveries')
        .values({
          idempotency_key: `verifier-invitation:${id}:${tokenHash(token)}`,
          user_id: id,
          channel: 'email',
          kind: 'verifier-invitation',
          status: 'pending',
          address: email,
          subject: mail.subject,
          text_body: mail.text,
          html_body: mail.html,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const job: AlertEmailJob = { deliveryIds: [delivery.id] };
      await jobQueueOf(services).sendInTransaction(trx, JOB_NAMES.alertEmail, job);
      return id;
    },
    (id) => ({
      action: 'verifier.invite',
      subject: id,
      detail: { organizationId, email, years },
    }),
  );
  return (await listVerifiers(db, organizationId)).find((v) => v.userId === userId)!;
}

/** The open invitation of a link, or null (unknown, or used already). */
export async function openInvitation(db: Kysely<Database>, token: string) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const row = await db
    .selectFrom('verifier_invitations as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .select(['i.user_id', 'i.organization_id', 'u.username', 'o.name as organization_name', 'i.accepted_on'])
    .where('i.token_sha256', '=', tokenHash(token))
    .executeTakeFirst();
  return row && !row.accepted_on ? row : null;
}

/** Sets the verifier's password from its link, once. */
export async function acceptInvitation(db: Kysely<Database>, token: string, password: string) {
  const invitation = await openInvitation(db, token);
  if (!invitation) return null;
  const passwordHash = await hashPassword(password);
  await auditedChange(
    db,
    { userId: invitation.user_id, organizationId: invitation.organization_id },
    async (trx) => {
      const accepted = await trx
        .updateTable('verifier_invitations')
        .set({ accepted_on: new Date() })
        .where('user_id', '=', invitation.user_id)
        .where('accepted_on', 'is', null)
        .returning('user_id')
        .executeTakeFirst();
      if (!accepted) throw conflict('This invitation was used already');
      await trx
        .updateTable('users')
        .set({ password_hash: passwordHash })
        .where('id', '=', invitation.user_id)
        .execute();
    },
    { action: 'verifier.accept', subject: invitation.user_id },
  );
  return invitation;
}
