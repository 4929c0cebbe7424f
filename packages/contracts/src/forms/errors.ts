import type { z } from 'zod';

/** Field name -> the first message for that field ('' key for form-wide issues). */
export type FieldErrors<K extends string = string> = Partial<Record<K, string>>;

/** Runs a schema and keeps the first message per top-level field, in the order the rules are declared. */
export function fieldErrors<S extends z.ZodType>(schema: S, values: unknown): FieldErrors {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : '';
    errors[key] ??= issue.message;
  }
  return errors;
}

/** Empty input (null, undefined, blank text) as null; numeric text as a number; anything else as it is, for the schema to judge. */
export function numberFromInput(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const text = value.trim();
    return text === '' ? null : Number(text);
  }
  return value;
}
