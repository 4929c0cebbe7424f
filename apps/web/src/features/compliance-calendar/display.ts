import type { ComplianceDeadline } from '@portal/contracts/compliance-calendar';
import { textProblem } from '@portal/contracts/forms';
import { formatDate } from '@portal/contracts/rules';

/** How a deadline's state reads and is coloured (never by colour alone: the word is always shown). */
export const STATE_LABELS: Record<ComplianceDeadline['state'], string> = {
  done: 'Done',
  due: 'Due',
  overdue: 'Overdue',
};
export const STATE_COLORS: Record<ComplianceDeadline['state'], 'success' | 'warning' | 'error'> = {
  done: 'success',
  due: 'warning',
  overdue: 'error',
};

/** A day as every date is shown (YYYY.MM.DD, spec part 1 section 9). */
export const formatDay = (day: string) => formatDate(`${day}T00:00:00Z`);

/** What is said beside the state: when it was done, or how long is left, or how late it is. */
export function deadlineWhen(d: Pick<ComplianceDeadline, 'state' | 'daysLeft' | 'done'>): string {
  if (d.state === 'done' && d.done)
    return d.done.source === 'verifier'
      ? `Verified on ${formatDay(d.done.on)} (the verifier ${d.done.by})`
      : `Done on ${formatDay(d.done.on)} (recorded by ${d.done.by})`;
  if (d.daysLeft === 0) return 'Due today';
  if (d.daysLeft > 0) return `${d.daysLeft} ${d.daysLeft === 1 ? 'day' : 'days'} left`;
  const late = -d.daysLeft;
  return `${late} ${late === 1 ? 'day' : 'days'} overdue`;
}

/** The counts shown over the list: "2 overdue, 3 due, 4 done". */
export function stateSummary(deadlines: readonly Pick<ComplianceDeadline, 'state'>[]): string {
  const count = (state: ComplianceDeadline['state']) => deadlines.filter((d) => d.state === state).length;
  return `${count('overdue')} overdue, ${count('due')} due, ${count('done')} done`;
}

/** The years offered: from 2020 (the first DCS deadline) to next year, the latest first. */
export function calendarYears(now: Date): number[] {
  const years: number[] = [];
  for (let y = now.getUTCFullYear() + 1; y >= 2020; y--) years.push(y);
  return years;
}

export interface DoneFormValues {
  doneOn: string;
  note: string;
}

/** The "mark as done" form's body, or what is wrong (the API's own rules and words). */
export function doneBody(
  values: DoneFormValues,
  today: string,
): { body?: { doneOn: string; note: string }; errors?: Partial<Record<keyof DoneFormValues, string>> } {
  const errors: Partial<Record<keyof DoneFormValues, string>> = {};
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.doneOn) || Number.isNaN(Date.parse(values.doneOn)))
    errors.doneOn = 'Must be a date (YYYY-MM-DD)';
  else if (values.doneOn > today) errors.doneOn = 'The day it was done cannot be in the future';
  const problem = textProblem(values.note);
  if (problem) errors.note = problem;
  else if (values.note.length > 500) errors.note = 'A note is at most 500 characters';
  return Object.keys(errors).length ? { errors } : { body: { doneOn: values.doneOn, note: values.note } };
}
