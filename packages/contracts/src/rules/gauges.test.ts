import { describe, expect, it } from 'vitest';
import {
  APPLICABLE_LIMITS,
  AVAILABILITY_GAUGE,
  availabilityNeedle,
  capFleetChartValue,
  capMarginChartValue,
  capShipChartValue,
  MARPOL_GAUGE,
  marpolFleetAverageDisplay,
  marpolNeedle,
  RATIO_BAR_COLOURS,
  RATIO_GAUGE,
  RATIO_MARGIN_BANDS,
  ratioBarColour,
  ratioGaugeNeedle,
  ratioMarginBand,
  SFOC_GAUGE,
  sfocAxisTicks,
  sfocNeedle,
} from './gauges';

describe('Marpol gauge', () => {
  it('has the range and stops of the spec', () => {
    expect(MARPOL_GAUGE).toEqual({ min: 80, max: 100, stops: [80, 90, 95, 100] });
  });

  it('clamps the needle to at least 80', () => {
    expect(marpolNeedle(42)).toBe(80);
    expect(marpolNeedle(80)).toBe(80);
    expect(marpolNeedle(91.3)).toBe(91.3);
    expect(marpolNeedle(100)).toBe(100);
  });

  it('truncates a fleet average between 99.5 and 100', () => {
    expect(marpolFleetAverageDisplay(99.97)).toBe('99.9');
    expect(marpolFleetAverageDisplay(99.95)).toBe('99.9');
    expect(marpolFleetAverageDisplay(99.5)).toBe('99.5');
    expect(marpolFleetAverageDisplay(99.59)).toBe('99.5');
    expect(marpolFleetAverageDisplay(99.7)).toBe('99.7');
    expect(marpolFleetAverageDisplay(99.999999)).toBe('99.9');
  });

  it('rounds outside that band', () => {
    expect(marpolFleetAverageDisplay(100)).toBe('100.0');
    expect(marpolFleetAverageDisplay(99.46)).toBe('99.5');
    expect(marpolFleetAverageDisplay(99.44)).toBe('99.4');
    expect(marpolFleetAverageDisplay(87.25)).toBe('87.3');
    expect(marpolFleetAverageDisplay(0)).toBe('0.0');
  });

  it('shows No data without a value', () => {
    expect(marpolFleetAverageDisplay(null)).toBe('No data');
    expect(marpolFleetAverageDisplay(Number.NaN)).toBe('No data');
  });
});

describe('operational availability gauge', () => {
  it('has the range and stops of the spec', () => {
    expect(AVAILABILITY_GAUGE.stops).toEqual([90, 96, 98, 100]);
    expect([AVAILABILITY_GAUGE.min, AVAILABILITY_GAUGE.max]).toEqual([90, 100]);
  });

  it('floors the ship needle at 90 and the fleet needle at 80', () => {
    expect(availabilityNeedle(85, 'ship')).toBe(90);
    expect(availabilityNeedle(85, 'fleet')).toBe(85);
    expect(availabilityNeedle(70, 'fleet')).toBe(80);
    expect(availabilityNeedle(90, 'ship')).toBe(90);
    expect(availabilityNeedle(97.5, 'ship')).toBe(97.5);
  });

  it('keeps the needle on the dial above 100', () => {
    expect(availabilityNeedle(104, 'ship')).toBe(100);
    expect(availabilityNeedle(104, 'fleet')).toBe(100);
  });
});

describe('SFOC gauge', () => {
  it('spans 0 to 4 in 8 segments with the industry band 2.0 to 2.5 %', () => {
    expect(SFOC_GAUGE).toMatchObject({
      min: 0,
      max: 4,
      segments: 8,
      industryBand: [2.0, 2.5],
      chartAxisStep: 0.5,
    });
    expect((SFOC_GAUGE.max - SFOC_GAUGE.min) / SFOC_GAUGE.segments).toBe(SFOC_GAUGE.chartAxisStep);
  });

  it('clamps the needle to the dial', () => {
    expect(sfocNeedle(-1)).toBe(0);
    expect(sfocNeedle(2.2)).toBe(2.2);
    expect(sfocNeedle(6)).toBe(4);
  });

  it('steps the chart axis by 0.5', () => {
    expect(sfocAxisTicks(1)).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4]);
    expect(sfocAxisTicks(4.2)).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5]);
    expect(sfocAxisTicks(5)).toHaveLength(11);
  });
});

describe('SO2/CO2 ratio gauge', () => {
  it('runs from 100 down to -30', () => {
    expect(RATIO_GAUGE.stops).toEqual([100, 50, 10, 0, -30]);
    expect(RATIO_MARGIN_BANDS.map((b) => [b.label, b.from, b.to])).toEqual([
      ['Over-scrubbing', 100, 50],
      ['Optimal', 50, 10],
      ['Risk', 10, 0],
      ['Under-scrubbing', 0, -30],
    ]);
  });

  it.each([
    [100, 'Over-scrubbing', 'grey'],
    [50, 'Over-scrubbing', 'grey'],
    [49.99, 'Optimal', 'green'],
    [10, 'Optimal', 'green'],
    [9.99, 'Risk', 'yellow'],
    [0, 'Risk', 'yellow'],
    [-0.01, 'Under-scrubbing', 'red'],
    [-30, 'Under-scrubbing', 'red'],
    [-80, 'Under-scrubbing', 'red'],
  ])('margin %d is %s and %s', (margin, label, colour) => {
    expect(ratioMarginBand(margin)).toBe(label);
    expect(ratioBarColour(margin)).toBe(colour);
  });

  it('has a hex colour for every bar colour', () => {
    for (const hex of Object.values(RATIO_BAR_COLOURS)) expect(hex).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('keeps the needle between -30 and 100', () => {
    expect(ratioGaugeNeedle(-55)).toBe(-30);
    expect(ratioGaugeNeedle(120)).toBe(100);
    expect(ratioGaugeNeedle(12)).toBe(12);
  });

  it('knows the two applicable limits', () => {
    expect(APPLICABLE_LIMITS).toEqual([4.3, 21.7]);
  });

  it('caps the ship chart at 25 and keeps the actual value', () => {
    expect(capShipChartValue(24.9)).toEqual({ plotted: 24.9, actual: 24.9, capped: false });
    expect(capShipChartValue(25)).toEqual({ plotted: 25, actual: 25, capped: false });
    expect(capShipChartValue(60.2)).toEqual({ plotted: 25, actual: 60.2, capped: true });
  });

  it('caps the fleet chart at 20', () => {
    expect(capFleetChartValue(20)).toEqual({ plotted: 20, actual: 20, capped: false });
    expect(capFleetChartValue(21.7)).toEqual({ plotted: 20, actual: 21.7, capped: true });
  });
});

describe('gauges without a value', () => {
  it('have no needle: a floor is never a stand-in for a missing value', () => {
    expect(marpolNeedle(null)).toBeNull();
    expect(marpolNeedle(undefined)).toBeNull();
    expect(availabilityNeedle(null, 'ship')).toBeNull();
    expect(availabilityNeedle(null, 'fleet')).toBeNull();
    expect(sfocNeedle(null)).toBeNull();
    expect(ratioGaugeNeedle(null)).toBeNull();
    expect(ratioGaugeNeedle(Number.NaN)).toBeNull();
  });

  it('keep the needle of a value at its floor', () => {
    expect(availabilityNeedle(85, 'ship')).toBe(90);
    expect(availabilityNeedle(85, 'fleet')).toBe(85);
    expect(availabilityNeedle(107, 'ship')).toBe(100);
  });
});

describe('fleet margin chart', () => {
  it('draws a margin on the gauge scale and keeps the real value', () => {
    expect(capMarginChartValue(28.8)).toEqual({ plotted: 28.8, actual: 28.8, capped: false });
    expect(capMarginChartValue(-75)).toEqual({ plotted: -30, actual: -75, capped: true });
  });
});
