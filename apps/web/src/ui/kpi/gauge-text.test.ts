import { describe, expect, it } from 'vitest';
import { gaugeTextAlternative } from './gauge-text';
import { availabilityGauge, marpolGauge, ratioGauge, sfocGauge } from './options';

describe('gaugeTextAlternative', () => {
  it('says the value and the coloured band its needle is in', () => {
    expect(gaugeTextAlternative('Marpol compliance', marpolGauge(97.25))).toBe(
      'Marpol compliance: 97.3 %, green band (95 to 100)',
    );
    expect(gaugeTextAlternative('Marpol compliance', marpolGauge(92))).toBe(
      'Marpol compliance: 92.0 %, yellow band (90 to 95)',
    );
    expect(gaugeTextAlternative('SFOC impact', sfocGauge(2.2))).toBe(
      'SFOC impact: 2.2 %, blue band (2 to 2.5)',
    );
  });

  it('names the SO2/CO2 margin bands as the spec does', () => {
    expect(gaugeTextAlternative('SO2/CO2 ratio', ratioGauge(28.8))).toBe(
      'SO2/CO2 ratio: 28.8 %, Optimal (50 to 10)',
    );
    expect(gaugeTextAlternative('SO2/CO2 ratio', ratioGauge(-5))).toBe(
      'SO2/CO2 ratio: -5.0 %, Under-scrubbing (0 to -30)',
    );
  });

  it('gives the value as the needle shows it when it is beyond the dial', () => {
    // 107 % availability: the needle stops at 100, the text keeps the value.
    expect(gaugeTextAlternative('Operational availability', availabilityGauge(107, 'ship'))).toBe(
      'Operational availability: 107.0 %, green band (98 to 100)',
    );
  });

  it('names no band without data', () => {
    expect(gaugeTextAlternative('Marpol compliance', { ...marpolGauge(null), needle: null })).toBe(
      'Marpol compliance: No data',
    );
    expect(gaugeTextAlternative('Marpol compliance', marpolGauge(null))).toBe('Marpol compliance: No data');
  });
});
