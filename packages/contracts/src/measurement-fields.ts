import { z } from 'zod';
import { CHANNEL_DATA_TYPES } from './rules/constants';

/**
 * The measurement field catalogue (shared by all ships) and each field's state on a ship (spec part 2, sections 2-4).
 *
 * Status of a field on a ship (docs/decisions/0021-calculation-validity.md):
 * - Waiting: the ship has no calculation for the field;
 * - In progress: calculations, none approved;
 * - Approved: an approved calculation, but none valid now, or the one valid now still waits for its recalculation
 *   (not yet executed);
 * - Active: the approved calculation valid now has no pending recalculation.
 */
export const MEASUREMENT_FIELD_STATUSES = ['Waiting', 'In progress', 'Approved', 'Active'] as const;
export type MeasurementFieldStatus = (typeof MEASUREMENT_FIELD_STATUSES)[number];

/** Distinct chip colours (MUI palette names) per status. */
export const MEASUREMENT_FIELD_STATUS_COLORS: Record<
  MeasurementFieldStatus,
  'default' | 'warning' | 'info' | 'success'
> = {
  Waiting: 'default',
  'In progress': 'warning',
  Approved: 'info',
  Active: 'success',
};

export interface StatusInput {
  calculations: number;
  approvedCalculations: number;
  /** An approved calculation is valid now. */
  validNow: boolean;
  /** The calculation valid now waits for a recalculation (requested or queued). */
  validNowPending: boolean;
}

export function measurementFieldStatus(s: StatusInput): MeasurementFieldStatus {
  if (s.calculations === 0) return 'Waiting';
  if (s.approvedCalculations === 0) return 'In progress';
  if (s.validNow && !s.validNowPending) return 'Active';
  return 'Approved';
}

/** Approve all: a field is approvable when it has calculations and none is approved. */
export const isApprovable = (f: { calculations: number; approvedCalculations: number }) =>
  f.calculations > 0 && f.approvedCalculations === 0;

export const measurementFieldSchema = z.object({
  id: z.string(),
  name: z.string(),
  dataType: z.enum(CHANNEL_DATA_TYPES),
  unit: z.string().nullable(),
  /** Of the calculation in force on the ship (else the newest); null without a ship or a calculation. */
  version: z.number().nullable(),
  revision: z.number().nullable(),
  requiredSampleIntervalInSeconds: z.number(),
  documentation: z.string().nullable(),
  /** Null in the catalogue without a ship. */
  status: z.enum(MEASUREMENT_FIELD_STATUSES).nullable(),
  calculations: z.number(),
  approvedCalculations: z.number(),
  activeCalculationRating: z.number().nullable(),
  activeCalculationComment: z.string().nullable(),
});
export type MeasurementField = z.infer<typeof measurementFieldSchema>;

export const configuredChannelSchema = z.object({
  id: z.string(),
  name: z.string(),
  source: z.string(),
  dataType: z.string(),
  unit: z.string().nullable(),
  /** The channel is an input of one of the field's calculations on the ship. */
  usedByField: z.boolean(),
});
export const measurementFieldDataSourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  isPrimary: z.boolean(),
  channels: z.array(configuredChannelSchema),
});
export type MeasurementFieldDataSource = z.infer<typeof measurementFieldDataSourceSchema>;

/** GET measurement-fields/{id}?facilityId: the field, and with a ship its data sources and channels (the editor's inputs). */
export const measurementFieldDetailSchema = measurementFieldSchema.extend({
  dataSources: z.array(measurementFieldDataSourceSchema),
});
export type MeasurementFieldDetail = z.infer<typeof measurementFieldDetailSchema>;

export const measurementFieldIdParamsSchema = z.object({ id: z.string() });
export const measurementFieldDetailQuerySchema = z.object({ facilityId: z.string().optional() });

/**
 * POST algorithm/measurement-fields/facility/{id}/default-calculations: the ship's missing default calculations
 * added as drafts (a ship made before a release's new fields, or the first ship of a deployment). Field names.
 */
export const defaultCalculationsResultSchema = z.object({
  message: z.string(),
  /** Got a draft of its default calculation now. */
  created: z.array(z.string()),
  /** Had a calculation already (left alone). */
  existing: z.array(z.string()),
  /** Left without one: its channel is not mapped on the ship, or a field it reads has no calculation. */
  skipped: z.array(z.string()),
});
export type DefaultCalculationsResult = z.infer<typeof defaultCalculationsResultSchema>;

/** What "Add default calculations" says it did. */
export function defaultCalculationsMessage(result: Omit<DefaultCalculationsResult, 'message'>): string {
  const added = result.created.length
    ? `Default calculations added as drafts: ${result.created.length}. Approve them to use them.`
    : result.skipped.length
      ? 'No default calculation was added.'
      : 'Every measurement field has a calculation already.';
  // The fields left are the ones still Waiting on the list: the message counts them rather than naming them all.
  const left = result.skipped.length
    ? ` ${result.skipped.length} field(s) stay Waiting: the channels they read are not mapped on the ship.`
    : '';
  return added + left;
}
