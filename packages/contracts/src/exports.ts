import { z } from 'zod';
import { userText } from './forms/text';

/** Data export (spec part 2: POST algorithm/exports, an .xlsx named export.xlsx by default). */

export const EXPORT_RESOLUTIONS = ['hour', 'day'] as const;
export type ExportResolution = (typeof EXPORT_RESOLUTIONS)[number];

export const EXPORT_FILE_NAME = 'export.xlsx';

/** Excel number formats of the export's timestamps: the portal's display formats, UTC (spec part 1 section 9). */
export const EXPORT_TIMESTAMP_FORMATS: Record<ExportResolution, string> = {
  hour: 'yyyy.mm.dd hh:mm',
  day: 'yyyy.mm.dd',
};

/** The header of a field's full-precision column. */
export const fullPrecisionHeader = (header: string) => `${header}, full precision`;

/** A year of hourly values for 100 ships is about 876 000 rows per field; more is refused. */
export const EXPORT_MAX_DAYS = 800;

export const exportBodySchema = z
  .object({
    reportCode: userText().min(1, 'Choose a report').max(200),
    /** Only these fields of the report; all when absent or empty. */
    fieldNames: z.array(userText().max(200)).max(100).optional(),
    facilityIds: z.array(z.string()).min(1, 'Choose at least one ship').max(10_000),
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
    resolution: z.enum(EXPORT_RESOLUTIONS),
    /**
     * Values are rounded to their field format's decimals; with fullPrecision each field also gets a column with the
     * value as stored (all its digits). Off unless asked.
     */
    fullPrecision: z.boolean().optional(),
  })
  .refine((b) => new Date(b.from).getTime() <= new Date(b.to).getTime(), {
    message: 'From must be before to',
    path: ['to'],
  })
  .refine((b) => new Date(b.to).getTime() - new Date(b.from).getTime() <= EXPORT_MAX_DAYS * 86_400_000, {
    message: `At most ${EXPORT_MAX_DAYS} days`,
    path: ['to'],
  });
export type ExportBody = z.infer<typeof exportBodySchema>;

/** A spreadsheet cell text that a spreadsheet would read as a formula (CSV/formula injection). */
export function looksLikeFormula(text: string): boolean {
  return /^[=+\-@]/.test(text);
}
