import type { Kysely } from 'kysely';
import { runTest, validateSyntax, type FormulaError, type OutputType } from '@portal/formula';
import {
  CALCULATION_TEXTS,
  TEST_SUCCESS,
  VALIDATION_SUCCESS,
  type TestConstants,
  type TestInputRow,
  type ValidationResult,
} from '@portal/contracts/calculations';
import type { Database } from '../../db/schema';
import { findCycle, resolveInputs } from './inputs';

export interface MeasurementAlgorithm {
  transformAlgorithm: string;
  inputIds: readonly string[];
  outputType?: OutputType;
  facilityId?: string;
  measurementFieldId?: string;
}

export interface ReportAlgorithm {
  transformAlgorithm: string;
  inputIds: readonly string[];
}

export interface TestInput {
  inputData: TestInputRow[];
  constants: TestConstants;
}

/** Input names and the errors found before the language looks at the text (unknown inputs, a cycle). */
async function prepareMeasurement(
  db: Kysely<Database>,
  a: MeasurementAlgorithm,
): Promise<{ names: string[]; errors: FormulaError[] }> {
  const inputs = await resolveInputs(db, a.inputIds, { channels: true, facilityId: a.facilityId });
  const errors = [...inputs.errors];
  if (a.facilityId && a.measurementFieldId) {
    const cycle = await findCycle(db, a.facilityId, a.measurementFieldId, inputs.fieldIds);
    if (cycle) errors.push({ message: CALCULATION_TEXTS.cycle(cycle), startLine: 0, startCharacter: 0 });
  }
  return { names: inputs.names, errors };
}

const answer = (
  errors: FormulaError[],
  results: ValidationResult['results'],
  success: ValidationResult['success'],
): ValidationResult =>
  errors.length ? { errors, results: [], success: null } : { errors: [], results, success };

/** An unexpected failure of the runtime is the algorithm's error, not the server's: the caller sees it, the log keeps it. */
function guarded(run: () => ValidationResult, log?: (error: unknown) => void): ValidationResult {
  try {
    return run();
  } catch (error) {
    log?.(error);
    const reason = error instanceof RangeError ? 'it is too complex to evaluate' : 'the evaluation failed';
    return {
      errors: [{ message: `The algorithm could not be run: ${reason}`, startLine: 0, startCharacter: 0 }],
      results: [],
      success: null,
    };
  }
}

export async function validateMeasurementSyntax(
  db: Kysely<Database>,
  a: MeasurementAlgorithm,
  log?: (e: unknown) => void,
): Promise<ValidationResult> {
  const { names, errors } = await prepareMeasurement(db, a);
  if (errors.length) return answer(errors, [], null);
  return guarded(
    () =>
      answer(
        validateSyntax(a.transformAlgorithm, {
          kind: 'measurement-field',
          inputNames: names,
          outputType: a.outputType,
        }),
        [],
        VALIDATION_SUCCESS,
      ),
    log,
  );
}

export async function validateMeasurementLogic(
  db: Kysely<Database>,
  a: MeasurementAlgorithm,
  test: TestInput,
  log?: (e: unknown) => void,
): Promise<ValidationResult> {
  const { names, errors } = await prepareMeasurement(db, a);
  if (errors.length) return answer(errors, [], null);
  return guarded(() => {
    const outcome = runTest(
      a.transformAlgorithm,
      { kind: 'measurement-field', inputNames: names, outputType: a.outputType },
      testData(test),
    );
    return answer(outcome.errors, outcome.results, TEST_SUCCESS);
  }, log);
}

export async function validateReportSyntax(
  db: Kysely<Database>,
  a: ReportAlgorithm,
  log?: (e: unknown) => void,
): Promise<ValidationResult> {
  const inputs = await resolveInputs(db, a.inputIds, { channels: false });
  if (inputs.errors.length) return answer(inputs.errors, [], null);
  return guarded(
    () =>
      answer(
        validateSyntax(a.transformAlgorithm, { kind: 'report-field', inputNames: inputs.names }),
        [],
        VALIDATION_SUCCESS,
      ),
    log,
  );
}

export async function validateReportLogic(
  db: Kysely<Database>,
  a: ReportAlgorithm & { algorithmSecondsSpan: number },
  test: TestInput,
  log?: (e: unknown) => void,
): Promise<ValidationResult> {
  const inputs = await resolveInputs(db, a.inputIds, { channels: false });
  if (inputs.errors.length) return answer(inputs.errors, [], null);
  return guarded(() => {
    const outcome = runTest(
      a.transformAlgorithm,
      { kind: 'report-field', inputNames: inputs.names, algorithmSecondsSpan: a.algorithmSecondsSpan },
      testData(test),
    );
    return answer(outcome.errors, outcome.results, TEST_SUCCESS);
  }, log);
}

function testData(test: TestInput) {
  const c = test.constants;
  return {
    inputData: test.inputData,
    constants: {
      ...(c.Facility_IMO != null ? { Facility_IMO: c.Facility_IMO } : {}),
      ...(c.Facility_NumberOfScrubbers != null
        ? { Facility_NumberOfScrubbers: c.Facility_NumberOfScrubbers }
        : {}),
      ...(c.Facility_ScrubberSystemType != null
        ? { Facility_ScrubberSystemType: c.Facility_ScrubberSystemType }
        : {}),
      ...(c.Facility_InstalledPower != null ? { Facility_InstalledPower: c.Facility_InstalledPower } : {}),
    },
  };
}

/**
 * The saved calculations among `ids` whose code does not check (syntax, inputs, cycle), with the first error:
 * no recalculation is queued with them.
 */
export async function brokenCalculations(
  db: Kysely<Database>,
  kind: 'measurement-field' | 'report-field',
  ids: readonly string[],
  log?: (e: unknown) => void,
): Promise<{ id: string; fieldName: string; error: FormulaError }[]> {
  if (ids.length === 0) return [];
  const broken: { id: string; fieldName: string; error: FormulaError }[] = [];
  if (kind === 'measurement-field') {
    const rows = await db
      .selectFrom('measurement_field_calculations as c')
      .innerJoin('measurement_fields as f', 'f.id', 'c.measurement_field_id')
      .select([
        'c.id',
        'f.name',
        'c.facility_id',
        'c.measurement_field_id',
        'c.transform_algorithm',
        'c.input_ids',
        'c.output_type',
      ])
      .where('c.id', 'in', [...ids])
      .execute();
    for (const r of rows) {
      const result = await validateMeasurementSyntax(
        db,
        {
          transformAlgorithm: r.transform_algorithm,
          inputIds: r.input_ids,
          outputType: r.output_type as OutputType,
          facilityId: r.facility_id,
          measurementFieldId: r.measurement_field_id,
        },
        log,
      );
      if (result.errors[0]) broken.push({ id: r.id, fieldName: r.name, error: result.errors[0] });
    }
  } else {
    const rows = await db
      .selectFrom('report_field_calculations as c')
      .innerJoin('report_fields as f', 'f.id', 'c.report_field_id')
      .select(['c.id', 'f.name', 'c.transform_algorithm', 'c.input_ids'])
      .where('c.id', 'in', [...ids])
      .execute();
    for (const r of rows) {
      const result = await validateReportSyntax(
        db,
        { transformAlgorithm: r.transform_algorithm, inputIds: r.input_ids },
        log,
      );
      if (result.errors[0]) broken.push({ id: r.id, fieldName: r.name, error: result.errors[0] });
    }
  }
  return broken;
}
