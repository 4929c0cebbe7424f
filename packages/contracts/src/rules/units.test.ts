import { describe, expect, it } from 'vitest';
import { formatTonnes, tonnesDisplay } from './units';

describe('tonnesDisplay', () => {
  it('shows values under 1 t in kg', () => {
    expect(tonnesDisplay(0.5)).toEqual({ value: 500, text: '500', unit: 'kg' });
    expect(tonnesDisplay(0.0124)).toEqual({ value: 12, text: '12', unit: 'kg' });
    expect(tonnesDisplay(0.999)).toEqual({ value: 999, text: '999', unit: 'kg' });
    expect(tonnesDisplay(0)).toEqual({ value: 0, text: '0', unit: 'kg' });
  });

  it('shows exactly 1 t in tonnes', () => {
    expect(tonnesDisplay(1)).toEqual({ value: 1, text: '1.0', unit: 't' });
  });

  it('moves to tonnes when kg would round up to 1000', () => {
    expect(tonnesDisplay(0.9996)).toEqual({ value: 1, text: '1.0', unit: 't' });
  });

  it('shows tonnes with 1 decimal below 100 t and none from 100 t', () => {
    expect(tonnesDisplay(12.345)).toEqual({ value: 12.3, text: '12.3', unit: 't' });
    expect(tonnesDisplay(99.94)).toEqual({ value: 99.9, text: '99.9', unit: 't' });
    expect(tonnesDisplay(100)).toEqual({ value: 100, text: '100', unit: 't' });
    expect(tonnesDisplay(12345.6)).toEqual({ value: 12346, text: '12,346', unit: 't' });
    expect(tonnesDisplay(99999.4)).toEqual({ value: 99999, text: '99,999', unit: 't' });
  });

  it('shows values at or above 100000 t in MT with 1 decimal', () => {
    expect(tonnesDisplay(100000)).toEqual({ value: 100, text: '100.0', unit: 'MT' });
    expect(tonnesDisplay(123456)).toEqual({ value: 123.5, text: '123.5', unit: 'MT' });
    expect(tonnesDisplay(2_500_000)).toEqual({ value: 2500, text: '2,500.0', unit: 'MT' });
  });

  it('moves to MT when tonnes would round up to 100000', () => {
    expect(tonnesDisplay(99999.7)).toEqual({ value: 100, text: '100.0', unit: 'MT' });
  });

  it('applies the thresholds to negative values by magnitude', () => {
    expect(tonnesDisplay(-0.25)).toEqual({ value: -250, text: '-250', unit: 'kg' });
    expect(tonnesDisplay(-5)).toEqual({ value: -5, text: '-5.0', unit: 't' });
    expect(tonnesDisplay(-150000)).toEqual({ value: -150, text: '-150.0', unit: 'MT' });
    expect(tonnesDisplay(-0.0001).text).toBe('0');
  });
});

describe('formatTonnes', () => {
  it('joins number and unit', () => {
    expect(formatTonnes(0.45)).toBe('450 kg');
    expect(formatTonnes(7.25)).toBe('7.3 t');
    expect(formatTonnes(100000)).toBe('100.0 MT');
  });

  it('shows No data for a missing value', () => {
    expect(formatTonnes(null)).toBe('No data');
    expect(formatTonnes(undefined)).toBe('No data');
    expect(formatTonnes(Number.NaN)).toBe('No data');
  });
});
