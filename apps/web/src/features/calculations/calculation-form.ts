import type { Calculation, FormulaErrorDto, OutputType } from '@portal/contracts/calculations';
import type { CalculationBody } from './calculations-api';

export type CalculationKind = 'measurement-field' | 'report-field';

/** The editor's form, as typed (numbers as text until saved). */
export interface FormValues {
  comment: string;
  documentation: string;
  requiredSampleIntervalInSeconds: string;
  preloadIntervalInSeconds: string;
  inputIds: string[];
  qualityScore: number | null;
  outputType: OutputType;
  algorithmSecondsSpan: string;
  transformAlgorithm: string;
}

/** What the editor shows: the latest calculation, a new one (fresh or restored from a version), or an older version. */
export type Mode =
  { type: 'current' } | { type: 'new'; from?: Calculation } | { type: 'history'; id: string };

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

export function formOf(calc: Calculation | undefined, defaultOutputType: OutputType): FormValues {
  return {
    comment: calc?.comment ?? '',
    documentation: calc?.documentation ?? '',
    requiredSampleIntervalInSeconds: text(calc ? calc.requiredSampleIntervalInSeconds : 60),
    preloadIntervalInSeconds: text(calc ? calc.preloadIntervalInSeconds : 300),
    inputIds: calc?.inputIds ?? [],
    qualityScore: calc?.qualityScore ?? null,
    outputType: calc && 'outputType' in calc ? calc.outputType : defaultOutputType,
    algorithmSecondsSpan: text(calc && 'algorithmSecondsSpan' in calc ? calc.algorithmSecondsSpan : 3600),
    transformAlgorithm: calc?.transformAlgorithm ?? '',
  };
}

export function bodyOf(form: FormValues, kind: CalculationKind): CalculationBody {
  const n = (s: string) => (s.trim() === '' ? null : Number(s));
  const common = {
    comment: form.comment,
    documentation: form.documentation,
    inputIds: form.inputIds,
    transformAlgorithm: form.transformAlgorithm,
    qualityScore: form.qualityScore,
  };
  return kind === 'measurement-field'
    ? {
        ...common,
        requiredSampleIntervalInSeconds: n(form.requiredSampleIntervalInSeconds),
        preloadIntervalInSeconds: n(form.preloadIntervalInSeconds),
        outputType: form.outputType,
      }
    : { ...common, algorithmSecondsSpan: Number(form.algorithmSecondsSpan) };
}

export function stateLabel(calc: Calculation): string {
  switch (calc.state) {
    case 'recalculation-queued':
      return 'Recalculation queued';
    case 'recalculation-requested':
      return calc.approvedOn ? 'Approved, recalculation requested' : 'Draft, recalculation requested';
    case 'approved':
      return 'Approved';
    default:
      return 'Draft';
  }
}

/** A formula error as the Output list and the draft dialog show it. */
export const errorText = (e: FormulaErrorDto) =>
  e.startLine > 0 ? `Line ${e.startLine}, character ${e.startCharacter}: ${e.message}` : e.message;
