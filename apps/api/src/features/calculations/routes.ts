import type { FastifyInstance } from 'fastify';
import { authenticatedRoutes } from '../access/authenticated';
import { z } from 'zod';
import {
  approveBodySchema,
  CALCULATION_TEXTS,
  measurementFieldCalculationBodySchema,
  measurementFieldCalculationIdParamsSchema,
  measurementFieldCalculationMutationSchema,
  measurementFieldCalculationParamsSchema,
  measurementFieldCalculationSchema,
  measurementFieldLogicBodySchema,
  measurementFieldSyntaxBodySchema,
  reportFieldCalculationBodySchema,
  reportFieldCalculationIdParamsSchema,
  reportFieldCalculationMutationSchema,
  reportFieldCalculationParamsSchema,
  reportFieldCalculationSchema,
  reportFieldLogicBodySchema,
  reportFieldSyntaxBodySchema,
  saveQuerySchema,
  type ValidationResult,
} from '@portal/contracts/calculations';
import { validationResultSchema } from '@portal/contracts/calculations';
import { approveValiditySchema } from '@portal/contracts/forms';
import {
  defaultCalculationsMessage,
  defaultCalculationsResultSchema,
  measurementFieldDetailQuerySchema,
  measurementFieldDetailSchema,
  measurementFieldIdParamsSchema,
  measurementFieldSchema,
} from '@portal/contracts/measurement-fields';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import type { Caller } from '../access/caller';
import { withIds } from '../access/params';
import { assertFacilityVisible, isUuid, requireSystemAdmin } from '../access/policy';
import { auditedChange } from '../audit/audit';
import { carryReportSeries, reportFieldValueSources } from '../../storage';
import { calculationSummaries, dataSourcesWithChannels, fieldRows, toMeasurementField } from './fields';
import { toMeasurementFieldCalculation, toReportFieldCalculation } from './present';
import { addDefaultMeasurementCalculations } from './seed';
import { findReportFieldOf } from './queries';
import {
  approveCalculation,
  assertUnlocked,
  createCalculation,
  deleteCalculation,
  getCalculation,
  listCalculations,
  saveCalculation,
  type CalculationRow,
  type Scope,
  type Settable,
} from './store';
import {
  validateMeasurementLogic,
  validateMeasurementSyntax,
  validateReportLogic,
  validateReportSyntax,
} from './validation';

const TAGS = ['calculations'];

// Ids of the path: a malformed one is answered as a missing one (features/access/params.ts).
const fieldParams = withIds(measurementFieldIdParamsSchema, 'id');
const fieldCalculationParams = withIds(measurementFieldCalculationParamsSchema, 'facilityId', 'fieldId');
const fieldCalculationIdParams = withIds(
  measurementFieldCalculationIdParamsSchema,
  'facilityId',
  'fieldId',
  'calcId',
);
const reportFieldCalculationParams = withIds(reportFieldCalculationParamsSchema, 'fieldId');
const reportFieldCalculationIdParams = withIds(reportFieldCalculationIdParamsSchema, 'fieldId', 'calcId');

export async function calculationRoutes(app: FastifyInstance) {
  const routes = authenticatedRoutes(app);
  const { db } = app;
  const logError = (error: unknown) => app.log.error({ err: error }, 'calculation evaluation failed');

  // ---- measurement field catalogue (reads: anyone who sees the ship)

  routes.get(
    '/api/algorithm/measurement-fields',
    { schema: { tags: TAGS, response: { 200: z.array(measurementFieldSchema) } } },
    async () => (await fieldRows(db)).map((f) => toMeasurementField(f, undefined)),
  );

  routes.get(
    '/api/algorithm/measurement-fields/facility/:id',
    {
      schema: {
        tags: TAGS,
        params: fieldParams,
        response: { 200: z.array(measurementFieldSchema) },
      },
    },
    async (request) => {
      await assertFacilityVisible(db, request.caller, request.params.id);
      const [fields, calcs] = await Promise.all([fieldRows(db), calculationSummaries(db, request.params.id)]);
      return fields.map((f) =>
        toMeasurementField(
          f,
          calcs.filter((c) => c.measurement_field_id === f.id),
        ),
      );
    },
  );

  // A ship's missing default calculations as drafts (decision 0103): a ship made before a release's new fields, or
  // the first ship of a deployment, which has no ship to import a configuration from.
  routes.post(
    '/api/algorithm/measurement-fields/facility/:id/default-calculations',
    {
      schema: {
        tags: TAGS,
        params: fieldParams,
        response: { 200: defaultCalculationsResultSchema },
      },
    },
    async (request) => {
      const facilityId = request.params.id;
      await assertFacilityVisible(db, request.caller, facilityId);
      requireSystemAdmin(request.caller);
      const result = await auditedChange(
        db,
        request.caller,
        (trx) => addDefaultMeasurementCalculations(trx, facilityId, { approvedFrom: null }),
        (added) => ({
          action: 'calculation.add-defaults',
          subject: facilityId,
          detail: { facilityId, created: added.created, skipped: added.skipped },
        }),
      );
      return { message: defaultCalculationsMessage(result), ...result };
    },
  );

  routes.get(
    '/api/algorithm/measurement-fields/:id',
    {
      schema: {
        tags: TAGS,
        params: fieldParams,
        querystring: measurementFieldDetailQuerySchema,
        response: { 200: measurementFieldDetailSchema },
      },
    },
    async (request) => {
      const { facilityId } = request.query;
      if (facilityId) await assertFacilityVisible(db, request.caller, facilityId);
      const field = await findField(db, request.params.id);
      if (!facilityId) return { ...toMeasurementField(field, undefined), dataSources: [] };
      const [calcs, dataSources] = await Promise.all([
        calculationSummaries(db, facilityId, field.id),
        dataSourcesWithChannels(db, facilityId, field.id),
      ]);
      return { ...toMeasurementField(field, calcs), dataSources };
    },
  );

  // ---- validation and test (SystemAdmin)

  routes.post(
    '/api/algorithm/calculations/measurement-field/validate-syntax',
    {
      schema: {
        tags: TAGS,
        body: measurementFieldSyntaxBodySchema,
        response: { 200: validationResultSchema },
      },
    },
    async (request): Promise<ValidationResult> => {
      await measurementValidationContext(db, request.caller, request.body);
      return validateMeasurementSyntax(db, request.body, logError);
    },
  );

  routes.post(
    '/api/algorithm/calculations/measurement-field/validate-logic',
    {
      schema: {
        tags: TAGS,
        body: measurementFieldLogicBodySchema,
        response: { 200: validationResultSchema },
      },
    },
    async (request): Promise<ValidationResult> => {
      await measurementValidationContext(db, request.caller, request.body);
      return validateMeasurementLogic(db, request.body, request.body, logError);
    },
  );

  routes.post(
    '/api/algorithm/calculations/report-field/validate-syntax',
    { schema: { tags: TAGS, body: reportFieldSyntaxBodySchema, response: { 200: validationResultSchema } } },
    async (request): Promise<ValidationResult> => {
      await reportValidationContext(db, request.caller, request.body);
      return validateReportSyntax(db, request.body, logError);
    },
  );

  routes.post(
    '/api/algorithm/calculations/report-field/validate-logic',
    { schema: { tags: TAGS, body: reportFieldLogicBodySchema, response: { 200: validationResultSchema } } },
    async (request): Promise<ValidationResult> => {
      await reportValidationContext(db, request.caller, request.body);
      return validateReportLogic(db, request.body, request.body, logError);
    },
  );

  // ---- measurement field calculations of a ship (SystemAdmin)

  const mfBase = '/api/algorithm/facility/:facilityId/measurement-field/:fieldId/calculations';
  const measurementScope = async (caller: Caller, facilityId: string, fieldId: string): Promise<Scope> => {
    await assertFacilityVisible(db, caller, facilityId);
    requireSystemAdmin(caller);
    await findField(db, fieldId);
    return {
      table: 'measurement_field_calculations',
      owner: { facility_id: facilityId, measurement_field_id: fieldId },
    };
  };
  const measurementValues = (body: z.infer<typeof measurementFieldCalculationBodySchema>): Settable => ({
    ...commonValues(body),
    required_sample_interval_seconds: body.requiredSampleIntervalInSeconds ?? undefined,
    preload_interval_seconds: body.preloadIntervalInSeconds ?? undefined,
    output_type: body.outputType,
  });

  routes.get(
    mfBase,
    {
      schema: {
        tags: TAGS,
        params: fieldCalculationParams,
        response: { 200: z.array(measurementFieldCalculationSchema) },
      },
    },
    async (request) => {
      const scope = await measurementScope(request.caller, request.params.facilityId, request.params.fieldId);
      return (await listCalculations(db, scope)).map(toMeasurementFieldCalculation);
    },
  );

  routes.post(
    mfBase,
    {
      schema: {
        tags: TAGS,
        params: fieldCalculationParams,
        body: measurementFieldCalculationBodySchema,
        response: { 201: measurementFieldCalculationMutationSchema },
      },
    },
    async (request, reply) => {
      const { facilityId, fieldId } = request.params;
      const scope = await measurementScope(request.caller, facilityId, fieldId);
      const field = await findField(db, fieldId);
      const row = await auditedCalculation(request.caller, 'calculation.create', () => ({
        facilityId,
        measurementFieldId: fieldId,
      }))((trx) =>
        createCalculation(trx, scope, {
          output_type: field.data_type,
          required_sample_interval_seconds: field.required_sample_interval_seconds,
          ...measurementValues(request.body),
        }),
      );
      return reply
        .code(201)
        .send({ message: CALCULATION_TEXTS.created, calculation: toMeasurementFieldCalculation(row) });
    },
  );

  routes.put(
    `${mfBase}/:calcId`,
    {
      schema: {
        tags: TAGS,
        params: fieldCalculationIdParams,
        querystring: saveQuerySchema,
        body: measurementFieldCalculationBodySchema,
        response: { 200: measurementFieldCalculationMutationSchema },
      },
    },
    async (request) => {
      const { facilityId, fieldId, calcId } = request.params;
      const scope = await measurementScope(request.caller, facilityId, fieldId);
      // A recalculation is never queued with code that does not check: Save refuses, Save without queuing keeps a draft.
      if (request.query.recalculate) {
        const saved = await getCalculation(db, scope, calcId);
        const result = await validateMeasurementSyntax(
          db,
          {
            transformAlgorithm: request.body.transformAlgorithm,
            inputIds: request.body.inputIds,
            outputType: (request.body.outputType ?? saved.output_type) as never,
            facilityId,
            measurementFieldId: fieldId,
          },
          logError,
        );
        assertValid(result, CALCULATION_TEXTS.notQueuedWithErrors);
      }
      const row = await auditedCalculation(request.caller, 'calculation.save', () => ({
        facilityId,
        measurementFieldId: fieldId,
        recalculate: request.query.recalculate,
      }))((trx) =>
        saveCalculation(trx, scope, calcId, measurementValues(request.body), request.query.recalculate),
      );
      return { message: CALCULATION_TEXTS.saved, calculation: toMeasurementFieldCalculation(row) };
    },
  );

  routes.put(
    `${mfBase}/:calcId/approve`,
    {
      schema: {
        tags: TAGS,
        params: fieldCalculationIdParams,
        body: approveBodySchema,
        response: { 200: measurementFieldCalculationMutationSchema },
      },
    },
    async (request) => {
      const { facilityId, fieldId, calcId } = request.params;
      const scope = await measurementScope(request.caller, facilityId, fieldId);
      const validity = parseValidity(request.body);
      const row = await approveCalculation(
        db,
        scope,
        calcId,
        validity,
        request.caller.userId,
        async (calc) => {
          const result = await validateMeasurementSyntax(
            db,
            {
              transformAlgorithm: calc.transform_algorithm,
              inputIds: calc.input_ids,
              outputType: calc.output_type as never,
              facilityId,
              measurementFieldId: fieldId,
            },
            logError,
          );
          assertValid(result);
        },
        auditedCalculation(request.caller, 'calculation.approve', (row) => ({
          facilityId,
          measurementFieldId: fieldId,
          validFrom: row.valid_from,
          validTo: row.valid_to,
        })),
      );
      return { message: CALCULATION_TEXTS.approved, calculation: toMeasurementFieldCalculation(row) };
    },
  );

  routes.delete(
    `${mfBase}/:calcId`,
    { schema: { tags: TAGS, params: fieldCalculationIdParams } },
    async (request, reply) => {
      const { facilityId, fieldId, calcId } = request.params;
      const scope = await measurementScope(request.caller, facilityId, fieldId);
      await auditedCalculation(request.caller, 'calculation.delete', () => ({
        facilityId,
        measurementFieldId: fieldId,
      }))((trx) => deleteCalculation(trx, scope, calcId));
      return reply.code(204).send();
    },
  );

  // ---- report field calculations (SystemAdmin)

  const rfBase = '/api/algorithm/reports/:reportId/fields/:fieldId/calculations';
  const reportScope = async (caller: Caller, reportId: string, fieldId: string): Promise<Scope> => {
    requireSystemAdmin(caller);
    await findReportField(db, reportId, fieldId);
    return { table: 'report_field_calculations', owner: { report_field_id: fieldId } };
  };
  const reportValues = (body: z.infer<typeof reportFieldCalculationBodySchema>): Settable => ({
    ...commonValues(body),
    algorithm_seconds_span: body.algorithmSecondsSpan,
  });

  routes.get(
    rfBase,
    {
      schema: {
        tags: TAGS,
        params: reportFieldCalculationParams,
        response: { 200: z.array(reportFieldCalculationSchema) },
      },
    },
    async (request) => {
      const scope = await reportScope(request.caller, request.params.reportId, request.params.fieldId);
      return (await listCalculations(db, scope)).map(toReportFieldCalculation);
    },
  );

  routes.post(
    rfBase,
    {
      schema: {
        tags: TAGS,
        params: reportFieldCalculationParams,
        body: reportFieldCalculationBodySchema,
        response: { 201: reportFieldCalculationMutationSchema },
      },
    },
    async (request, reply) => {
      const { reportId, fieldId } = request.params;
      const scope = await reportScope(request.caller, reportId, fieldId);
      const row = await auditedCalculation(request.caller, 'calculation.create', () => ({
        reportId,
        reportFieldId: fieldId,
      }))((trx) => createCalculation(trx, scope, reportValues(request.body)));
      return reply
        .code(201)
        .send({ message: CALCULATION_TEXTS.created, calculation: toReportFieldCalculation(row) });
    },
  );

  routes.put(
    `${rfBase}/:calcId`,
    {
      schema: {
        tags: TAGS,
        params: reportFieldCalculationIdParams,
        querystring: saveQuerySchema,
        body: reportFieldCalculationBodySchema,
        response: { 200: reportFieldCalculationMutationSchema },
      },
    },
    async (request) => {
      const { reportId, fieldId, calcId } = request.params;
      const scope = await reportScope(request.caller, reportId, fieldId);
      if (request.query.recalculate)
        assertValid(
          await validateReportSyntax(
            db,
            { transformAlgorithm: request.body.transformAlgorithm, inputIds: request.body.inputIds },
            logError,
          ),
          CALCULATION_TEXTS.notQueuedWithErrors,
        );
      const row = await auditedCalculation(request.caller, 'calculation.save', () => ({
        reportId,
        reportFieldId: fieldId,
        recalculate: request.query.recalculate,
      }))((trx) =>
        saveCalculation(trx, scope, calcId, reportValues(request.body), request.query.recalculate),
      );
      return { message: CALCULATION_TEXTS.saved, calculation: toReportFieldCalculation(row) };
    },
  );

  routes.put(
    `${rfBase}/:calcId/approve`,
    {
      schema: {
        tags: TAGS,
        params: reportFieldCalculationIdParams,
        body: approveBodySchema,
        response: { 200: reportFieldCalculationMutationSchema },
      },
    },
    async (request) => {
      const { reportId, fieldId, calcId } = request.params;
      const scope = await reportScope(request.caller, reportId, fieldId);
      const validity = parseValidity(request.body);
      const row = await approveCalculation(
        db,
        scope,
        calcId,
        validity,
        request.caller.userId,
        async (calc) => {
          assertValid(
            await validateReportSyntax(
              db,
              { transformAlgorithm: calc.transform_algorithm, inputIds: calc.input_ids },
              logError,
            ),
          );
        },
        keepingValueSources(
          auditedCalculation(request.caller, 'calculation.approve', (row) => ({
            reportId,
            reportFieldId: fieldId,
            validFrom: row.valid_from,
            validTo: row.valid_to,
          })),
        ),
      );
      return { message: CALCULATION_TEXTS.approved, calculation: toReportFieldCalculation(row) };
    },
  );

  routes.delete(
    `${rfBase}/:calcId`,
    { schema: { tags: TAGS, params: reportFieldCalculationIdParams } },
    async (request, reply) => {
      const { reportId, fieldId, calcId } = request.params;
      const scope = await reportScope(request.caller, reportId, fieldId);
      await auditedCalculation(request.caller, 'calculation.delete', () => ({
        reportId,
        reportFieldId: fieldId,
      }))((trx) => deleteCalculation(trx, scope, calcId));
      return reply.code(204).send();
    },
  );

  /**
   * A change of approved report calculations that keeps every field's stored values: a field whose group of fields
   * sharing a calculation gets a new value source reads the series it read before (storage carryReportSeries;
   * docs/decisions/0132-report-series-once.md), in the change's transaction.
   */
  function keepingValueSources(
    inTransaction: (
      change: (trx: Transaction<Database>) => Promise<CalculationRow>,
    ) => Promise<CalculationRow>,
  ) {
    return (change: (trx: Transaction<Database>) => Promise<CalculationRow>) =>
      inTransaction(async (trx) => {
        const before = await reportFieldValueSources(trx);
        const row = await change(trx);
        await carryReportSeries(trx, before);
        return row;
      });
  }

  /** A change of a calculation with its audit entry, in one transaction: the entry names the row it returns. */
  function auditedCalculation(
    caller: Caller,
    action: string,
    detail: (row: CalculationRow) => Record<string, unknown>,
  ) {
    return (change: (trx: Transaction<Database>) => Promise<CalculationRow>) =>
      auditedChange(db, caller, change, (row) => ({
        action,
        subject: row.id,
        detail: { ...detail(row), version: row.version, revision: row.revision },
      }));
  }
}

function commonValues(
  body:
    z.infer<typeof measurementFieldCalculationBodySchema> | z.infer<typeof reportFieldCalculationBodySchema>,
): Settable {
  return {
    comment: body.comment ?? undefined,
    documentation: body.documentation ?? undefined,
    input_ids: body.inputIds ? [...new Set(body.inputIds)] : undefined,
    transform_algorithm: body.transformAlgorithm,
    quality_score: body.qualityScore ?? undefined,
  };
}

async function findField(db: Kysely<Database>, id: string) {
  // Also called with a body's id, which no param schema has checked.
  if (!isUuid(id)) throw notFound('Measurement field not found');
  const [field] = await fieldRows(db, id);
  if (!field) throw notFound('Measurement field not found');
  return field;
}

async function findReportField(db: Kysely<Database>, reportId: string, fieldId: string) {
  const field = await findReportFieldOf(db, reportId, fieldId);
  if (!field) throw notFound('Report field not found');
  return field;
}

/** The Approve dialog's rules and texts ('@portal/contracts/forms'), applied again by the server. */
function parseValidity(body: { validFrom?: string | null; validTo?: string | null }): {
  validFrom: Date;
  validTo: Date | null;
} {
  const parsed = approveValiditySchema.safeParse(body);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0] ?? '')] ??= issue.message;
    throw badRequest(Object.values(fields)[0]!, fields);
  }
  return {
    validFrom: new Date(parsed.data.validFrom!),
    validTo: parsed.data.validTo ? new Date(parsed.data.validTo) : null,
  };
}

export function assertValid(result: ValidationResult, reason: string = CALCULATION_TEXTS.hasErrors): void {
  const first = result.errors[0];
  if (!first) return;
  const where = first.startLine > 0 ? ` (line ${first.startLine}, character ${first.startCharacter})` : '';
  throw badRequest(`${reason}: ${first.message}${where}`);
}

/** Validation of a saved calculation refuses when it is locked; the ship must be visible and the caller a SystemAdmin. */
async function measurementValidationContext(
  db: Kysely<Database>,
  caller: Caller,
  body: { facilityId?: string; measurementFieldId?: string; calculationId?: string },
): Promise<void> {
  if (body.facilityId) await assertFacilityVisible(db, caller, body.facilityId);
  requireSystemAdmin(caller);
  if (body.calculationId) {
    if (!body.facilityId || !body.measurementFieldId)
      throw badRequest('facilityId and measurementFieldId are required with calculationId');
    await findField(db, body.measurementFieldId);
    const scope: Scope = {
      table: 'measurement_field_calculations',
      owner: { facility_id: body.facilityId, measurement_field_id: body.measurementFieldId },
    };
    assertUnlocked(await getCalculation(db, scope, body.calculationId));
  }
}

async function reportValidationContext(
  db: Kysely<Database>,
  caller: Caller,
  body: { reportFieldId?: string; calculationId?: string },
): Promise<void> {
  requireSystemAdmin(caller);
  if (body.calculationId) {
    if (!body.reportFieldId || !isUuid(body.reportFieldId))
      throw badRequest('reportFieldId is required with calculationId');
    const scope: Scope = {
      table: 'report_field_calculations',
      owner: { report_field_id: body.reportFieldId },
    };
    assertUnlocked(await getCalculation(db, scope, body.calculationId));
  }
}
