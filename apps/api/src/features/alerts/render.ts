import type { AlertSnapshot } from '@portal/contracts/alerts';
import {
  alertFacts,
  alertHeadline,
  alertSubject,
  alertText,
  eventLink,
  formatDate,
  formatDateTime,
} from '@portal/contracts/rules';
import {
  shipMapLink,
  ZONE_WARNING_ALERT_KIND,
  zoneWarningFacts,
  zoneWarningHeadline,
  zoneWarningSubject,
  type ZoneWarningSnapshot,
} from '@portal/contracts/zone-warnings';

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

/** What an alert's snapshot is: an event's, or a zone warning's (kind 'zone-warning', features/zone-warnings). */
export type AnyAlertSnapshot = AlertSnapshot | ZoneWarningSnapshot;

/** An alert's parts as every e-mail writes them: subject, headline, facts, link and the link's words. */
interface MailParts {
  subject: string;
  headline: string;
  facts: [string, string][];
  text: string;
  link: string;
  linkText: string;
}

function mailParts(kind: string, snapshot: AnyAlertSnapshot, baseUrl: string): MailParts {
  if (kind === ZONE_WARNING_ALERT_KIND) {
    const s = snapshot as ZoneWarningSnapshot;
    const link = shipMapLink(baseUrl, s.facilityId);
    const facts = zoneWarningFacts(s, formatDateTime);
    const text = [
      zoneWarningHeadline(s),
      '',
      ...facts.map(([label, value]) => `${label}: ${value}`),
      '',
      `The ship's track ahead and where it enters the zone are on its map: ${link}`,
    ].join('\n');
    return {
      subject: zoneWarningSubject(s),
      headline: zoneWarningHeadline(s),
      facts,
      text,
      link,
      linkText: 'Open the map in the portal',
    };
  }
  const s = snapshot as AlertSnapshot;
  const link = eventLink(baseUrl, s.eventId);
  return {
    subject: alertSubject(kind, s),
    headline: alertHeadline(kind, s),
    facts: alertFacts(s),
    text: alertText(kind, s, link),
    link,
    linkText: 'Open the event in the portal',
  };
}

function factsTable(facts: [string, string][]): string {
  const rows = facts
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
  snapshot: AnyAlertSnapshot,
  baseUrl: string,
  unsubscribeUrl: string,
): ComposedMail {
  const p = mailParts(kind, snapshot, baseUrl);
  const text = `${p.text}\n\n${footerText(unsubscribeUrl)}\n`;
  const html = page(
    p.subject,
    `<h1 style="font-size:18px">${escapeHtml(p.subject)}</h1><p>${escapeHtml(p.headline)}</p>${factsTable(p.facts)}<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.linkText)}</a></p>`,
    unsubscribeUrl,
  );
  return { subject: p.subject, text, html };
}

/** A day's digest: one e-mail listing the user's alerts of the day, oldest first, each with its facts and link. */
export function composeDigestMail(
  day: string,
  alerts: readonly { kind: string; snapshot: AnyAlertSnapshot }[],
  baseUrl: string,
  unsubscribeUrl: string,
): ComposedMail {
  const parts = alerts.map((a) => mailParts(a.kind, a.snapshot, baseUrl));
  const subject = `Alert digest ${formatDate(`${day}T00:00:00Z`)}: ${alerts.length} ${alerts.length === 1 ? 'alert' : 'alerts'}`;
  const text = [
    `Your alerts of ${formatDate(`${day}T00:00:00Z`)} (UTC):`,
    '',
    ...parts.flatMap((p, i) => [
      `${i + 1}. ${p.subject}`,
      ...p.text.split('\n').map((line) => (line ? `   ${line}` : '')),
      '',
    ]),
    footerText(unsubscribeUrl),
    '',
  ].join('\n');
  const html = page(
    subject,
    `<h1 style="font-size:18px">${escapeHtml(subject)}</h1>` +
      parts
        .map(
          (p) =>
            `<h2 style="font-size:16px;margin-top:20px">${escapeHtml(p.subject)}</h2><p>${escapeHtml(p.headline)}</p>${factsTable(p.facts)}<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.linkText)}</a></p>`,
        )
        .join(''),
    unsubscribeUrl,
  );
  return { subject, text, html };
}
