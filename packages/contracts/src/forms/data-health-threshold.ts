import type { DataHealthThreshold } from '../data-health';
import type { FieldErrors } from './errors';

/** A measurement field's data health thresholds as typed; an empty box is "no bound" or "not checked". */
export interface DataHealthThresholdFormValues {
  min: string;
  max: string;
  staleHours: string;
  flatLineHours: string;
}

/** The texts of the thresholds form (ours: the spec has none; in its tone). */
export const DATA_HEALTH_FORM_MESSAGES = {
  number: 'Must be a number, or empty for no bound',
  hours: 'Must be a number of hours above 0, or empty for no check',
  order: 'The lowest value must not be above the highest',
} as const;
const M = DATA_HEALTH_FORM_MESSAGES;

const text = (value: number | null) => (value === null ? '' : String(value));

export const dataHealthThresholdFormValues = (t: DataHealthThreshold): DataHealthThresholdFormValues => ({
  min: text(t.min),
  max: text(t.max),
  staleHours: text(t.staleHours),
  flatLineHours: text(t.flatLineHours),
});

/** Empty: null; a finite number: it; anything else: undefined (an error). */
const parse = (value: string): number | null | undefined => {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  const number = Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
};

export function validateDataHealthThreshold(
  values: DataHealthThresholdFormValues,
): FieldErrors<keyof DataHealthThresholdFormValues> {
  const errors: FieldErrors<keyof DataHealthThresholdFormValues> = {};
  const min = parse(values.min);
  const max = parse(values.max);
  if (min === undefined) errors.min = M.number;
  if (max === undefined) errors.max = M.number;
  if (typeof min === 'number' && typeof max === 'number' && min > max) errors.max = M.order;
  for (const key of ['staleHours', 'flatLineHours'] as const) {
    const hours = parse(values[key]);
    if (hours === undefined || (hours !== null && hours <= 0)) errors[key] = M.hours;
  }
  return errors;
}

/** The PUT entry of a valid form. */
export function dataHealthThresholdBody(
  fieldName: string,
  values: DataHealthThresholdFormValues,
): DataHealthThreshold {
  if (Object.keys(validateDataHealthThreshold(values)).length)
    throw new Error('The thresholds are not valid');
  return {
    fieldName,
    min: parse(values.min) ?? null,
    max: parse(values.max) ?? null,
    staleHours: parse(values.staleHours) ?? null,
    flatLineHours: parse(values.flatLineHours) ?? null,
  };
}
