import { describe, expect, it } from 'vitest';
import { EVENT_REPORT_MESSAGES, type EventReportRevision } from '../events';
import {
  REPORT_CARD_TEXTS,
  reportCardState,
  revisionDownloadable,
  revisionLine,
  validateReportRevision,
} from './event-report';

const HASH = 'a3f1'.repeat(16);

describe('the report card', () => {
  it('edits and sends the first revision until it is sent', () => {
    expect(reportCardState({ sentOn: null, revision: 1, sha256: null })).toEqual({
      editable: true,
      canMarkSent: true,
      canRevise: false,
      status: REPORT_CARD_TEXTS.firstDraft,
    });
  });

  it('is frozen once sent: read only, no second sending, a new revision instead', () => {
    expect(reportCardState({ sentOn: '2025-06-02', revision: 1, sha256: HASH })).toEqual({
      editable: false,
      canMarkSent: false,
      canRevise: true,
      status: `Sent on 2025.06.02 · SHA-256 ${HASH}`,
    });
  });

  it('edits a new revision as the first, saying which one it supersedes, and freezes it once sent', () => {
    expect(reportCardState({ sentOn: null, revision: 2, sha256: null })).toMatchObject({
      editable: true,
      canMarkSent: true,
      canRevise: false,
      status: 'Revision 2, superseding revision 1: not sent yet. Edit it and mark it as sent.',
    });
    expect(reportCardState({ sentOn: '2025-06-05', revision: 2, sha256: HASH })).toMatchObject({
      editable: false,
      canRevise: true,
      status: `Revision 2 · Sent on 2025.06.05 · SHA-256 ${HASH}`,
    });
  });

  it('says so when a report was sent before the portal kept sent PDFs', () => {
    expect(reportCardState({ sentOn: '2024-11-20', revision: 1, sha256: null }).status).toBe(
      'Sent on 2024.11.20 · its PDF was not kept (sent before the portal kept sent reports)',
    );
  });
});

describe('the revisions list', () => {
  const first: EventReportRevision = {
    number: 1,
    reason: null,
    createdBy: 'south.lee',
    createdOn: '2025-06-02T09:00:00.000Z',
    sentOn: '2025-06-02',
    sentBy: 'south.lee',
    sha256: HASH,
  };
  const second: EventReportRevision = {
    number: 2,
    reason: 'The flag State asked for the repair date',
    createdBy: 'south.maria',
    createdOn: '2025-06-04T14:30:00.000Z',
    sentOn: null,
    sentBy: null,
    sha256: null,
  };

  it('names each revision, who made it and why, and when it was sent with its hash', () => {
    expect(revisionLine(first)).toEqual({
      title: 'Revision 1 · Sent on 2025.06.02 by south.lee',
      detail: `SHA-256 ${HASH}`,
    });
    expect(revisionLine(second)).toEqual({
      title: 'Revision 2 · Not sent yet',
      detail: 'Made by south.maria on 2025.06.04 14:30: The flag State asked for the repair date',
    });
  });

  it('offers the download of a sent revision whose PDF was kept, only', () => {
    expect(revisionDownloadable(first)).toBe(true);
    expect(revisionDownloadable(second)).toBe(false);
    expect(revisionDownloadable({ sentOn: '2024-11-20', sha256: null })).toBe(false);
  });
});

describe('new revision form', () => {
  it('asks why the report is revised', () => {
    expect(validateReportRevision({ reason: '' })).toEqual({ reason: EVENT_REPORT_MESSAGES.reasonRequired });
    expect(validateReportRevision({ reason: ' \u200b ' })).toEqual({
      reason: EVENT_REPORT_MESSAGES.reasonRequired,
    });
    expect(validateReportRevision({ reason: 'The port State asked for the repair date' })).toEqual({});
    expect(validateReportRevision({ reason: 'x'.repeat(1001) })).toEqual({
      reason: 'Cannot be longer than 1000 characters',
    });
  });
});
