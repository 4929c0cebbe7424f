import { describe, expect, it } from 'vitest';
import {
  approveValiditySchema,
  calculationSettingsSchema,
  validateApproveValidity,
  validateCalculationSettings,
} from './calculation';

describe('approve validity', () => {
  it('requires valid from', () => {
    expect(validateApproveValidity({ validFrom: '', validTo: '' })).toEqual({
      validFrom: 'Valid from date must be filled out',
    });
    expect(validateApproveValidity({})).toEqual({ validFrom: 'Valid from date must be filled out' });
  });

  it('leaves valid to optional', () => {
    expect(approveValiditySchema.parse({ validFrom: '2024-01-01T00:00:00Z', validTo: '' })).toEqual({
      validFrom: '2024-01-01T00:00:00.000Z',
      validTo: null,
    });
  });

  it('rejects valid to before valid from and allows the same instant', () => {
    expect(
      validateApproveValidity({ validFrom: '2024-03-01T00:00:00Z', validTo: '2024-02-29T23:59:59Z' }),
    ).toEqual({
      validTo: 'Valid to date cannot be before valid from date',
    });
    expect(
      validateApproveValidity({ validFrom: '2024-03-01T00:00:00Z', validTo: '2024-03-01T00:00:00Z' }),
    ).toEqual({});
  });

  it('compares instants across offsets', () => {
    expect(
      validateApproveValidity({ validFrom: '2024-03-01T01:00:00+02:00', validTo: '2024-02-29T23:30:00Z' }),
    ).toEqual({});
  });

  it('rejects dates that are not dates', () => {
    expect(validateApproveValidity({ validFrom: 'soon', validTo: 42n })).toEqual({
      validFrom: 'Must be a valid date',
      validTo: 'Must be a valid date',
    });
  });
});

describe('calculation settings', () => {
  it('converts numbers from text and removes duplicate inputs', () => {
    expect(
      calculationSettingsSchema.parse({
        comment: 'Ratio at outlet',
        documentation: null,
        requiredSampleIntervalInSeconds: '60',
        preloadIntervalInSeconds: '0',
        inputIds: ['so2', 'co2', 'so2'],
        qualityScore: '4',
      }),
    ).toEqual({
      comment: 'Ratio at outlet',
      documentation: '',
      requiredSampleIntervalInSeconds: 60,
      preloadIntervalInSeconds: 0,
      inputIds: ['so2', 'co2'],
      qualityScore: 4,
    });
  });

  it('allows empty intervals and no inputs', () => {
    expect(
      calculationSettingsSchema.parse({
        requiredSampleIntervalInSeconds: '',
        preloadIntervalInSeconds: null,
      }),
    ).toMatchObject({
      requiredSampleIntervalInSeconds: null,
      preloadIntervalInSeconds: null,
      inputIds: [],
      qualityScore: null,
    });
  });

  it('says what is wrong per field', () => {
    expect(
      validateCalculationSettings({
        requiredSampleIntervalInSeconds: '0',
        preloadIntervalInSeconds: '-1',
        qualityScore: 7,
      }),
    ).toEqual({
      requiredSampleIntervalInSeconds: 'Sample interval must be more than 0',
      preloadIntervalInSeconds: 'Preload interval cannot be negative',
      qualityScore: 'Rating must be a whole number from 0 to 5',
    });
    expect(
      validateCalculationSettings({ requiredSampleIntervalInSeconds: '1.5', preloadIntervalInSeconds: 'x' }),
    ).toEqual({
      requiredSampleIntervalInSeconds: 'Must be a whole number',
      preloadIntervalInSeconds: 'Must be a number',
    });
  });
});
