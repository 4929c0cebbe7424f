import { z } from 'zod';
import { INSPECTION_PACK_PERIOD_MESSAGES, packPeriodProblem } from './rules/inspection-packs';

/**
 * Inspection packs (docs/decisions/0106-inspection-packs.md): for a ship and a period, one download a superintendent
 * hands to a port State officer or a flag surveyor: a PDF (particulars, KPIs with their charts, events, record book
 * and its verification, calculations in force, zone crossings, data health) and the original logger files of the
 * period with a manifest of their SHA-256, in one zip. Built as a job; a monthly one can be e-mailed.
 * Routes under /api/facilities/{id}/inspection-packs.
 */

export const INSPECTION_PACK_STATES = ['queued', 'building', 'ready', 'failed'] as const;
export type InspectionPackState = (typeof INSPECTION_PACK_STATES)[number];
export const INSPECTION_PACK_STATE_NAMES: Record<InspectionPackState, string> = {
  queued: 'Queued',
  building: 'Building',
  ready: 'Ready',
  failed: 'Failed',
};

const day = z.iso.date({ message: INSPECTION_PACK_PERIOD_MESSAGES.invalidDay });

/** POST /api/facilities/{id}/inspection-packs: the period's first and last day (UTC), both included. */
export const newInspectionPackSchema = z.object({ from: day, to: day }).superRefine((period, ctx) => {
  const problem = packPeriodProblem(period, new Date());
  if (problem) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
});
export type NewInspectionPack = z.input<typeof newInspectionPackSchema>;

export const inspectionPackSchema = z.object({
  id: z.string(),
  facilityId: z.string(),
  /** First and last day of the period (UTC, YYYY-MM-DD), both included. */
  from: z.string(),
  to: z.string(),
  state: z.enum(INSPECTION_PACK_STATES),
  /** 0 to 1. */
  progress: z.number(),
  /** What the build is doing now, or did last. */
  stage: z.string().nullable(),
  /** Made by the monthly schedule. */
  scheduled: z.boolean(),
  requestedBy: z.string().nullable(),
  requestedOn: z.string(),
  startedOn: z.string().nullable(),
  finishedOn: z.string().nullable(),
  /** SHA-256 (hex) of the PDF in the zip, once ready. */
  pdfSha256: z.string().nullable(),
  /** The zip's size in bytes, once ready. */
  zipBytes: z.number().nullable(),
  /** Original logger files in the zip, once ready. */
  originals: z.number().nullable(),
  /** The zip's file name. */
  fileName: z.string(),
  error: z.string().nullable(),
});
export type InspectionPack = z.infer<typeof inspectionPackSchema>;

/** A user who may get the monthly pack's link: of the caller's organization (any, for a SystemAdmin), seeing the ship. */
export const inspectionPackRecipientSchema = z.object({
  userId: z.string(),
  username: z.string(),
  /** The address alerts go to (My profile, Alerts); null: none given, so no e-mail reaches the user. */
  email: z.string().nullable(),
});
export type InspectionPackRecipient = z.infer<typeof inspectionPackRecipientSchema>;

/** GET /api/facilities/{id}/inspection-packs/schedule: the caller's organization's monthly pack of the ship. */
export const inspectionPackScheduleSchema = z.object({
  facilityId: z.string(),
  /** Whether the organization has a monthly pack of this ship. */
  enabled: z.boolean(),
  recipients: z.array(inspectionPackRecipientSchema),
  /** Who may be chosen. */
  candidates: z.array(inspectionPackRecipientSchema),
  /** YYYY-MM: the last month whose pack was queued; null before the first. */
  lastMonth: z.string().nullable(),
});
export type InspectionPackSchedule = z.infer<typeof inspectionPackScheduleSchema>;

export const INSPECTION_PACK_SCHEDULE_MESSAGES = {
  recipientsRequired: 'Choose at least one recipient',
  recipientNotAllowed: 'Choose users of your organization who see the ship',
} as const;

/** PUT /api/facilities/{id}/inspection-packs/schedule: who gets the monthly pack's link. */
export const inspectionPackScheduleBodySchema = z.object({
  recipientIds: z
    .array(z.string(), { error: INSPECTION_PACK_SCHEDULE_MESSAGES.recipientsRequired })
    .min(1, INSPECTION_PACK_SCHEDULE_MESSAGES.recipientsRequired)
    .max(100),
});
export type InspectionPackScheduleBody = z.input<typeof inspectionPackScheduleBodySchema>;
