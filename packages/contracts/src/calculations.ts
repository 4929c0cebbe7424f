import { z } from 'zod';
import { userText } from './forms/text';
import { CALCULATION_MESSAGES } from './forms/calculation';
import { QUALITY_SCORE_MAX, QUALITY_SCORE_MESSAGE } from './forms/fields';
import { CHANNEL_DATA_TYPES } from './rules/constants';

/**
 * Calculations of measurement fields (per ship) and report fields, their validation and test calls
 * (spec part 2, sections 3, 4 and 7). Times are UTC ISO strings.
 */

const M = CALCULATION_MESSAGES;
const isoDateTime = z.string();

// ---- validation and test (POST algorithm/calculations/{kind}/validate-syntax | validate-logic)

export const VALIDATION_SUCCESS = 'Validation successful';
export const TEST_SUCCESS = 'Test successful';

/** Lines and characters are 1-based; 0/0 means the error has no place in the algorithm (bad test data, time budget). */
export const formulaErrorSchema = z.object({
  message: z.string(),
  startLine: z.number(),
  startCharacter: z.number(),
});
export type FormulaErrorDto = z.infer<typeof formulaErrorSchema>;

export const testValueSchema = z.union([z.number(), z.boolean(), z.string(), z.null()]);
export type TestValue = z.infer<typeof testValueSchema>;

export const validationResultSchema = z.object({
  errors: z.array(formulaErrorSchema),
  /** One line per target timestamp (measurement field) or span (report field); empty for a syntax check. */
  results: z.array(z.object({ timestamp: z.string(), value: testValueSchema })),
  success: z.enum([VALIDATION_SUCCESS, TEST_SUCCESS]).nullable(),
});
export type ValidationResult = z.infer<typeof validationResultSchema>;

export const outputTypeSchema = z.enum(CHANNEL_DATA_TYPES);
export type OutputType = z.infer<typeof outputTypeSchema>;

/** Longer than the language's own limit, so that the language answers "too long" with a position. */
const algorithmText = userText().max(250_000);
const ids = z.array(z.string().max(100)).max(500);

export const testInputRowSchema = z.object({
  timestamp: userText().max(64),
  inputValues: z.record(userText().max(200), testValueSchema),
});
export type TestInputRow = z.infer<typeof testInputRowSchema>;

/** The facility constant fields of the editor (defaults: empty IMO, 0 scrubbers, empty type, 0 power). */
export const testConstantsSchema = z.object({
  Facility_IMO: userText().max(50).nullish(),
  Facility_NumberOfScrubbers: z.number().nullish(),
  Facility_ScrubberSystemType: userText().max(50).nullish(),
  Facility_InstalledPower: z.number().nullish(),
});
export type TestConstants = z.infer<typeof testConstantsSchema>;
export const DEFAULT_TEST_CONSTANTS = {
  Facility_IMO: '',
  Facility_NumberOfScrubbers: 0,
  Facility_ScrubberSystemType: '',
  Facility_InstalledPower: 0,
} as const;

const testData = {
  inputData: z.array(testInputRowSchema).max(10_000),
  constants: testConstantsSchema.default({}),
};

/**
 * The ids say where the algorithm belongs; given, they let the server refuse a locked calculation (409) and
 * find a cycle between measurement fields.
 */
export const measurementFieldSyntaxBodySchema = z.object({
  transformAlgorithm: algorithmText,
  inputIds: ids,
  outputType: outputTypeSchema.optional(),
  facilityId: z.string().optional(),
  measurementFieldId: z.string().optional(),
  calculationId: z.string().optional(),
});
export type MeasurementFieldSyntaxBody = z.infer<typeof measurementFieldSyntaxBodySchema>;
export const measurementFieldLogicBodySchema = measurementFieldSyntaxBodySchema.extend(testData);
export type MeasurementFieldLogicBody = z.input<typeof measurementFieldLogicBodySchema>;

export const reportFieldSyntaxBodySchema = z.object({
  transformAlgorithm: algorithmText,
  inputIds: ids,
  reportFieldId: z.string().optional(),
  calculationId: z.string().optional(),
});
export type ReportFieldSyntaxBody = z.infer<typeof reportFieldSyntaxBodySchema>;
export const reportFieldLogicBodySchema = reportFieldSyntaxBodySchema.extend({
  algorithmSecondsSpan: z
    .number()
    .int()
    .positive()
    .max(366 * 86_400)
    .default(3600),
  ...testData,
});
export type ReportFieldLogicBody = z.input<typeof reportFieldLogicBodySchema>;

// ---- calculations

export const CALCULATION_STATES = [
  'draft',
  'approved',
  'recalculation-requested',
  'recalculation-queued',
] as const;
export type CalculationState = (typeof CALCULATION_STATES)[number];

const calculationBase = z.object({
  id: z.string(),
  version: z.number(),
  revision: z.number(),
  comment: z.string().nullable(),
  documentation: z.string().nullable(),
  requiredSampleIntervalInSeconds: z.number().nullable(),
  preloadIntervalInSeconds: z.number().nullable(),
  inputIds: z.array(z.string()),
  transformAlgorithm: z.string(),
  qualityScore: z.number().nullable(),
  approvedOn: isoDateTime.nullable(),
  recalculationRequestedOn: isoDateTime.nullable(),
  recalculationQueuedOn: isoDateTime.nullable(),
  /** Never approved: nothing was calculated with it that must stay explainable. */
  canDelete: z.boolean(),
  /** A recalculation with it is queued: save, validate, test and delete are refused. */
  locked: z.boolean(),
  state: z.enum(CALCULATION_STATES),
  validFrom: isoDateTime.nullable(),
  validTo: isoDateTime.nullable(),
  createdOn: isoDateTime,
  updatedOn: isoDateTime,
});

export const measurementFieldCalculationSchema = calculationBase.extend({
  facilityId: z.string(),
  measurementFieldId: z.string(),
  outputType: outputTypeSchema,
});
export type MeasurementFieldCalculation = z.infer<typeof measurementFieldCalculationSchema>;

export const reportFieldCalculationSchema = calculationBase.extend({
  reportFieldId: z.string(),
  algorithmSecondsSpan: z.number(),
});
export type ReportFieldCalculation = z.infer<typeof reportFieldCalculationSchema>;

export type Calculation = MeasurementFieldCalculation | ReportFieldCalculation;

const seconds = (refine: (n: z.ZodNumber) => z.ZodNumber) =>
  refine(z.number({ error: M.number }).int(M.wholeNumber)).nullish();

/** The body of POST (create) and PUT (save) of a calculation; the editor's settings panel and algorithm. */
const calculationBodyBase = z.object({
  comment: userText().max(10_000).nullish(),
  documentation: userText().max(100_000).nullish(),
  requiredSampleIntervalInSeconds: seconds((n) => n.gt(0, M.sampleIntervalMoreThanZero)),
  preloadIntervalInSeconds: seconds((n) => n.min(0, M.preloadNotNegative)),
  inputIds: ids.default([]),
  transformAlgorithm: algorithmText.default(''),
  qualityScore: z
    .number({ error: QUALITY_SCORE_MESSAGE })
    .int(QUALITY_SCORE_MESSAGE)
    .min(0, QUALITY_SCORE_MESSAGE)
    .max(QUALITY_SCORE_MAX, QUALITY_SCORE_MESSAGE)
    .nullish(),
});
export const measurementFieldCalculationBodySchema = calculationBodyBase.extend({
  outputType: outputTypeSchema.optional(),
});
export type MeasurementFieldCalculationBody = z.input<typeof measurementFieldCalculationBodySchema>;
export const reportFieldCalculationBodySchema = calculationBodyBase.extend({
  algorithmSecondsSpan: z
    .number({ error: M.number })
    .int(M.wholeNumber)
    .positive()
    .max(366 * 86_400)
    .optional(),
});
export type ReportFieldCalculationBody = z.input<typeof reportFieldCalculationBodySchema>;

export const saveQuerySchema = z.object({
  /** true (default): queue a recalculation with the saved calculation; false: Save without queuing. */
  recalculate: z.stringbool().default(true),
});

/** PUT .../approve. Rules and texts of '@portal/contracts/forms' (approveValiditySchema) are applied by the server. */
export const approveBodySchema = z.object({ validFrom: z.string().nullish(), validTo: z.string().nullish() });
export type ApproveBody = z.infer<typeof approveBodySchema>;

export const measurementFieldCalculationParamsSchema = z.object({
  facilityId: z.string(),
  fieldId: z.string(),
});
export const measurementFieldCalculationIdParamsSchema = measurementFieldCalculationParamsSchema.extend({
  calcId: z.string(),
});
export const reportFieldCalculationParamsSchema = z.object({ reportId: z.string(), fieldId: z.string() });
export const reportFieldCalculationIdParamsSchema = reportFieldCalculationParamsSchema.extend({
  calcId: z.string(),
});

/** Answers of create, save and approve: the calculation and a text for the notification. */
export const measurementFieldCalculationMutationSchema = z.object({
  message: z.string(),
  calculation: measurementFieldCalculationSchema,
});
export const reportFieldCalculationMutationSchema = z.object({
  message: z.string(),
  calculation: reportFieldCalculationSchema,
});

export const CALCULATION_TEXTS = {
  created: 'Calculation created successfully',
  saved: 'Changes were saved',
  approved: 'Calculation approved',
  deleted: 'Calculation deleted',
  locked:
    'The calculation is locked: a recalculation with it is queued. Cancel the queued recalculation to change it.',
  notDeletable: 'An approved calculation cannot be deleted',
  alreadyApproved: 'The calculation is already approved',
  hasErrors: 'The algorithm has errors; validate it and fix them before approving',
  notQueuedWithErrors:
    'The algorithm has errors, so no recalculation can be queued with it; fix them, or save it as a draft without queuing',
  cycle: (names: string[]) => `The measurement fields use each other in a cycle: ${names.join(' -> ')}`,
  unknownInput: (id: string) => `Unknown input '${id}'`,
  duplicateInputName: (name: string) => `Two inputs are named '${name}'`,
} as const;
