import ExcelJS from 'exceljs';
import {
  EVENT_TYPE_NAMES,
  RECORD_BOOK_KIND_NAMES,
  type ComplianceEvent,
  type EventReportFields,
  type RecordBookEntryView,
} from '@portal/contracts/events';
import { formatDate } from '@portal/contracts/rules';
import { PortalPdf } from '../../pdf/document';

/**
 * The documents a ship's compliance work hands to others: the record book of a period as .xlsx (with each entry's
 * hash, so a reader can check the chain) and the report to the flag State and the port State as PDF.
 */
/** The export's times: to the second, as the entries are kept (ISO 8601 order, so they sort as text too). */
const RECORD_BOOK_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

export async function recordBookWorkbook(
  ship: { name: string; imo: string | null },
  entries: readonly RecordBookEntryView[],
  period: { from?: string; to?: string },
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  const sheet = workbook.addWorksheet('Record book');
  sheet.addRow([`EGCS record book of ${ship.name}${ship.imo ? ` (IMO ${ship.imo})` : ''}`]);
  sheet.addRow([
    `Entries that occurred from ${period.from ?? 'the first entry'} to ${period.to ?? 'the last entry'}; all times UTC`,
  ]);
  sheet.addRow([]);
  const header = sheet.addRow([
    'No.',
    'Occurred (UTC)',
    'Recorded (UTC)',
    'Recorded by',
    'Kind',
    'Entry',
    'Latitude',
    'Longitude',
    'Corrects entry',
    'Previous hash',
    'Hash (SHA-256)',
  ]);
  header.font = { bold: true };
  const sequenceOf = new Map(entries.map((e) => [e.id, e.sequence]));
  for (const e of entries) {
    // Every text is a plain string cell (never a formula), so "=cmd|..." in an entry stays text. Times are date cells
    // (Excel keeps no zone: the UTC time, as the header says), sequence and position numbers.
    const row = sheet.addRow([
      e.sequence,
      new Date(e.occurredOn),
      new Date(e.recordedOn),
      e.recordedBy,
      RECORD_BOOK_KIND_NAMES[e.kind] ?? e.kind,
      e.text,
      e.latitude,
      e.longitude,
      e.correctsId ? (sequenceOf.get(e.correctsId) ?? e.correctsId) : null,
      e.previousHash,
      e.hash,
    ]);
    row.getCell(2).numFmt = RECORD_BOOK_TIME_FORMAT;
    row.getCell(3).numFmt = RECORD_BOOK_TIME_FORMAT;
  }
  sheet.columns.forEach((column, i) => {
    column.width = [6, 18, 18, 16, 18, 80, 11, 11, 10, 20, 66][i] ?? 12;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Which revision a report's PDF is, and when it was sent (null: not sent yet). */
export interface ReportRevisionLabel {
  number: number;
  /** Why it supersedes the revision before; null for the first. */
  reason: string | null;
  /** YYYY-MM-DD */
  sentOn: string | null;
}

/**
 * The report to the flag State and the port State (MEPC.1/Circ.883/Rev.1) as a one-page PDF, in every script: its
 * revision (and why it supersedes the one before) under the title, the day it was sent at the end.
 */
export function eventReportPdf(
  event: ComplianceEvent,
  report: EventReportFields,
  revision: ReportRevisionLabel,
): Promise<Buffer> {
  const pdf = new PortalPdf({ info: { Title: `EGCS malfunction report, revision ${revision.number}` } });
  const { doc } = pdf;
  doc.fontSize(16);
  pdf.text('EGCS malfunction report', { bold: true });
  doc.moveDown(0.3).fontSize(9).fillColor('#444444');
  pdf.text('To the flag State Administration and the port State authority, as MEPC.1/Circ.883/Rev.1 asks.');
  doc.moveDown(0.3).fontSize(10).fillColor('#000000');
  pdf.text(
    revision.number === 1
      ? 'Revision 1'
      : `Revision ${revision.number}, superseding revision ${revision.number - 1}`,
    { bold: true },
  );
  if (revision.reason) {
    doc.fontSize(9);
    pdf.text(`Reason: ${revision.reason}`);
  }
  doc.moveDown(1).fillColor('#000000');
  const field = (label: string, value: string) => {
    doc.fontSize(9).fillColor('#444444');
    pdf.text(label);
    doc.fontSize(11).fillColor('#000000');
    pdf.text(value || '-');
    doc.moveDown(0.5);
  };
  field('Ship', report.shipName);
  field('IMO number', report.imo);
  field('Event', `${EVENT_TYPE_NAMES[event.type]}${event.ongoing ? ' (still going on)' : ''}`);
  field('Position at the start', report.position);
  field('Start (UTC)', report.start);
  field('Duration', report.duration);
  field('EGCS concerned', report.egcs);
  field('Instrument and readings', report.instrument);
  field('Cause', report.cause);
  field('Actions taken', report.actionsTaken);
  field('Actions planned', report.actionsPlanned);
  field('Expected time to repair', report.expectedRepair);
  if (revision.sentOn) field('Sent on', formatDate(revision.sentOn));
  return pdf.finish();
}
