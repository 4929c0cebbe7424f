import { describe, expect, it } from 'vitest';
import { formatFieldValue } from './format';

describe('formatFieldValue', () => {
  it('prints a field by its format, with the tonnes unit rules', () => {
    expect(formatFieldValue(0.25, 'Tonnes')).toBe('250 kg');
    expect(formatFieldValue(123_456, 'Tonnes')).toBe('123.5 MT');
    expect(formatFieldValue(97.349, 'Percent')).toBe('97.3 %');
    expect(formatFieldValue(4.256, 'Ratio')).toBe('4.26');
    expect(formatFieldValue(null, 'Percent')).toBe('No data');
  });
});

describe('formatFieldValue of compliance and availability', () => {
  it('truncates a value below 100 so it never reads 100.0', () => {
    expect(formatFieldValue(99.958, 'Percent')).toBe('99.9 %');
    expect(formatFieldValue(100, 'Percent')).toBe('100.0 %');
    expect(formatFieldValue(107.46, 'Percent')).toBe('107.5 %');
  });
});
