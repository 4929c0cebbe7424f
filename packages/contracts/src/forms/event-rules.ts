import {
  DEFAULT_EVENT_RULES,
  EVENT_RULE_BOUNDS,
  type EventRuleThreshold,
  type EventRules,
  type OrganizationEventRules,
} from '../events';
import type { FieldErrors } from './errors';

/** The organization's event rules as typed: each threshold as text, the allowance's switch, the defaults' switch. */
export type EventRulesFormValues = Record<EventRuleThreshold, string> & {
  useDefaults: boolean;
  washwaterExcursions: boolean;
};

const THRESHOLDS = Object.keys(EVENT_RULE_BOUNDS) as EventRuleThreshold[];

/** The form's values for the rules in force. */
export function eventRulesFormValues({ rules, isDefault }: OrganizationEventRules): EventRulesFormValues {
  const text = Object.fromEntries(THRESHOLDS.map((k) => [k, String(rules[k])])) as Record<
    EventRuleThreshold,
    string
  >;
  return { ...text, useDefaults: isDefault, washwaterExcursions: rules.washwaterExcursions };
}

/** The message of a threshold out of its bounds, e.g. "Must be a whole number from 1 to 1440". */
export function eventRuleMessage(key: EventRuleThreshold): string {
  const { min, max, integer } = EVENT_RULE_BOUNDS[key];
  return `Must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`;
}

const parse = (key: EventRuleThreshold, text: string): number | null => {
  const { min, max, integer } = EVENT_RULE_BOUNDS[key];
  const trimmed = text.trim();
  const value = trimmed === '' ? NaN : Number(trimmed);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max)
    return null;
  return value;
};

/** The allowance's thresholds: checked only while it is on (the form disables them while it is off). */
const EXCURSION_THRESHOLDS: readonly EventRuleThreshold[] = [
  'washwaterExcursionMinutes',
  'washwaterExcursionWindowHours',
  'pahExcursionPercent',
  'turbidityExcursionPercent',
];
const checked = (values: EventRulesFormValues) =>
  THRESHOLDS.filter((k) => values.washwaterExcursions || !EXCURSION_THRESHOLDS.includes(k));

/** Each threshold within its bounds; nothing to check while the organization keeps the defaults. */
export function validateEventRules(values: EventRulesFormValues): FieldErrors<EventRuleThreshold> {
  if (values.useDefaults) return {};
  const errors: FieldErrors<EventRuleThreshold> = {};
  for (const key of checked(values))
    if (parse(key, values[key]) === null) errors[key] = eventRuleMessage(key);
  return errors;
}

/** The PUT body of a valid form. */
export function eventRulesBody(values: EventRulesFormValues): { useDefaults: true } | { rules: EventRules } {
  if (values.useDefaults) return { useDefaults: true };
  const numbers = Object.fromEntries(
    THRESHOLDS.map((k) => {
      const value = parse(k, values[k]);
      if (value !== null) return [k, value];
      // An allowance threshold left out of range while the allowance is off keeps the default.
      if (!checked(values).includes(k)) return [k, DEFAULT_EVENT_RULES[k]];
      throw new Error(`${k}: ${eventRuleMessage(k)}`);
    }),
  ) as Record<EventRuleThreshold, number>;
  return { rules: { ...numbers, washwaterExcursions: values.washwaterExcursions } };
}
