import { describe, expect, it } from 'vitest';
import {
  excelNumberFormat,
  formatByFormat,
  formatDecimals,
  roundByFormat,
  roundPercent,
  truncateTo,
} from './format';

describe('rounding by format', () => {
  it('keeps the decimals of the format', () => {
    expect(formatDecimals('Percent')).toBe(1);
    expect(formatDecimals('Ratio')).toBe(2);
    expect(formatDecimals('Tonnes')).toBe(3);
    expect(formatDecimals(null)).toBe(2);
    expect(formatDecimals('Something')).toBe(2);
  });

  it('removes floating-point noise', () => {
    expect(roundByFormat(21.700000000000024, 'Ratio')).toBe(21.7);
    expect(roundByFormat(21.70000000000003, 'Ratio')).toBe(21.7);
    expect(roundByFormat(4.299999999999999, 'Ratio')).toBe(4.3);
    expect(roundByFormat(1.005, 'Ratio')).toBe(1.01);
    expect(roundByFormat(12.34567, 'Tonnes')).toBe(12.346);
    expect(roundByFormat(3.14159, null)).toBe(3.14);
  });

  it('keeps no value as no value', () => {
    expect(roundByFormat(null, 'Percent')).toBeNull();
    expect(roundByFormat(undefined, 'Ratio')).toBeNull();
    expect(roundByFormat(Number.NaN, 'Ratio')).toBeNull();
    expect(formatByFormat(null, 'Percent')).toBe('No data');
  });

  it('prints the value by its format', () => {
    expect(formatByFormat(21.700000000000024, 'Ratio')).toBe('21.70');
    expect(formatByFormat(87.25, 'Percent')).toBe('87.3 %');
    expect(formatByFormat(0.4567, 'Tonnes')).toBe('457 kg');
    expect(formatByFormat(12.34, 'Tonnes')).toBe('12.3 t');
    expect(formatByFormat(-0.00001, 'Percent')).toBe('0.0 %');
    expect(formatByFormat(6.4999999, 'Number')).toBe('6.50');
    expect(formatByFormat(2.25, 'Hours')).toBe('2.3 h');
  });

  it('gives each format its Excel number format', () => {
    expect(excelNumberFormat('Percent')).toBe('#,##0.0');
    expect(excelNumberFormat('Ratio')).toBe('#,##0.00');
    expect(excelNumberFormat('Tonnes')).toBe('#,##0.000');
    expect(excelNumberFormat('Number')).toBe('#,##0.00');
    expect(excelNumberFormat('Hours')).toBe('#,##0.0');
  });
});

describe('truncation of a percent that is not complete', () => {
  it('never shows a value below 100 as 100.0', () => {
    expect(roundPercent(99.958)).toBe(99.9);
    expect(formatByFormat(99.958, 'Percent')).toBe('99.9 %');
    expect(formatByFormat(99.999999, 'Percent')).toBe('99.9 %');
    expect(formatByFormat(99.95, 'Percent')).toBe('99.9 %');
    expect(formatByFormat(99.5, 'Percent')).toBe('99.5 %');
    expect(formatByFormat(99.7, 'Percent')).toBe('99.7 %');
  });

  it('rounds outside the band from 99.5 to 100', () => {
    expect(formatByFormat(100, 'Percent')).toBe('100.0 %');
    expect(formatByFormat(99.46, 'Percent')).toBe('99.5 %');
    expect(formatByFormat(107.46, 'Percent')).toBe('107.5 %');
    expect(formatByFormat(28.84, 'Percent')).toBe('28.8 %');
  });

  it('truncates towards zero', () => {
    expect(truncateTo(99.958, 1)).toBe(99.9);
    expect(truncateTo(-3.99, 1)).toBe(-3.9);
    expect(truncateTo(99.7, 1)).toBe(99.7);
  });
});
