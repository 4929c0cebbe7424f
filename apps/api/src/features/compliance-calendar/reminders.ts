import { ALERT_MESSAGE_DAYS, ALERT_MESSAGE_TYPE } from '../alerts/fan-out';
import {
  REGIME_NAMES,
  dayOf,
  daysUntil,
  deadlinesOfYear,
  reminderDue,
  type Deadline,
} from '@portal/contracts/rules/carbon';
import { formatDate } from '@portal/contracts/rules';
import { jobQueueOf, type Services } from '../../services';
import { verifiedOpinion } from './service';
import { JOB_NAMES, type AlertEmailJob } from '../../jobs/contract';

/**
 * The deadlines' reminders (decision 0119), through the alerts' paths: DEADLINE_REMINDER_DAYS before a deadline
 * that is not recorded as done, each administrator (UserAdmin) of each organization gets it once in the bell (a
 * personal message, like an alert's in-app delivery) and by e-mail when they gave an address (an alert_deliveries
 * row sent by the alert e-mail job: SMTP, or the embedded outbox). Once: the reminder's row (organization, year,
 * deadline) is written in the same transaction as its deliveries, and a second run finds it.
 */

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export const calendarLink = (baseUrl: string, year: number) =>
  `${baseUrl.replace(/\/+$/, '')}/carbon/calendar?year=${year}`;

export function composeReminder(deadline: Deadline, today: string, link: string) {
  const left = daysUntil(deadline.dueOn, today);
  const when = left === 0 ? 'today' : `in ${left} ${left === 1 ? 'day' : 'days'}`;
  const subject = `${REGIME_NAMES[deadline.regime]} deadline ${when}: ${deadline.title}`;
  const summary = `${deadline.title} is due by ${formatDate(`${deadline.dueOn}T00:00:00Z`)} (${when}), for ${deadline.reportingYear} (${deadline.citation}). It is not recorded as done in the portal.`;
  const action = 'When it is done, record it in the compliance calendar so the fleet sees it.';
  const text = [summary, '', action, link, ''].join('\n');
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;max-width:640px"><h1 style="font-size:18px">${escapeHtml(subject)}</h1><p>${escapeHtml(summary)}</p><p>${escapeHtml(action)}</p><p><a href="${escapeHtml(link)}">Open the compliance calendar</a></p></body></html>`;
  return { subject, text, html, bellTitle: subject, bellText: `${summary} ${link}` };
}

/** Writes the reminders due at `now` with their deliveries; answers how many reminders were written. */
export async function sendDueDeadlineReminders(services: Services, now = Date.now()): Promise<number> {
  const { db } = services.database;
  const day = dayOf(now);
  const year = Number(day.slice(0, 4));
  // The days before a deadline may reach into the next year: late December reminds of 31 January.
  const deadlines = [...deadlinesOfYear(year), ...deadlinesOfYear(year + 1)];
  const organizations = await db.selectFrom('organizations').select('id').orderBy('id').execute();
  let written = 0;
  for (const deadline of deadlines) {
    if (!reminderDue(deadline.dueOn, null, day)) continue;
    for (const { id: organizationId } of organizations) {
      const sent = await db.transaction().execute(async (trx) => {
        const done = await trx
          .selectFrom('compliance_deadline_marks')
          .select('code')
          .where('organization_id', '=', organizationId)
          .where('year', '=', deadline.year)
          .where('code', '=', deadline.code)
          .executeTakeFirst();
        if (done) return false;
        if (
          deadline.code === 'DCS_REPORT' &&
          (await verifiedOpinion(trx, organizationId, deadline.reportingYear))
        )
          return false;
        const admins = await trx
          .selectFrom('users as u')
          .leftJoin('alert_subscriptions as s', 's.user_id', 'u.id')
          .select(['u.id', 's.email'])
          .where('u.organization_id', '=', organizationId)
          .where('u.role', '=', 'UserAdmin')
          .orderBy('u.id')
          .execute();
        const claimed = await trx
          .insertInto('compliance_deadline_reminders')
          .values({
            organization_id: organizationId,
            year: deadline.year,
            code: deadline.code,
            sent_on: new Date(now),
            recipients: admins.length,
          })
          .onConflict((oc) => oc.columns(['organization_id', 'year', 'code']).doNothing())
          .returning('code')
          .executeTakeFirst();
        if (!claimed) return false;
        const mail = composeReminder(deadline, day, calendarLink(services.config.publicUrl, deadline.year));
        const key = `deadline:${organizationId}:${deadline.year}:${deadline.code}`;
        const emails: string[] = [];
        for (const admin of admins) {
          const bell = await trx
            .insertInto('alert_deliveries')
            .values({
              idempotency_key: `${key}:${admin.id}:in-app`,
              user_id: admin.id,
              channel: 'in-app',
              kind: 'deadline-reminder',
              status: 'sent',
              transport: 'in-app',
              attempts: 1,
              sent_on: new Date(now),
            })
            .onConflict((oc) => oc.column('idempotency_key').doNothing())
            .returning('id')
            .executeTakeFirst();
          if (bell) {
            const message = await trx
              .insertInto('messages')
              .values({
                title: mail.bellTitle,
                text: mail.bellText,
                show_from: new Date(now),
                show_to: new Date(now + ALERT_MESSAGE_DAYS * 86_400_000),
                notify: false,
                type: ALERT_MESSAGE_TYPE,
                is_personal: true,
                facility_id: null,
              })
              .returning('id')
              .executeTakeFirstOrThrow();
            await trx
              .insertInto('message_recipients')
              .values({ message_id: message.id, user_id: admin.id })
              .execute();
            await trx
              .updateTable('alert_deliveries')
              .set({ message_id: message.id })
              .where('id', '=', bell.id)
              .execute();
          }
          if (!admin.email) continue;
          const email = await trx
            .insertInto('alert_deliveries')
            .values({
              idempotency_key: `${key}:${admin.id}:email`,
              user_id: admin.id,
              channel: 'email',
              kind: 'deadline-reminder',
              status: 'pending',
              address: admin.email,
              subject: mail.subject,
              text_body: mail.text,
              html_body: mail.html,
            })
            .onConflict((oc) => oc.column('idempotency_key').doNothing())
            .returning('id')
            .executeTakeFirst();
          if (email) emails.push(email.id);
        }
        if (emails.length) {
          const job: AlertEmailJob = { deliveryIds: emails };
          await jobQueueOf(services).sendInTransaction(trx, JOB_NAMES.alertEmail, job);
        }
        return true;
      });
      if (sent) written++;
    }
  }
  return written;
}
