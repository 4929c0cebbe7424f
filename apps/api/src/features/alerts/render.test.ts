import { describe, expect, it } from 'vitest';
import type { AlertSnapshot } from '@portal/contracts/alerts';
import { composeAlertMail, composeDigestMail } from './render';
import { dedupeKey, isRecent } from './outbox';

const snapshot: AlertSnapshot = {
  facilityId: 'f1',
  facilityName: 'Baltic <Tern> & Co',
  eventId: '7d0b6c1e-0000-4000-8000-000000000001',
  type: 'scrubber-off',
  typeName: 'Scrubber off while required',
  classification: 'malfunction',
  reportRequired: false,
  start: '2025-05-06T08:15:00.000Z',
  end: '2025-05-06T08:45:00.000Z',
  durationMinutes: 30,
  worstValue: null,
  limit: null,
  channel: null,
  fault: null,
};

const UNSUBSCRIBE = 'https://portal.example/unsubscribe?token=u1.sig&x=<1>';

describe('alert e-mails', () => {
  it('one e-mail per alert, in text and in HTML with the names escaped and the event linked', () => {
    const mail = composeAlertMail('opened', snapshot, 'https://portal.example', UNSUBSCRIBE);
    expect(mail.subject).toBe('Baltic <Tern> & Co: Scrubber off while required (malfunction)');
    expect(mail.text).toContain('Ship: Baltic <Tern> & Co');
    expect(mail.text).toContain(
      'Open the event: https://portal.example/events/7d0b6c1e-0000-4000-8000-000000000001',
    );
    expect(mail.html).toContain('Baltic &lt;Tern&gt; &amp; Co');
    expect(mail.html).not.toContain('<Tern>');
    expect(mail.html).toContain('href="https://portal.example/events/7d0b6c1e-0000-4000-8000-000000000001"');
    // Every e-mail says why it came and how to stop it.
    expect(mail.text).toMatch(
      /\nStop alert e-mails: https:\/\/portal\.example\/unsubscribe\?token=u1\.sig&x=<1>\n$/,
    );
    expect(mail.html).toContain('<a href="https://portal.example/unsubscribe?token=u1.sig&amp;x=&lt;1&gt;"');
  });

  it('a digest lists each alert of the day once, numbered', () => {
    const mail = composeDigestMail(
      '2025-05-06',
      [
        { kind: 'opened', snapshot },
        { kind: 'resolved', snapshot: { ...snapshot, eventId: 'e2' } },
      ],
      'https://portal.example',
      UNSUBSCRIBE,
    );
    expect(mail.subject).toBe('Alert digest 2025.05.06: 2 alerts');
    expect(mail.text).toContain(`Stop alert e-mails: ${UNSUBSCRIBE}`);
    expect(mail.text).toMatch(/^1\. Baltic <Tern> & Co: Scrubber off while required \(malfunction\)$/m);
    expect(mail.text).toMatch(/^2\. Baltic <Tern> & Co: Scrubber off while required ended$/m);
    expect(mail.html.match(/Open the event in the portal/g)).toHaveLength(2);
  });
});

describe('the outbox rules', () => {
  it('an event opens once, rises to each level once, ends once', () => {
    expect(dedupeKey('opened', 'e', 2)).toBe('e:opened');
    expect(dedupeKey('classified-up', 'e', 3)).toBe('e:level-3');
    expect(dedupeKey('resolved', 'e', 3)).toBe('e:resolved');
  });

  it('alerts only what reaches into the last hours', () => {
    const now = Date.UTC(2025, 4, 6, 12);
    expect(isRecent({ end: now - 71 * 3_600_000 }, 72, now)).toBe(true);
    expect(isRecent({ end: now - 73 * 3_600_000 }, 72, now)).toBe(false);
  });
});
