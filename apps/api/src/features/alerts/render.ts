import type { AlertSnapshot } from '@portal/contracts/alerts';
import {
  alertFacts,
  alertHeadline,
  alertSubject,
  alertText,
  eventLink,
  formatDate,
} from '@portal/contracts/rules';

/** An e-mail as composed: subject, plain text and HTML (one per alert, or one per digest). */
export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const FOOTER = 'You receive this because of your alert settings in the portal (My profile, Alerts).';
const STOP = 'Stop alert e-mails';

/** The footer's text: why, and the link that stops alert e-mails (unsubscribe.ts). */
const footerText = (unsubscribeUrl: string) => `${FOOTER}\n${STOP}: ${unsubscribeUrl}`;

function factsTable(s: AlertSnapshot): string {
  const rows = alertFacts(s)
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding:2px 12px 2px 0;color:#555;font-weight:normal">${escapeHtml(label)}</th><td style="padding:2px 0">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  return `<table role="presentation" style="border-collapse:collapse;font-size:14px">${rows}</table>`;
}

function page(title: string, body: string, unsubscribeUrl: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;max-width:640px">${body}<p style="color:#555;font-size:12px;margin-top:24px">${escapeHtml(FOOTER)} <a href="${escapeHtml(unsubscribeUrl)}" style="color:#555">${STOP}</a></p></body></html>`;
}

/**
 * One alert's e-mail: what happened, the facts, the link to the event (through sign-in when needed) and the
 * recipient's link that stops alert e-mails.
 */
export function composeAlertMail(
  kind: string,
  snapshot: AlertSnapshot,
  baseUrl: string,
  unsubscribeUrl: string,
): ComposedMail {
  const link = eventLink(baseUrl, snapshot.eventId);
  const subject = alertSubject(kind, snapshot);
  const text = `${alertText(kind, snapshot, link)}\n\n${footerText(unsubscribeUrl)}\n`;
  const html = page(
    subject,
    `<h1 style="font-size:18px">${escapeHtml(subject)}</h1><p>${escapeHtml(alertHeadline(kind, snapshot))}</p>${factsTable(snapshot)}<p><a href="${escapeHtml(link)}">Open the event in the portal</a></p>`,
    unsubscribeUrl,
  );
  return { subject, text, html };
}

/** A day's digest: one e-mail listing the user's alerts of the day, oldest first, each with its facts and link. */
export function composeDigestMail(
  day: string,
  alerts: readonly { kind: string; snapshot: AlertSnapshot }[],
  baseUrl: string,
  unsubscribeUrl: string,
): ComposedMail {
  const subject = `Alert digest ${formatDate(`${day}T00:00:00Z`)}: ${alerts.length} ${alerts.length === 1 ? 'alert' : 'alerts'}`;
  const text = [
    `Your alerts of ${formatDate(`${day}T00:00:00Z`)} (UTC):`,
    '',
    ...alerts.flatMap((a, i) => [
      `${i + 1}. ${alertSubject(a.kind, a.snapshot)}`,
      ...alertText(a.kind, a.snapshot, eventLink(baseUrl, a.snapshot.eventId))
        .split('\n')
        .map((line) => (line ? `   ${line}` : '')),
      '',
    ]),
    footerText(unsubscribeUrl),
    '',
  ].join('\n');
  const html = page(
    subject,
    `<h1 style="font-size:18px">${escapeHtml(subject)}</h1>` +
      alerts
        .map(
          (a) =>
            `<h2 style="font-size:16px;margin-top:20px">${escapeHtml(alertSubject(a.kind, a.snapshot))}</h2><p>${escapeHtml(alertHeadline(a.kind, a.snapshot))}</p>${factsTable(a.snapshot)}<p><a href="${escapeHtml(eventLink(baseUrl, a.snapshot.eventId))}">Open the event in the portal</a></p>`,
        )
        .join(''),
    unsubscribeUrl,
  );
  return { subject, text, html };
}
