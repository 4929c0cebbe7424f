import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Calculation,
  MeasurementFieldCalculationBody,
  ReportFieldCalculationBody,
  TestConstants,
  TestInputRow,
  ValidationResult,
} from '@portal/contracts/calculations';
import { apiRequest } from '../../lib/api';
import { calculationKeys, measurementFieldKeys, reportKeys } from '../../lib/queries/keys';

/** Where a calculation belongs: a measurement field of a ship, or a report field. */
export type CalculationTarget =
  | { kind: 'measurement-field'; facilityId: string; measurementFieldId: string }
  | { kind: 'report-field'; reportId: string; reportFieldId: string };

export function calculationsPath(t: CalculationTarget): string {
  return t.kind === 'measurement-field'
    ? `algorithm/facility/${t.facilityId}/measurement-field/${t.measurementFieldId}/calculations`
    : `algorithm/reports/${t.reportId}/fields/${t.reportFieldId}/calculations`;
}

const targetKey = (t: CalculationTarget) =>
  t.kind === 'measurement-field'
    ? calculationKeys.measurementField(t.facilityId, t.measurementFieldId)
    : calculationKeys.reportField(t.reportId, t.reportFieldId);

/** GET .../calculations: newest first. */
export const calculationsQuery = (t: CalculationTarget) =>
  queryOptions({
    queryKey: targetKey(t),
    queryFn: ({ signal }) => apiRequest<Calculation[]>(calculationsPath(t), { signal }),
  });
export const useCalculations = (t: CalculationTarget | undefined) =>
  useQuery({
    ...calculationsQuery(
      t ?? ({ kind: 'report-field', reportId: '', reportFieldId: '' } as CalculationTarget),
    ),
    enabled: Boolean(t),
  });

export type CalculationBody = MeasurementFieldCalculationBody & ReportFieldCalculationBody;
type Mutation = { message: string; calculation: Calculation };

/** POST .../calculations */
export const createCalculation = (t: CalculationTarget, body: CalculationBody) =>
  apiRequest<Mutation>(calculationsPath(t), { method: 'POST', body });
/** PUT .../calculations/{id}?recalculate= */
export const saveCalculation = (
  t: CalculationTarget,
  id: string,
  body: CalculationBody,
  recalculate: boolean,
) => apiRequest<Mutation>(`${calculationsPath(t)}/${id}`, { method: 'PUT', body, query: { recalculate } });
/** PUT .../calculations/{id}/approve */
export const approveCalculation = (
  t: CalculationTarget,
  id: string,
  validity: { validFrom: string; validTo: string | null },
) => apiRequest<Mutation>(`${calculationsPath(t)}/${id}/approve`, { method: 'PUT', body: validity });
/** DELETE .../calculations/{id} */
export const deleteCalculation = (t: CalculationTarget, id: string) =>
  apiRequest<void>(`${calculationsPath(t)}/${id}`, { method: 'DELETE', responseType: 'none' });

export interface AlgorithmInput {
  transformAlgorithm: string;
  inputIds: string[];
  outputType?: string;
  algorithmSecondsSpan?: number;
  calculationId?: string;
}

function contextOf(t: CalculationTarget, a: AlgorithmInput) {
  return t.kind === 'measurement-field'
    ? {
        transformAlgorithm: a.transformAlgorithm,
        inputIds: a.inputIds,
        outputType: a.outputType,
        facilityId: t.facilityId,
        measurementFieldId: t.measurementFieldId,
        calculationId: a.calculationId,
      }
    : {
        transformAlgorithm: a.transformAlgorithm,
        inputIds: a.inputIds,
        reportFieldId: t.reportFieldId,
        calculationId: a.calculationId,
      };
}

/** POST algorithm/calculations/{kind}/validate-syntax */
export const validateSyntax = (t: CalculationTarget, a: AlgorithmInput) =>
  apiRequest<ValidationResult>(`algorithm/calculations/${t.kind}/validate-syntax`, {
    method: 'POST',
    body: contextOf(t, a),
  });

/** POST algorithm/calculations/{kind}/validate-logic */
export const validateLogic = (
  t: CalculationTarget,
  a: AlgorithmInput,
  test: { inputData: TestInputRow[]; constants: TestConstants },
) =>
  apiRequest<ValidationResult>(`algorithm/calculations/${t.kind}/validate-logic`, {
    method: 'POST',
    body: {
      ...contextOf(t, a),
      ...(t.kind === 'report-field' ? { algorithmSecondsSpan: a.algorithmSecondsSpan ?? 3600 } : {}),
      ...test,
    },
  });

/** After a change: the calculations, and what shows their state (field lists, report overviews). */
export function useRefreshAfterChange() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: calculationKeys.all }),
      client.invalidateQueries({ queryKey: measurementFieldKeys.all }),
      client.invalidateQueries({ queryKey: reportKeys.all }),
    ]);
}
