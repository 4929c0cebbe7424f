import nodemailer, { type Transporter } from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Services } from '../../services';
import type { AlertEmailJob, JobContext, JobOutcome } from '../../jobs/contract';
import { unsubscribeKey, unsubscribeLinks, unsubscribeToken } from './unsubscribe';

/**
 * Sending the composed e-mails (docs/decisions/0091-alerts.md): over SMTP with nodemailer when SMTP_URL is set,
 * else into the embedded outbox (the delivery rows themselves, read at /admin/outbox). Each e-mail carries a
 * Message-ID made of its delivery's id, so a receiver sees one message even if a crash after the send makes the
 * job send it again.
 *
 * - The server answers 5xx (a rejected address): the delivery fails at once with the server's answer; the user
 *   sees it on the profile.
 * - No answer (unreachable, timeout) or 4xx: the job fails and the queue retries it with backoff; the last attempt
 *   marks what is still unsent as failed, with the error. Nothing is deleted: the outbox shows every state.
 */

const transports = new Map<string, Transporter>();

/** One pooled SMTP transport per address and process. */
function transportFor(url: string): Transporter {
  let transport = transports.get(url);
  if (!transport) {
    transport = nodemailer.createTransport({
      url,
      pool: true,
      maxConnections: 3,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    } as unknown as Parameters<typeof nodemailer.createTransport>[0]);
    transports.set(url, transport);
  }
  return transport;
}

/** Closes the pooled SMTP connections of this process (the worker's shutdown, tests). */
export function closeMailTransports(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}

interface SmtpError {
  message?: string;
  response?: string;
  responseCode?: number;
  code?: string;
}

/** A permanent refusal (5xx): sending again would be refused again. */
export const isPermanentSmtpError = (error: unknown) => {
  const code = (error as SmtpError | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/** The server's answer when there was one ("550 5.1.1 <x@y>: Recipient address rejected"), else the error. */
export function smtpErrorText(error: unknown): string {
  const e = (error ?? {}) as SmtpError;
  const text = e.response || e.message || String(error);
  return text.replace(/\s+/g, ' ').trim().slice(0, 1000);
}

/** The host part of the Message-ID: the portal's own. */
const messageIdHost = (publicUrl: string) => {
  try {
    return new URL(publicUrl).hostname || 'portal';
  } catch {
    return 'portal';
  }
};

async function markSent(db: Kysely<Database>, id: string, transport: string, messageId: string) {
  await db
    .updateTable('alert_deliveries')
    .set((eb) => ({
      status: 'sent',
      transport,
      message_id: messageId,
      sent_on: new Date(),
      last_error: null,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

async function markTried(db: Kysely<Database>, ids: string[], error: string, failed: boolean) {
  if (!ids.length) return;
  await db
    .updateTable('alert_deliveries')
    .set((eb) => ({
      ...(failed ? { status: 'failed' } : {}),
      last_error: error,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', 'in', ids)
    .where('status', '=', 'pending')
    .execute();
}

/** Points where the crash test steps in (apps/api/test/worker-with-hooks.ts); production passes none. */
export interface MailHooks {
  /** Before an e-mail goes to the SMTP server. */
  beforeSend?: (deliveryId: string) => void;
}

/** The e-mail job: sends the deliveries still pending, each once. */
export async function sendAlertEmails(
  services: Services,
  job: AlertEmailJob,
  context: JobContext,
  hooks: MailHooks = {},
): Promise<JobOutcome> {
  const { db } = services.database;
  const { config } = services;
  if (!job.deliveryIds.length) return { status: 'done' };
  const rows = await db
    .selectFrom('alert_deliveries')
    .select(['id', 'user_id', 'kind', 'idempotency_key', 'address', 'subject', 'text_body', 'html_body'])
    .where('id', 'in', job.deliveryIds)
    .where('status', '=', 'pending')
    .orderBy('created_on')
    .execute();
  if (!rows.length) return { status: 'skipped', reason: 'Every e-mail of the job is sent or failed already' };
  const host = messageIdHost(config.publicUrl);
  if (!config.SMTP_URL) {
    for (const row of rows) await markSent(db, row.id, 'outbox', `<${row.id}@${host}>`);
    return { status: 'done' };
  }
  const transport = transportFor(config.SMTP_URL);
  const key = await unsubscribeKey(db);
  const last = context.retryCount >= context.retryLimit;
  const unsent: string[] = [];
  let transient: string | null = null;
  for (const row of rows) {
    if (transient) {
      unsent.push(row.id);
      continue;
    }
    const messageId = `<${row.id}@${host}>`;
    try {
      hooks.beforeSend?.(row.id);
      await transport.sendMail({
        from: config.MAIL_FROM,
        to: row.address!,
        subject: row.subject ?? '',
        text: row.text_body ?? '',
        html: row.html_body ?? '',
        messageId,
        // RFC 8058: the mail program's own Unsubscribe stops alert e-mails with one POST (unsubscribe.ts). An
        // inspection pack's link is no alert: its schedule's administrators choose who gets it; nor is a
        // verifier's invitation (features/verification), nor a compliance deadline's reminder (it goes to the
        // organization's administrators whatever they chose).
        ...(row.kind === 'inspection-pack' ||
        row.kind === 'verifier-invitation' ||
        row.kind === 'deadline-reminder'
          ? { headers: { 'X-Portal-Idempotency-Key': row.idempotency_key } }
          : {
              list: {
                unsubscribe: {
                  url: unsubscribeLinks(config.publicUrl, unsubscribeToken(key, row.user_id)).oneClick,
                },
              },
              headers: {
                'X-Portal-Idempotency-Key': row.idempotency_key,
                'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
              },
            }),
      });
      await markSent(db, row.id, 'smtp', messageId);
    } catch (error) {
      if (isPermanentSmtpError(error)) await markTried(db, [row.id], smtpErrorText(error), true);
      else {
        transient = smtpErrorText(error);
        unsent.push(row.id);
      }
    }
  }
  if (!transient) return { status: 'done' };
  await markTried(db, unsent, transient, last);
  return {
    status: 'failed',
    error: last ? `Given up after ${context.retryCount + 1} attempts: ${transient}` : transient,
    permanent: false,
  };
}
