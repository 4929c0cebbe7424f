import { describe, expect, it } from 'vitest';
import { dataHealthThresholdsBodySchema, defaultThreshold } from '../data-health';
import {
  dataHealthThresholdBody,
  dataHealthThresholdFormValues,
  validateDataHealthThreshold,
} from './data-health-threshold';

describe("a measurement field's data health thresholds form", () => {
  it('shows the thresholds in force, an empty box for no bound, and sends them back unchanged', () => {
    const so2 = defaultThreshold('SO2_PPM');
    const values = dataHealthThresholdFormValues(so2);
    expect(values).toEqual({ min: '0', max: '2000', staleHours: '2', flatLineHours: '2' });
    expect(validateDataHealthThreshold(values)).toEqual({});
    expect(dataHealthThresholdBody('SO2_PPM', values)).toEqual(so2);
    const flow = dataHealthThresholdFormValues(defaultThreshold('FUEL_FLOW'));
    expect(flow.max).toBe('');
    expect(dataHealthThresholdBody('FUEL_FLOW', { ...flow, flatLineHours: ' ' }).flatLineHours).toBeNull();
  });

  it('names a box that is not a number, hours not above 0 and a range upside down', () => {
    expect(
      validateDataHealthThreshold({ min: 'low', max: '1e400', staleHours: '0', flatLineHours: '-2' }),
    ).toEqual({
      min: 'Must be a number, or empty for no bound',
      max: 'Must be a number, or empty for no bound',
      staleHours: 'Must be a number of hours above 0, or empty for no check',
      flatLineHours: 'Must be a number of hours above 0, or empty for no check',
    });
    expect(validateDataHealthThreshold({ min: '14', max: '0', staleHours: '', flatLineHours: '' })).toEqual({
      max: 'The lowest value must not be above the highest',
    });
    expect(() =>
      dataHealthThresholdBody('X', { min: '14', max: '0', staleHours: '', flatLineHours: '' }),
    ).toThrow();
  });

  it("makes only bodies the API's schema accepts", () => {
    const body = dataHealthThresholdBody('WASHWATER_PH', {
      min: '-0.5',
      max: '14',
      staleHours: '0.5',
      flatLineHours: '',
    });
    expect(body).toEqual({
      fieldName: 'WASHWATER_PH',
      min: -0.5,
      max: 14,
      staleHours: 0.5,
      flatLineHours: null,
    });
    expect(dataHealthThresholdsBodySchema.safeParse({ thresholds: [body] }).success).toBe(true);
  });
});
