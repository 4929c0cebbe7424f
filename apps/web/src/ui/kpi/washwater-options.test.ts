import { describe, expect, it } from 'vitest';
import {
  criterionText,
  hasWashwaterValues,
  washwaterChartOption,
  type WashwaterSeries,
} from './washwater-options';

const H0 = '2026-03-01T00:00:00.000Z';
const H1 = '2026-03-01T01:00:00.000Z';
const series = (): WashwaterSeries => ({
  ph: {
    values: [
      { timestamp: H0, value: 6.214 },
      { timestamp: H1, value: null },
    ],
    limits: [{ timestamp: H0, value: 6.5 }],
  },
  pah: { values: [{ timestamp: H0, value: 45.2 }], limits: [{ timestamp: H0, value: 112.5 }] },
  turbidity: { values: [{ timestamp: H0, value: 3 }], limits: [{ timestamp: H0, value: 25 }] },
});
const period = { from: '2026-03-01T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' };

describe('criterionText', () => {
  it('prints 2 decimals with the unit, pH without one, and No data for none', () => {
    expect(criterionText(6.214, 'pH')).toBe('6.21');
    expect(criterionText(45.2, 'µg/L')).toBe('45.20 µg/L');
    expect(criterionText(null, 'NTU')).toBe('No data');
    expect(criterionText(undefined, 'NTU')).toBe('No data');
    expect(criterionText(0, 'NTU')).toBe('0.00 NTU');
  });
});

describe('washwaterChartOption', () => {
  it('draws each criterion and its limit in a panel of its own, over the period, gaps kept', () => {
    const option = washwaterChartOption(series(), period) as any;
    expect(option.grid).toHaveLength(3);
    expect(option.series.map((s: any) => [s.name, s.xAxisIndex, s.yAxisIndex])).toEqual([
      ['pH', 0, 0],
      ['pH limit', 0, 0],
      ['PAH above inlet', 1, 1],
      ['PAH above inlet limit', 1, 1],
      ['Turbidity above inlet', 2, 2],
      ['Turbidity above inlet limit', 2, 2],
    ]);
    expect(option.series[0].data).toEqual([
      [H0, 6.214],
      [H1, null],
    ]);
    expect(option.series[0].connectNulls).toBe(false);
    expect(option.xAxis.map((x: any) => [x.min, x.max])).toEqual(
      Array(3).fill([Date.parse(period.from), Date.parse(period.to)]),
    );
    // Only the last panel labels the time axis; pH is not drawn from 0.
    expect(option.xAxis.map((x: any) => x.axisLabel.show)).toEqual([false, false, true]);
    expect(option.yAxis[0].scale).toBe(true);
    expect(option.yAxis[1].min).toBe(0);
  });

  it('puts each band on the panels it concerns', () => {
    const band = (panels: ('ph' | 'pah' | 'turbidity')[]) => ({
      from: H0,
      to: H1,
      colour: 'rgba(0,0,0,0.2)',
      label: 'x',
      panels,
    });
    const option = washwaterChartOption(series(), period, [
      band(['pah']),
      band(['ph', 'pah', 'turbidity']),
    ]) as any;
    const areas = option.series.map((s: any) => s.markArea?.data.length ?? 0);
    expect(areas).toEqual([1, 0, 2, 0, 1, 0]);
  });

  it('tells all three and their limits at the hour pointed at', () => {
    const option = washwaterChartOption(series(), period) as any;
    const text = option.tooltip.formatter([{ axisValue: Date.parse(H0) }]);
    expect(text).toBe(
      '2026.03.01 00:00 UTC<br/>pH: 6.21 (limit 6.50)<br/>PAH above inlet: 45.20 µg/L (limit 112.50 µg/L)<br/>Turbidity above inlet: 3.00 NTU (limit 25.00 NTU)',
    );
    expect(option.tooltip.formatter([{ axisValue: Date.parse(H1) }])).toContain('pH: No data');
  });

  it('knows a period without discharge', () => {
    const empty: WashwaterSeries = {
      ph: { values: [{ timestamp: H0, value: null }], limits: [] },
      pah: { values: [], limits: [] },
      turbidity: { values: [], limits: [] },
    };
    expect(hasWashwaterValues(empty)).toBe(false);
    expect(hasWashwaterValues(series())).toBe(true);
  });
});
