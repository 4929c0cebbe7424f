import {
  EVENT_CAUSE_NAMES,
  EVENT_CLASSIFICATION_NAMES,
  EVENT_STATE_NAMES,
  EVENT_TYPE_NAMES,
  RECORD_BOOK_KIND_NAMES,
  type ComplianceEvent,
  type EventReportStatus,
  type EventType,
} from '@portal/contracts/events';
import { HEALTH_FLAG_LABELS, type HealthStatus } from '@portal/contracts/data-health';
import {
  alertDurationText,
  formatByteSize,
  formatDate,
  formatDateTime,
  packPeriodLabel,
} from '@portal/contracts/rules';
import { eventTitle, eventValueText } from '@portal/contracts/rules';
import { PortalPdf } from '../../pdf/document';
import { drawTable } from '../../pdf/table';
import { drawLineChart } from './chart';
import type { PackContent } from './content';

/** An original logger file as packed: where it is in the zip, what it was, and the SHA-256 of its bytes there. */
export interface PackedOriginal {
  /** Its path inside the zip. */
  path: string;
  fileName: string;
  dataSource: string;
  uploadedOn: Date;
  bytes: number;
  sha256: string;
  /** The SHA-256 recorded when it was uploaded (data_files.content_sha256). */
  uploadSha256: string;
  /** Taken off the ship's file list with its samples kept; its data still counts. */
  removedOn: Date | null;
}

/** Event types that record where the ship went rather than how the scrubber did. */
export const ZONE_EVENT_TYPES: readonly EventType[] = [
  'eca-entry',
  'eca-exit',
  'open-loop-in-no-discharge-zone',
];

const MARGIN = 48;
const dash = '-';
const utc = (d: Date | string | null | undefined) => (d ? `${formatDateTime(d)}` : dash);
const position = (p: { latitude: number; longitude: number } | null) =>
  p
    ? `${Math.abs(p.latitude).toFixed(3)}° ${p.latitude >= 0 ? 'N' : 'S'} ${Math.abs(p.longitude).toFixed(3)}° ${p.longitude >= 0 ? 'E' : 'W'}`
    : dash;
const percent = (share: number | null) => (share === null ? dash : `${(share * 100).toFixed(1)} %`);

const HEALTH_STATUS_TEXT: Record<HealthStatus, string> = {
  ok: 'No channel was flagged in the period.',
  flagged: 'Some channels were flagged in the period (below).',
  noData: 'The ship has no samples in the period.',
  noChannels: 'The ship has no mapped channels.',
};

/** What the pack's PDF is for, under its title. */
const PURPOSE =
  'For the port State officer or the flag State surveyor: the EGCS of the ship, its compliance over the period, the record book with its verification, the calculations the figures come from and the state of the data. The original logger files of the period come with it in the same zip, listed with their SHA-256 in manifest.csv.';

/**
 * The inspection pack's PDF (docs/decisions/0106-inspection-packs.md), A4 with the portal's embedded fonts: the title
 * and ship particulars, the KPIs with the SO2/CO2 and washwater charts, the events, the zone crossings, the record
 * book with its verification, the calculations in force, data health and coverage, and the originals; a footer with
 * the ship, the period and the page on every page.
 */
export async function renderPackPdf(
  content: PackContent,
  originals: readonly PackedOriginal[],
  generatedOn: Date,
): Promise<Buffer> {
  const { ship, period } = content;
  const label = packPeriodLabel(period);
  const pdf = new PortalPdf({
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: `Inspection pack: ${ship.name}, ${label}`,
      Subject: 'EGCS inspection pack',
      Creator: 'Scrubber portal',
    },
  });
  const { doc } = pdf;
  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;

  // A heading keeps its first lines with it: one near the foot of a page starts the next.
  const heading = (text: string) => {
    if (doc.y > doc.page.height - MARGIN - 150) doc.addPage();
    doc.moveDown(0.6).fontSize(14).fillColor('#0b3954');
    pdf.text(text, { bold: true }, left, doc.y);
    doc
      .save()
      .moveTo(left, doc.y + 1)
      .lineTo(left + width, doc.y + 1)
      .lineWidth(0.8)
      .strokeColor('#0b3954')
      .stroke()
      .restore();
    doc.fillColor('#000000');
    doc.y += 6;
  };
  const paragraph = (text: string, size = 9, color = '#000000') => {
    doc.fontSize(size).fillColor(color);
    pdf.text(text, { width }, left, doc.y);
    doc.fillColor('#000000');
    doc.y += 4;
  };

  // Title.
  doc.fontSize(22).fillColor('#0b3954');
  pdf.text('Inspection pack', { bold: true }, left, doc.y);
  doc.fontSize(16).fillColor('#000000');
  pdf.text(ship.name, { bold: true });
  doc.fontSize(11);
  pdf.text(
    `${ship.imo ? `IMO ${ship.imo} · ` : ''}${label} (${formatDate(period.from)} 00:00 to ${formatDate(period.to)} 24:00 UTC)`,
  );
  doc.fontSize(8).fillColor('#555555');
  pdf.text(`Generated ${formatDateTime(generatedOn)} UTC by the scrubber portal. All times are UTC.`);
  doc.y += 6;
  paragraph(PURPOSE, 8.5, '#333333');

  heading('Ship particulars and EGCS');
  drawTable(pdf, {
    columns: [
      { header: 'Particular', width: 1 },
      { header: 'Value', width: 2.2 },
    ],
    fontSize: 8.5,
    rows: [
      ['Ship', ship.name],
      ['IMO number', ship.imo ?? dash],
      ['Operator (organization)', ship.organization],
      ['EGCS type', ship.scrubberSystemType ?? dash],
      ['Number of scrubbers', ship.numberOfScrubbers === null ? dash : String(ship.numberOfScrubbers)],
      ['EGCS manufacturer', ship.systemManufacturer ?? dash],
      ['Installed power served', ship.totalEffectKw === null ? dash : `${ship.totalEffectKw} kW`],
      ['In service since', ship.startDate ? formatDate(ship.startDate) : dash],
      ['Data in the portal', ship.dataFrom ? `${utc(ship.dataFrom)} to ${utc(ship.dataTo)}` : 'None'],
      ...ship.dataSources.map((s) => [
        s.primary ? 'Logger (primary data source)' : 'Logger',
        `${s.name}: one sample every ${s.measureFrequencySeconds} s (${s.reader})`,
      ]),
    ],
  });

  heading('KPIs of the period');
  paragraph(
    "Computed by the portal's approved calculations (listed below) from the ship's logger data, aggregated as the ship dashboard does.",
    8,
    '#333333',
  );
  drawTable(pdf, {
    columns: [
      { header: 'KPI', width: 1.3 },
      { header: 'Value', width: 0.7, align: 'right' },
      { header: 'What it measures', width: 2.6 },
    ],
    fontSize: 8.5,
    rows: content.kpis.map((k) => [k.label, k.value, k.explanation]),
  });
  drawLineChart(pdf, {
    title: 'SO2/CO2 ratio against its limit, per day',
    unit: 'ppm/% v/v',
    from: period.fromInstant.getTime(),
    to: period.toInstant.getTime(),
    cap: 25,
    series: [
      { label: 'SO2/CO2 ratio (daily average)', points: content.ratio.values, color: '#1f6fb2' },
      {
        label: 'Limit (4.3 in an ECA, 21.7 outside)',
        points: content.ratio.limit,
        color: '#c0392b',
        limit: true,
      },
    ],
    note: 'Daily averages of the hourly values, as the ship dashboard shows long periods; a day that crosses an ECA boundary averages both limits. Values above 25 are drawn at 25. Each exceedance is an event (below).',
  });
  drawLineChart(pdf, {
    title: 'Washwater discharge pH against its minimum, per day',
    unit: 'pH',
    from: period.fromInstant.getTime(),
    to: period.toInstant.getTime(),
    series: [
      { label: 'Lowest discharge pH of the day', points: content.ph.values, color: '#1e8449' },
      {
        label: 'Minimum (6.5, or inlet pH minus 2)',
        points: content.ph.limit,
        color: '#c0392b',
        limit: true,
      },
    ],
    emptyText: 'No washwater discharge in the period',
    note: 'Days with open-loop discharge only. The minimum shown is the most lenient of the day; each minute is judged against its own, and exceedances are events.',
  });

  // Events.
  const events = content.events;
  heading('Compliance events');
  const byType = new Map<string, ComplianceEvent[]>();
  for (const e of events) byType.set(e.type, [...(byType.get(e.type) ?? []), e]);
  paragraph(
    events.length === 0
      ? 'No compliance event in the period.'
      : `${events.length} ${events.length === 1 ? 'event overlaps' : 'events overlap'} the period. Report status: the report to the flag State and the port State (MEPC.1/Circ.883/Rev.1) is required for the events so marked; "sent" gives the day it was sent.`,
    8.5,
  );
  if (events.length) {
    drawTable(pdf, {
      columns: [
        { header: 'Type', width: 2 },
        { header: 'Events', width: 0.7, align: 'right' },
        { header: 'Malfunction or repeated', width: 1.1, align: 'right' },
        { header: 'Report required', width: 0.9, align: 'right' },
        { header: 'Report sent', width: 0.9, align: 'right' },
        { header: 'Acknowledged or closed', width: 1.1, align: 'right' },
      ],
      fontSize: 8,
      rows: [...byType.entries()].map(([type, list]) => [
        EVENT_TYPE_NAMES[type as EventType] ?? type,
        String(list.length),
        String(
          list.filter((e) => e.classification === 'malfunction' || e.classification === 'repeated').length,
        ),
        String(list.filter((e) => e.reportRequired).length),
        String(list.filter((e) => content.reports.get(e.id)?.state === 'sent').length),
        String(list.filter((e) => e.state !== 'open').length),
      ]),
    });
    drawTable(pdf, {
      caption: 'Every event',
      columns: [
        { header: 'Start (UTC)', width: 1.05 },
        { header: 'Duration', width: 0.6 },
        { header: 'Event', width: 1.45 },
        { header: 'Classification', width: 0.8 },
        // "pH 6.46 (minimum 6.50)" on one line.
        { header: 'Worst / limit', width: 1.3 },
        { header: 'Acknowledgement', width: 1.4 },
        { header: 'Report', width: 0.95 },
      ],
      fontSize: 7,
      padding: 2.5,
      rows: events.map((e) => [
        utc(e.start),
        e.ongoing
          ? `${alertDurationText(e.durationMinutes)} (going on)`
          : alertDurationText(e.durationMinutes),
        eventTitle(e),
        e.classification ? EVENT_CLASSIFICATION_NAMES[e.classification] : dash,
        eventValueText(e),
        e.state === 'open'
          ? 'Open'
          : `${EVENT_STATE_NAMES[e.state]} ${e.acknowledgedOn ? `${formatDate(e.acknowledgedOn)} by ${e.acknowledgedBy ?? dash}` : ''}${e.cause ? `; cause: ${EVENT_CAUSE_NAMES[e.cause]}` : ''}${e.closedOn ? `; closed ${formatDate(e.closedOn)} by ${e.closedBy ?? dash}` : ''}`,
        reportText(content.reports.get(e.id)),
      ]),
    });
  }

  heading('ECA and no-discharge-zone crossings');
  const crossings = events.filter((e) => ZONE_EVENT_TYPES.includes(e.type));
  paragraph(
    "Entries into and exits from emission control areas (MARPOL Annex VI regulation 14: 0.10 % sulfur inside), and open-loop discharge inside zones that ban it, from the ship's positions.",
    8,
    '#333333',
  );
  drawTable(pdf, {
    columns: [
      { header: 'Time (UTC)', width: 1.1 },
      { header: 'Crossing', width: 1.6 },
      { header: 'Position', width: 1.5 },
      { header: 'Duration', width: 0.8 },
    ],
    fontSize: 7.5,
    empty: 'No crossing in the period.',
    rows: crossings.map((e) => [
      utc(e.start),
      EVENT_TYPE_NAMES[e.type],
      position(e.startPosition),
      e.type === 'open-loop-in-no-discharge-zone' ? alertDurationText(e.durationMinutes) : dash,
    ]),
  });

  // Record book.
  heading('Record book');
  const { verification, entries } = content.recordBook;
  const verified = verification.valid;
  const verdict = verified
    ? `Verified: the whole record book (${verification.entries} entries) recomputes to the stored SHA-256 chain; no entry was changed, removed or inserted.`
    : `Not verified: the chain breaks at entry No. ${verification.firstInvalid.sequence} (${verification.firstInvalid.reason}). The entries from there on cannot be relied on.`;
  const boxY = doc.y;
  doc.fontSize(9);
  const boxHeight = doc.heightOfString(verdict, { width: width - 16 }) + 12;
  doc
    .save()
    .rect(left, boxY, width, boxHeight)
    .fillAndStroke(verified ? '#e8f5e9' : '#fdecea', verified ? '#2e7d32' : '#c62828')
    .restore();
  doc.fillColor(verified ? '#1b5e20' : '#b71c1c');
  pdf.text(verdict, { width: width - 16, bold: true }, left + 8, boxY + 6);
  doc.fillColor('#000000');
  doc.y = boxY + boxHeight + 8;
  drawTable(pdf, {
    caption: `Entries of the period and later entries about its events (${entries.length})`,
    columns: [
      { header: 'No.', width: 0.35, align: 'right' },
      { header: 'Occurred (UTC)', width: 0.95 },
      { header: 'Recorded by', width: 0.75 },
      { header: 'Kind', width: 0.8 },
      { header: 'Entry', width: 3 },
      { header: 'Hash', width: 0.8 },
    ],
    fontSize: 7,
    padding: 2.5,
    empty: 'No entry in the period.',
    rows: entries.map((e) => [
      String(e.sequence),
      utc(e.occurredOn),
      e.recordedBy,
      RECORD_BOOK_KIND_NAMES[e.kind] ?? e.kind,
      e.text,
      `${e.hash.slice(0, 12)}…`,
    ]),
  });

  heading('Calculations in force');
  paragraph(
    'The approved calculations whose validity overlaps the period: the measurement fields of this ship, then the fields of the ship reports the KPIs come from. A calculation without an approver is a product default.',
    8,
    '#333333',
  );
  drawTable(pdf, {
    columns: [
      { header: 'Calculation of', width: 2.2 },
      { header: 'Version', width: 0.55, align: 'right' },
      { header: 'Valid from', width: 0.75 },
      { header: 'Valid to', width: 0.75 },
      { header: 'Approved', width: 0.75 },
      { header: 'Approved by', width: 1 },
    ],
    fontSize: 7,
    padding: 2.5,
    empty: 'No approved calculation is in force in the period.',
    rows: content.calculations.map((c) => [
      `${c.kind === 'measurement' ? 'Measurement field' : 'Report'} ${c.name}`,
      `${c.version}.${c.revision}`,
      c.validFrom ? formatDate(c.validFrom) : dash,
      c.validTo ? formatDate(c.validTo) : 'open',
      formatDate(c.approvedOn),
      c.approvedBy ?? 'Product default',
    ]),
  });

  heading('Data health and coverage');
  const health = content.dataHealth;
  paragraph(
    `${HEALTH_STATUS_TEXT[health.status]} Coverage is the share of the samples expected from each logger's frequency that are present; the flags are those of the ship's data health view (stale, flat-lined, out of range against the organization's thresholds).`,
    8,
  );
  drawTable(pdf, {
    columns: [
      { header: 'Month', width: 1 },
      { header: 'Coverage of the mapped channels', width: 2, align: 'right' },
    ],
    fontSize: 7.5,
    rows: health.months.map((m) => [m.month, percent(m.coverage)]),
  });
  drawTable(pdf, {
    caption: 'Channels',
    columns: [
      { header: 'Channel', width: 1.65 },
      { header: 'Logger column', width: 1.9 },
      { header: 'Coverage', width: 0.55, align: 'right' },
      { header: 'Samples', width: 0.9, align: 'right' },
      { header: 'Flags', width: 0.85 },
      { header: 'Last value (UTC)', width: 0.85 },
    ],
    fontSize: 7,
    padding: 2.5,
    empty: 'No mapped channel.',
    rows: health.channels.map((c) => [
      c.channel,
      `${c.source} (${c.dataSource})`,
      percent(c.coverage),
      `${c.samples} of ${c.expectedSamples}`,
      c.flags.length
        ? `${c.flags.map((f) => HEALTH_FLAG_LABELS[f]).join(', ')} (${c.intervalCount} ${c.intervalCount === 1 ? 'interval' : 'intervals'})`
        : 'None',
      utc(c.lastValueOn),
    ]),
  });

  heading('Original logger files');
  const total = originals.reduce((sum, o) => sum + o.bytes, 0);
  const mismatched = originals.filter((o) => o.sha256 !== o.uploadSha256);
  paragraph(
    originals.length === 0
      ? 'No logger file of the ship has data in the period.'
      : `${originals.length} logger ${originals.length === 1 ? 'file has' : 'files have'} data in the period (${formatByteSize(total)}), in the zip as uploaded, under originals/. ${
          mismatched.length === 0
            ? 'Each file read back from the portal has the SHA-256 it had when it was uploaded.'
            : `${mismatched.length} ${mismatched.length === 1 ? 'file does' : 'files do'} not have the SHA-256 recorded at upload (marked below).`
        } manifest.csv lists them with their SHA-256 and the SHA-256 of this PDF.`,
    8.5,
  );
  drawTable(pdf, {
    columns: [
      { header: 'File', width: 1.55 },
      { header: 'Uploaded (UTC)', width: 0.8 },
      { header: 'Size', width: 0.5, align: 'right' },
      { header: 'SHA-256', width: 3.05 },
    ],
    fontSize: 6.3,
    padding: 2.5,
    empty: 'No file.',
    rows: originals.map((o) => [
      `${o.path.replace(/^originals\//, '')}${o.removedOn ? ` (taken off the file list ${formatDate(o.removedOn)}, samples kept)` : ''}`,
      utc(o.uploadedOn),
      formatByteSize(o.bytes),
      o.sha256 === o.uploadSha256 ? o.sha256 : `${o.sha256} (at upload: ${o.uploadSha256})`,
    ]),
  });

  // The footer of every page: what the page belongs to, and where it is.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.fontSize(7).fillColor('#666666');
    pdf.text(
      `Inspection pack · ${ship.name}${ship.imo ? ` (IMO ${ship.imo})` : ''} · ${label}`,
      { width: width - 80, lineBreak: false },
      left,
      doc.page.height - 30,
    );
    pdf.text(
      `Page ${i + 1} of ${range.count}`,
      { width: 80, align: 'right', lineBreak: false },
      left + width - 80,
      doc.page.height - 30,
    );
    doc.page.margins.bottom = bottom;
  }
  doc.fillColor('#000000');
  return pdf.finish();
}

/** An event's report in the events table: not required, required and not sent, or sent (revision, SHA-256 start). */
function reportText(status: EventReportStatus | undefined): string {
  if (!status || status.state === 'not-required') return 'Not required';
  if (status.state === 'draft')
    return status.revision > 1 ? `Revision ${status.revision} not sent` : 'Required, not sent';
  const revision = status.revision > 1 ? ` (revision ${status.revision})` : '';
  const hash = status.sha256 ? `, SHA-256 ${status.sha256.slice(0, 12)}…` : '';
  return `Sent ${status.sentOn ? formatDate(status.sentOn) : ''}${revision}${hash}`;
}
