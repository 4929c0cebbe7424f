import { z } from 'zod';
import { toDate } from '../rules/dates';
import { fieldErrors, numberFromInput, type FieldErrors } from './errors';
import { optionalText, qualityScoreSchema } from './fields';

export const CALCULATION_MESSAGES = {
  validFromRequired: 'Valid from date must be filled out',
  // Ours: the spec gives no texts for these.
  validToBeforeValidFrom: 'Valid to date cannot be before valid from date',
  invalidDate: 'Must be a valid date',
  number: 'Must be a number',
  wholeNumber: 'Must be a whole number',
  sampleIntervalMoreThanZero: 'Sample interval must be more than 0',
  preloadNotNegative: 'Preload interval cannot be negative',
} as const;
const M = CALCULATION_MESSAGES;

/** A date-time as an ISO instant; blank is null. */
const instant = (requiredMessage: string | null) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? null : v),
    z
      .union([z.string(), z.date()], { error: M.invalidDate })
      .nullable()
      .transform((v, ctx) => {
        if (v === null) {
          if (requiredMessage) ctx.addIssue({ code: 'custom', message: requiredMessage });
          return null;
        }
        const date = toDate(v);
        if (!date) {
          ctx.addIssue({ code: 'custom', message: M.invalidDate });
          return z.NEVER;
        }
        return date.toISOString();
      }),
  );

/**
 * The Approve dialog. Valid to may be empty: the calculation then stays valid until another is approved.
 * Valid to equal to valid from is allowed.
 */
export const approveValiditySchema = z
  .object({ validFrom: instant(M.validFromRequired), validTo: instant(null) })
  .superRefine((v, ctx) => {
    if (v.validFrom && v.validTo && v.validTo < v.validFrom)
      ctx.addIssue({ code: 'custom', message: M.validToBeforeValidFrom, path: ['validTo'] });
  });
export type ApproveValidityValues = { validFrom: string; validTo: string | null };
export const validateApproveValidity = (values: unknown): FieldErrors<keyof ApproveValidityValues> =>
  fieldErrors(approveValiditySchema, values);

const seconds = (refine: (n: z.ZodNumber) => z.ZodNumber) =>
  z.preprocess(numberFromInput, refine(z.number({ error: M.number }).int(M.wholeNumber)).nullable());

/** The settings panel of the calculation editor; numeric fields arrive as text and leave as numbers (seconds). */
export const calculationSettingsSchema = z.object({
  comment: optionalText,
  documentation: optionalText,
  requiredSampleIntervalInSeconds: seconds((n) => n.gt(0, M.sampleIntervalMoreThanZero)),
  preloadIntervalInSeconds: seconds((n) => n.min(0, M.preloadNotNegative)),
  inputIds: z.preprocess((v) => v ?? [], z.array(z.string())).transform((ids) => [...new Set(ids)]),
  qualityScore: qualityScoreSchema,
});
export type CalculationSettingsValues = z.infer<typeof calculationSettingsSchema>;
export const validateCalculationSettings = (values: unknown): FieldErrors<keyof CalculationSettingsValues> =>
  fieldErrors(calculationSettingsSchema, values);
