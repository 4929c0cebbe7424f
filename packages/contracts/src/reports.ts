import { z } from 'zod';
import { userText } from './forms/text';

/**
 * Reports, their fields and their values (spec part 1 sections 3 and 7, part 2 sections 3 and 7).
 * A report's id is its code (FacilityMarpolcompliance, FacilityGroupSO2CO2Ratio, ...).
 */

export const REPORT_TARGETS = ['Facility', 'FacilityGroup'] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

export const AGGREGATE_TYPES = ['Average', 'Sum', 'Min', 'Max', 'Last', 'Count'] as const;
export type AggregateType = (typeof AGGREGATE_TYPES)[number];

/**
 * How a field's value is shaped ("shown as"):
 * - Number: one number over the period (or lifetime);
 * - FacilityList: one value per ship, as `{ facilityId, value, timestamp }`;
 * - Series: `{ timestamp, value }` points (hourly, or daily averages for long periods);
 * - ComplianceValues: the same points as `{ complianceDate, value }`;
 * - UptimePoints: `{ timestamp, value }`, hourly or daily by the uptime mode;
 * - FleetNumber: one number over the fleet (the posted ships), also in a ship report, for comparison.
 */
export const INTERFACE_TYPES = [
  'Number',
  'FacilityList',
  'Series',
  'ComplianceValues',
  'UptimePoints',
  'FleetNumber',
] as const;
export type InterfaceType = (typeof INTERFACE_TYPES)[number];

/** Field formats: how a widget prints the number (Number: 2 decimals with the field's unit; Hours: 1 decimal, h). */
export const FIELD_FORMATS = ['Percent', 'Tonnes', 'Ratio', 'Number', 'Hours'] as const;
export type FieldFormat = (typeof FIELD_FORMATS)[number];

/** The widget field names of spec part 1 section 3. */
export const REPORT_FIELD_NAMES = [
  'ActualAverage',
  'Average',
  'Lifetime',
  'FleetActual',
  'Facilities',
  'Values',
  'Facility',
  'Limit',
] as const;

/** Report codes of spec part 1 section 3; the two {hash} ones are named FacilityGroupSO2CO2Ratio and FacilitySO2CO2Ratio. */
export const REPORT_CODES = {
  fleetExtraRemovalOfSulfur: 'FacilityGroupExtraremovalofsulfur',
  fleetCo2Reduction: 'FacilityGroupCO2reduction',
  fleetTotalCo2Emission: 'FacilityGroupTotalCO2Emission',
  fleetMarpolCompliance: 'FacilityGroupMarpolComplianceLarge',
  fleetSo2Co2Ratio: 'FacilityGroupSO2CO2Ratio',
  fleetOperationalAvailability: 'FacilityGroupOperationalAvailabilitylarge',
  fleetSfocImpact: 'FacilityGroupSFOCimpactPctlarge',
  shipMarpolCompliance: 'FacilityMarpolcompliance',
  shipOperationalAvailability: 'FacilityOperationalavailability',
  shipCo2Reduction: 'FacilityCO2reduction',
  shipExtraRemovalOfSulfur: 'FacilityExtraremovalofsulfur',
  shipSfocImpact: 'FacilitySFOCimpactPct',
  shipTotalCo2Emission: 'FacilityTotalCO2Emission',
  shipSo2Co2Ratio: 'FacilitySO2CO2Ratio',
  shipUptime: 'FacilityOperationalAvailabilitylarge',
  // Washwater (issue 20; docs/decisions/0100-washwater.md).
  fleetWashwaterCompliance: 'FacilityGroupWashwaterCompliance',
  shipWashwaterCompliance: 'FacilityWashwaterCompliance',
  shipWashwaterCriteria: 'FacilityWashwaterCriteria',
  shipOpenLoopInNoDischargeZone: 'FacilityOpenLoopInNoDischargeZoneHours',
} as const;
export type ReportCode = (typeof REPORT_CODES)[keyof typeof REPORT_CODES];

const nullableText = z.string().nullable();

/** The approved calculation that is valid now, as the detail page shows it read-only. */
export const approvedCalculationSchema = z.object({
  id: z.string(),
  version: z.number(),
  revision: z.number(),
  transformAlgorithm: z.string(),
  inputIds: z.array(z.string()),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
});

export const reportFieldSchema = z.object({
  id: z.string(),
  name: z.string(),
  isApproved: z.boolean(),
  asLifetime: z.boolean(),
  asSeries: z.boolean(),
  byFacility: z.boolean(),
  facilityAggregateType: z.enum(AGGREGATE_TYPES),
  timeAggregateType: z.enum(AGGREGATE_TYPES),
  format: nullableText,
  formatNote: nullableText,
  interfaceType: nullableText,
  unit: nullableText,
  note: nullableText,
  documentation: nullableText,
  /** Number of calculations (all versions). */
  calculations: z.number(),
  approvedCalculation: approvedCalculationSchema.nullable(),
});
export type ReportField = z.infer<typeof reportFieldSchema>;

export const reportListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  target: z.enum(REPORT_TARGETS),
  approvedFieldsCount: z.number(),
  totalFieldsCount: z.number(),
});
export type ReportListItem = z.infer<typeof reportListItemSchema>;

export const reportSchema = reportListItemSchema.extend({
  documentation: nullableText,
  information: nullableText,
  fields: z.array(reportFieldSchema),
});
export type Report = z.infer<typeof reportSchema>;

export const reportIdParamsSchema = z.object({ id: z.string().min(1).max(200) });

/** The report information's rich text: sanitised HTML (the server keeps only the editor's tags), under the text rule. */
export const updateReportBodySchema = z.object({ information: userText().max(100_000) });

const isoInstant = z.iso.datetime({ offset: true });

export const UPTIME_DURATIONS = ['hourly', 'daily'] as const;

export const reportDataQuerySchema = z.object({
  from: isoInstant,
  to: isoInstant,
  facilityId: z.string().optional(),
  /** The uptime matrix mode; by default daily when the period is longer than 3 months. */
  duration: z.enum(UPTIME_DURATIONS).optional(),
});

export const reportDataBodySchema = z.object({
  from: isoInstant,
  to: isoInstant,
  /** The ship of a ship report. */
  facilityId: z.string().optional(),
  /** The filtered fleet: only these ships count (of those the caller may see). */
  facilityIds: z.array(z.string()).max(10_000).optional(),
  duration: z.enum(UPTIME_DURATIONS).optional(),
});

/** At most this many reports in one request for several reports' data (a dashboard asks for 7 or 8). */
export const MAX_REPORTS_PER_REQUEST = 20;
const reportIdList = z.array(z.string().min(1).max(200)).min(1).max(MAX_REPORTS_PER_REQUEST);

/**
 * Several reports' data in one request (an extension of the spec's reports/{id}/data, with the same parameters
 * for every report): a dashboard's start-up then fits in one round trip over a satellite link. `reportIds` is a
 * comma-separated list; `duration` applies to the reports that have a mode (the uptime matrix).
 */
export const reportsDataQuerySchema = reportDataQuerySchema.extend({
  reportIds: z
    .string()
    .transform((s) => s.split(','))
    .pipe(reportIdList),
});
export const reportsDataBodySchema = reportDataBodySchema.extend({ reportIds: reportIdList });

export const facilityListItemSchema = z.object({
  facilityId: z.string(),
  value: z.number().nullable(),
  timestamp: z.string().nullable(),
});
export const seriesPointSchema = z.object({ timestamp: z.string(), value: z.number().nullable() });
export const complianceValueSchema = z.object({ complianceDate: z.string(), value: z.number().nullable() });
export type FacilityListItem = z.infer<typeof facilityListItemSchema>;
export type SeriesPoint = z.infer<typeof seriesPointSchema>;
export type ComplianceValueItem = z.infer<typeof complianceValueSchema>;

export const reportFieldValueSchema = z.object({
  value: z.union([
    z.number(),
    z.null(),
    z.array(facilityListItemSchema),
    z.array(seriesPointSchema),
    z.array(complianceValueSchema),
  ]),
  format: nullableText,
});
export type ReportFieldValue = z.infer<typeof reportFieldValueSchema>;

export const reportDataSchema = z.object({
  information: nullableText,
  fields: z.record(z.string(), reportFieldValueSchema),
  /**
   * The months (YYYY-MM, UTC) of the period that are archived (decision 0125), oldest first; absent when none is.
   * Their values are not in the answer (nor in the lifetime figures) until a system administrator restores them.
   */
  archivedMonths: z.array(z.string()).optional(),
});
export type ReportData = z.infer<typeof reportDataSchema>;

/** The answer to a request for several reports: each report's data under its id. */
export const reportsDataSchema = z.object({ reports: z.record(z.string(), reportDataSchema) });
export type ReportsData = z.infer<typeof reportsDataSchema>;

export const deleteReportValuesQuerySchema = z.object({
  facilityId: z.string(),
  from: isoInstant,
  to: isoInstant,
});
export const deleteReportValuesResponseSchema = z.object({ deleted: z.number() });

/** A field value as a number (Number fields); null otherwise. */
export function numberValue(data: ReportData | undefined, name: string): number | null {
  const v = data?.fields[name]?.value;
  return typeof v === 'number' ? v : null;
}

export function facilityListValue(data: ReportData | undefined, name: string): FacilityListItem[] {
  const v = data?.fields[name]?.value;
  return Array.isArray(v) ? (v as FacilityListItem[]).filter((i) => 'facilityId' in i) : [];
}

export function seriesValue(data: ReportData | undefined, name: string): SeriesPoint[] {
  const v = data?.fields[name]?.value;
  return Array.isArray(v) ? (v as SeriesPoint[]).filter((i) => 'timestamp' in i && !('facilityId' in i)) : [];
}

export function complianceValues(data: ReportData | undefined, name: string): ComplianceValueItem[] {
  const v = data?.fields[name]?.value;
  return Array.isArray(v) ? (v as ComplianceValueItem[]).filter((i) => 'complianceDate' in i) : [];
}

/** The archived months of a dashboard's answers (the same for every report of one request), oldest first. */
export function archivedMonthsOf(reports: Record<string, ReportData | undefined>): string[] {
  return [...new Set(Object.values(reports).flatMap((r) => r?.archivedMonths ?? []))].sort();
}

/** What a dashboard says when its period includes archived months. */
export function archivedMonthsNotice(months: readonly string[]): string {
  const list = months.join(', ');
  return months.length === 1
    ? `The data of ${list} are archived: the values of that month are not shown, nor counted in the lifetime figures, until a system administrator restores it (Administration, Data retention).`
    : `The data of ${list} are archived: the values of these months are not shown, nor counted in the lifetime figures, until a system administrator restores them (Administration, Data retention).`;
}
