import { newEventReportRevisionSchema, type EventReport, type EventReportRevision } from '../events';
import { formatDate, formatDateTime } from '../rules/dates';
import { fieldErrors, type FieldErrors } from './errors';

/**
 * What the report card offers in each state of the report to the flag State and the port State
 * (docs/decisions/0104-sent-reports.md): while the current revision is not sent it is edited, saved and marked sent;
 * once sent it is frozen (read only, its PDF as sent), and only a new revision, made with a reason, supersedes it.
 */
export interface ReportCardState {
  /** The fields can be edited and saved. */
  editable: boolean;
  /** Mark as sent is offered. */
  canMarkSent: boolean;
  /** New revision is offered. */
  canRevise: boolean;
  /** The line under the card's title. */
  status: string;
}

export const REPORT_CARD_TEXTS = {
  firstDraft:
    'Required: a malfunction longer than one hour, or repeated (MEPC.1/Circ.883/Rev.1). Not sent yet.',
  revisionDraft: (revision: number) =>
    `Revision ${revision}, superseding revision ${revision - 1}: not sent yet. Edit it and mark it as sent.`,
  pdfNotKept: 'its PDF was not kept (sent before the portal kept sent reports)',
} as const;

export function reportCardState(
  report: Pick<EventReport, 'sentOn' | 'revision' | 'sha256'>,
): ReportCardState {
  const sent = report.sentOn !== null;
  if (!sent)
    return {
      editable: true,
      canMarkSent: true,
      canRevise: false,
      status:
        report.revision > 1 ? REPORT_CARD_TEXTS.revisionDraft(report.revision) : REPORT_CARD_TEXTS.firstDraft,
    };
  const revision = report.revision > 1 ? `Revision ${report.revision} · ` : '';
  const pdf = report.sha256 ? `SHA-256 ${report.sha256}` : REPORT_CARD_TEXTS.pdfNotKept;
  return {
    editable: false,
    canMarkSent: false,
    canRevise: true,
    status: `${revision}Sent on ${formatDate(report.sentOn)} · ${pdf}`,
  };
}

/** A line of the revisions list: who made it and why, when it was sent (and by whom), or that it is not sent yet. */
export function revisionLine(revision: EventReportRevision): { title: string; detail: string } {
  const made =
    revision.number === 1
      ? ''
      : `Made by ${revision.createdBy ?? 'Unknown'} on ${formatDateTime(revision.createdOn)}: ${revision.reason ?? ''}`;
  const sent = revision.sentOn
    ? `Sent on ${formatDate(revision.sentOn)}${revision.sentBy ? ` by ${revision.sentBy}` : ''}`
    : 'Not sent yet';
  return {
    title: `Revision ${revision.number} · ${sent}`,
    detail: [made, revision.sentOn ? (revision.sha256 ? `SHA-256 ${revision.sha256}` : '') : '']
      .filter(Boolean)
      .join(' · '),
  };
}

/** Whether a revision's PDF as sent can be downloaded: it was sent, and its PDF kept. */
export const revisionDownloadable = (revision: Pick<EventReportRevision, 'sentOn' | 'sha256'>): boolean =>
  revision.sentOn !== null && revision.sha256 !== null;

/** New revision: why the sent report is superseded. */
export const validateReportRevision = (values: { reason: string }): FieldErrors<'reason'> =>
  fieldErrors(newEventReportRevisionSchema, values);
