import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Kysely, Selectable } from 'kysely';
import {
  EXPORT_TIMESTAMP_FORMATS,
  fullPrecisionHeader,
  type ExportResolution,
} from '@portal/contracts/exports';
import { excelNumberFormat, roundByFormat } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import type { ReportFieldsTable } from '../../db/tables/calculations';
import { readDailyPartials, readHourlyPartials } from '../../storage';
import { timeAggregate } from './values';

export interface ExportRequest {
  report: { id: string; name: string };
  fields: Selectable<ReportFieldsTable>[];
  sourceOf: Map<string, string>;
  ships: { id: string; name: string; imo: string | null }[];
  from: Date;
  to: Date;
  resolution: ExportResolution;
  /** Also a column per field with the value as stored. */
  fullPrecision?: boolean;
}

/**
 * Streams the report's values as an .xlsx: one sheet per report, a row per ship and hour (or UTC day),
 * a column per field with its unit in the header. Timestamps are date cells (UTC) in the portal's display format;
 * values are rounded to their field format's decimals (roundByFormat, the dashboards' rule) with that many decimals
 * as the cells' number format; with fullPrecision each field is followed by a column of the value as stored.
 * Day values aggregate the hours by the field's time aggregate type.
 */
export function exportWorkbook(db: Kysely<Database>, request: ExportRequest): PassThrough {
  const stream = new PassThrough();
  void writeWorkbook(db, request, stream).catch((error: unknown) => stream.destroy(error as Error));
  return stream;
}

async function writeWorkbook(
  db: Kysely<Database>,
  { report, fields, sourceOf, ships, from, to, resolution, fullPrecision = false }: ExportRequest,
  stream: PassThrough,
) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Scrubber portal';
  // Sheet names: at most 31 characters, none of : \ / ? * [ ].
  const sheet = workbook.addWorksheet(report.id.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31));
  sheet.columns = [
    { header: 'Ship', key: 'ship', width: 28 },
    { header: 'IMO', key: 'imo', width: 12 },
    {
      header: 'Timestamp (UTC)',
      key: 'timestamp',
      width: 20,
      style: { numFmt: EXPORT_TIMESTAMP_FORMATS[resolution] },
    },
    ...fields.flatMap((f) => {
      const header = f.unit ? `${f.name} (${f.unit})` : f.name;
      const rounded = { header, key: f.id, width: 18, style: { numFmt: excelNumberFormat(f.format) } };
      return fullPrecision
        ? [rounded, { header: fullPrecisionHeader(header), key: `${f.id}:full`, width: 24 }]
        : [rounded];
    }),
  ];

  const sources = [...new Set(fields.map((f) => sourceOf.get(f.id) ?? f.id))];
  for (const ship of ships) {
    // ship -> time -> source field -> value
    const rows = new Map<
      number,
      Map<string, { sum: number; count: number; min: number | null; max: number | null; last: number | null }>
    >();
    if (sources.length) {
      const stored =
        resolution === 'hour'
          ? await readHourlyPartials(db, ship.id, sources, from, to)
          : await readDailyPartials(db, ship.id, sources, from, to);
      for (const r of stored) {
        const row = rows.get(r.t) ?? new Map();
        row.set(r.fieldId, { sum: r.sum ?? 0, count: r.count, min: r.min, max: r.max, last: r.sum });
        rows.set(r.t, row);
      }
    }
    for (const t of [...rows.keys()].sort((a, b) => a - b)) {
      const values = rows.get(t)!;
      // Names are plain strings for exceljs (string cells, never formulas), so "=cmd|..." stays text.
      const record: Record<string, unknown> = { ship: ship.name, imo: ship.imo, timestamp: new Date(t) };
      for (const f of fields) {
        const p = values.get(sourceOf.get(f.id) ?? f.id);
        const value =
          f.time_aggregate_type === 'Last'
            ? (p?.last ?? null)
            : timeAggregate(f.time_aggregate_type, p ? { ...p, latest: null } : undefined);
        record[f.id] = roundByFormat(value, f.format);
        if (fullPrecision) record[`${f.id}:full`] = value;
      }
      sheet.addRow(record).commit();
    }
  }
  sheet.commit();
  await workbook.commit();
}
