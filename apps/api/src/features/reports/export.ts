import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { sql, type Kysely, type Selectable } from 'kysely';
import {
  EXPORT_TIMESTAMP_FORMATS,
  fullPrecisionHeader,
  type ExportResolution,
} from '@portal/contracts/exports';
import { excelNumberFormat, roundByFormat } from '@portal/contracts/rules';
import type { Database } from '../../db/schema';
import type { ReportFieldsTable } from '../../db/tables/calculations';
import { timeAggregate } from './values';

const DAY_MS = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

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
      const result =
        resolution === 'hour'
          ? await sql<{
              t: number;
              field: string;
              s: number | null;
              c: number;
              mn: number | null;
              mx: number | null;
            }>`
              select extract(epoch from span_start) * 1000 as t, report_field_id as field, value as s, (value is not null)::int as c, value as mn, value as mx
              from report_values
              where facility_id = ${ship.id} and report_field_id = any(${sources}::uuid[]) and span_start >= ${from} and span_start <= ${to}
              order by span_start`.execute(db)
          : await sql<{
              t: number;
              field: string;
              s: number | null;
              c: number;
              mn: number | null;
              mx: number | null;
            }>`
              select extract(epoch from day::timestamp) * 1000 as t, report_field_id as field, value_sum as s, value_count as c, value_min as mn, value_max as mx
              from report_values_daily
              where facility_id = ${ship.id} and report_field_id = any(${sources}::uuid[])
                and day >= ${dayText(Math.floor(from.getTime() / DAY_MS) * DAY_MS)}::date and day <= ${dayText(to.getTime())}::date
              order by day`.execute(db);
      for (const r of result.rows) {
        const t = Number(r.t);
        const row = rows.get(t) ?? new Map();
        row.set(r.field, { sum: r.s ?? 0, count: Number(r.c), min: r.mn, max: r.mx, last: r.s });
        rows.set(t, row);
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
