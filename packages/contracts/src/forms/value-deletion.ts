import { parseDateOnly } from '../rules/dates';
import { EXECUTION_PERIOD_MESSAGES } from '../rules/executions';

/**
 * The Delete values dialog of a ship's measurement fields: which calculated values go, over which UTC days. It sends
 * the spec's two calls, DELETE algorithm/measurement-fields/values and DELETE algorithm/reports/values, each with
 * facilityId, from and to (spec part 1, section 7; part 2, section 7).
 */
export interface ValueDeletionForm {
  /** The first day, 'YYYY-MM-DD' (UTC). */
  fromDate: string;
  /** The last day, 'YYYY-MM-DD' (UTC), included. */
  toDate: string;
  measurementValues: boolean;
  reportValues: boolean;
}

export const VALUE_DELETION_MESSAGES = {
  required: EXECUTION_PERIOD_MESSAGES.required,
  invalidDate: EXECUTION_PERIOD_MESSAGES.invalidDate,
  fromAfterTo: EXECUTION_PERIOD_MESSAGES.fromAfterTo,
  // Ours: the spec shows no screen for these calls (in the tone of its 'Files were deleted successfully!').
  nothingChosen: 'Choose the values to delete',
  deleted: 'Values were deleted successfully!',
} as const;

export type ValueDeletionErrors = Partial<Record<'fromDate' | 'toDate' | 'values', string>>;

/** One message per field at most: a day missing or malformed, the days out of order, no values chosen. */
export function valueDeletionErrors(form: ValueDeletionForm): ValueDeletionErrors {
  const M = VALUE_DELETION_MESSAGES;
  const errors: ValueDeletionErrors = {};
  for (const field of ['fromDate', 'toDate'] as const) {
    if (!form[field].trim()) errors[field] = M.required;
    else if (!parseDateOnly(form[field])) errors[field] = M.invalidDate;
  }
  if (!errors.fromDate && !errors.toDate && parseDateOnly(form.fromDate)! > parseDateOnly(form.toDate)!)
    errors.fromDate = M.fromAfterTo;
  if (!form.measurementValues && !form.reportValues) errors.values = M.nothingChosen;
  return errors;
}

/**
 * The calls' from and to: the start of the first day to the last millisecond of the last, UTC (as a custom period
 * runs). Null while the form has errors.
 */
export function valueDeletionRange(form: ValueDeletionForm): { from: string; to: string } | null {
  if (Object.keys(valueDeletionErrors(form)).length > 0) return null;
  const from = parseDateOnly(form.fromDate)!;
  const to = parseDateOnly(form.toDate)!;
  return { from: from.toISOString(), to: new Date(to.getTime() + 86_400_000 - 1).toISOString() };
}
