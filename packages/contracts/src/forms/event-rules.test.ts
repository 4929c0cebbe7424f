import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_RULES, eventRulesSchema } from '../events';
import { eventRulesBody, eventRulesFormValues, validateEventRules } from './event-rules';

const own = { ...eventRulesFormValues({ rules: DEFAULT_EVENT_RULES, isDefault: false }) };

describe("the organization's event rules form", () => {
  it('shows the rules in force and sends them back unchanged', () => {
    expect(own.transientMinutes).toBe('15');
    expect(own.pahExcursionPercent).toBe('100');
    expect(own.washwaterExcursions).toBe(false);
    expect(validateEventRules(own)).toEqual({});
    expect(eventRulesBody(own)).toEqual({ rules: DEFAULT_EVENT_RULES });
  });

  it("names each threshold out of its bounds with the API's bounds", () => {
    const errors = validateEventRules({
      ...own,
      transientMinutes: '0',
      reportMinutes: '90.5',
      repeatedCount: '',
      dataGapMinutes: 'an hour',
      turbidityExcursionPercent: '501',
      joinSamples: '0',
      washwaterExcursions: true,
    });
    expect(errors).toEqual({
      transientMinutes: 'Must be a whole number from 1 to 1440',
      reportMinutes: 'Must be a whole number from 1 to 1440',
      repeatedCount: 'Must be a whole number from 2 to 100',
      dataGapMinutes: 'Must be a whole number from 1 to 10080',
      turbidityExcursionPercent: 'Must be a number from 0 to 500',
    });
    // What the form accepts, the API's schema accepts: the bounds have one home.
    const body = eventRulesBody({ ...own, pahExcursionPercent: ' 37.5 ', washwaterExcursions: true });
    expect(body).toEqual({
      rules: { ...DEFAULT_EVENT_RULES, pahExcursionPercent: 37.5, washwaterExcursions: true },
    });
    expect(eventRulesSchema.safeParse('rules' in body && body.rules).success).toBe(true);
    expect(eventRulesSchema.safeParse({ ...DEFAULT_EVENT_RULES, transientMinutes: 0 }).success).toBe(false);
  });

  it("leaves the allowance's thresholds alone while it is off, and keeps their defaults if left out of range", () => {
    const values = { ...own, washwaterExcursions: false, pahExcursionPercent: '-1', transientMinutes: '20' };
    expect(validateEventRules(values)).toEqual({});
    expect(eventRulesBody(values)).toEqual({ rules: { ...DEFAULT_EVENT_RULES, transientMinutes: 20 } });
    expect(validateEventRules({ ...values, washwaterExcursions: true })).toEqual({
      pahExcursionPercent: 'Must be a number from 0 to 500',
    });
  });

  it('checks nothing and sends useDefaults while the organization keeps the defaults', () => {
    const values = { ...own, useDefaults: true, transientMinutes: '' };
    expect(validateEventRules(values)).toEqual({});
    expect(eventRulesBody(values)).toEqual({ useDefaults: true });
  });
});
