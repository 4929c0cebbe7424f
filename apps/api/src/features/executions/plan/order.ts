import { ExecutionError } from '../calculations';
import { CycleError, dependencyOrder } from '../series';
import type { ComputeRequest, MeasurementCalc, ReportCalc } from './types';

/** Calculations per field, in the order given. */
export function byField<T extends { fieldId: string }>(calcs: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const c of calcs) out.set(c.fieldId, [...(out.get(c.fieldId) ?? []), c]);
  return out;
}

/**
 * Sub-step "order" (pure): the requested measurement fields that have a calculation in the period, each after the
 * fields it reads (`nameOf` names them in the error of a cycle, which fails the execution).
 */
export function measurementOrder(
  measurementCalcsByField: ReadonlyMap<string, readonly MeasurementCalc[]>,
  wanted: ComputeRequest['measurementFieldIds'],
  fieldName: ReadonlyMap<string, string>,
  nameOf: (id: string) => string,
): string[] {
  const dependsOn = new Map<string, Set<string>>();
  for (const [fieldId, calcs] of measurementCalcsByField) {
    if (wanted !== 'all' && !wanted.has(fieldId)) continue;
    dependsOn.set(fieldId, new Set(calcs.flatMap((c) => c.inputIds.filter((id) => fieldName.has(id)))));
  }
  try {
    return dependencyOrder(dependsOn, nameOf);
  } catch (error) {
    if (error instanceof CycleError) throw new ExecutionError(error.message);
    throw error;
  }
}

/** Sub-step "report calculations" (pure): the requested report fields' calculations, per field. */
export function requestedReportCalcs(
  calcs: readonly ReportCalc[],
  wanted: ComputeRequest['reportFieldIds'],
): Map<string, ReportCalc[]> {
  return byField(calcs.filter((c) => wanted === 'all' || wanted.has(c.fieldId)));
}
