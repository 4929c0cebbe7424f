import { describe, expect, it } from 'vitest';
import { capFleetChartValue, capMarginChartValue, RATIO_BAR_COLOURS } from '@portal/contracts/rules';
import {
  availabilityGauge,
  gaugeOption,
  marginBars,
  marpolGauge,
  ratioGauge,
  sfocGauge,
  shipBarOption,
} from './options';

const series = (option: object) => (option as { series: Record<string, any>[] }).series[0]!;

describe('gauges', () => {
  it('keeps the Marpol needle at 80 or above and truncates a value from 99.5, for the fleet and a ship', () => {
    expect(marpolGauge(62).needle).toBe(80);
    expect(marpolGauge(99.97).text).toBe('99.9 %');
    expect(marpolGauge(99.958).text).toBe('99.9 %');
    const axis = series(gaugeOption(marpolGauge(95)));
    expect([axis.min, axis.max]).toEqual([80, 100]);
    // Bands end at the stops 90, 95 and 100, as fractions of the dial.
    expect(axis.axisLine.lineStyle.color.map((c: [number, string]) => c[0])).toEqual([0.5, 0.75, 1]);
  });

  it('floors the availability needle at 90 for a ship and 80 for the fleet', () => {
    expect(availabilityGauge(70, 'ship').needle).toBe(90);
    expect(availabilityGauge(70, 'fleet').needle).toBe(80);
    expect(availabilityGauge(104, 'fleet')).toMatchObject({ needle: 100, text: '104.0 %' });
    expect(
      series(gaugeOption(availabilityGauge(95, 'ship'))).axisLine.lineStyle.color.map(
        (c: [number, string]) => c[0],
      ),
    ).toEqual([0.6, 0.8, 1]);
  });

  it('draws SFOC from 0 to 4 in 8 segments with the industry band 2.0-2.5', () => {
    const model = sfocGauge(5.2);
    expect(model.needle).toBe(4);
    const axis = series(gaugeOption(model));
    expect(axis.splitNumber).toBe(8);
    expect(axis.axisLine.lineStyle.color.map((c: [number, string]) => c[0])).toEqual([0.5, 0.625, 1]);
  });

  it('runs the ratio gauge from 100 down to -30 with its four bands', () => {
    expect(ratioGauge(100).needle).toBe(0);
    expect(ratioGauge(-30).needle).toBe(130);
    expect(ratioGauge(-80).needle).toBe(130);
    const model = ratioGauge(20);
    expect(model.needle).toBe(80);
    expect(model.bands).toEqual([
      [50, RATIO_BAR_COLOURS.grey],
      [90, RATIO_BAR_COLOURS.green],
      [100, RATIO_BAR_COLOURS.yellow],
      [130, RATIO_BAR_COLOURS.red],
    ]);
    expect([0, 50, 90, 100, 130, 20].map((v) => model.label!(v))).toEqual([
      '100',
      '50',
      '10',
      '0',
      '-30',
      '',
    ]);
  });
});

describe('gauges without a value', () => {
  const needleOf = (option: object) => series(option).pointer.show as boolean;

  it('draw no needle and say No data', () => {
    for (const model of [
      marpolGauge(null),
      availabilityGauge(null, 'fleet'),
      availabilityGauge(null, 'ship'),
      sfocGauge(null),
      ratioGauge(null),
    ]) {
      expect(model.needle).toBeNull();
      expect(model.text).toBe('No data');
      expect(needleOf(gaugeOption(model))).toBe(false);
      expect(series(gaugeOption(model)).data).toEqual([]);
    }
    expect(needleOf(gaugeOption(marpolGauge(95)))).toBe(true);
  });

  it('name the four ratio bands on the dial, outside the ring at the middle of each band', () => {
    const option = gaugeOption(ratioGauge(20)) as { series: Record<string, any>[] };
    const names = option.series[1]!;
    expect(names.data.map((d: { name: string }) => d.name.replace('\n', ''))).toEqual([
      'Over-scrubbing',
      'Optimal',
      'Risk',
      'Under-scrubbing',
    ]);
    // Over-scrubbing (100..50) on the left, Optimal (50..10) at the top, Under-scrubbing (0..-30) on the right.
    const [over, optimal, , under] = names.data.map((d: { title: any }) => d.title);
    expect(optimal.verticalAlign).toBe('bottom');
    expect(Math.abs(parseFloat(optimal.offsetCenter[0]))).toBeLessThan(50);
    expect(parseFloat(over.offsetCenter[0])).toBeLessThan(0);
    expect(parseFloat(under.offsetCenter[0])).toBeGreaterThan(0);
    // No needle on the names' dial.
    expect(names.pointer.show).toBe(false);
  });
});

describe('per-ship bars', () => {
  const ships = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ facilityId: `s${i}`, name: `Ship ${i}`, value: i }));

  it('takes 40 px a ship and scrolls above 25 ships', () => {
    expect(shipBarOption(ships(25), { unit: '%' })).toMatchObject({ widthPx: 1000, scroll: false });
    expect(shipBarOption(ships(26), { unit: '%' })).toMatchObject({ widthPx: 1040, scroll: true });
  });

  it('turns the ship names on a phone (from 3 ships) and on a wide screen from 7 ships, so they do not overlap', () => {
    const rotation = (n: number, compact: boolean) =>
      (shipBarOption(ships(n), { unit: '%' }, compact).option as { xAxis: { axisLabel: { rotate: number } } })
        .xAxis.axisLabel.rotate;
    expect([rotation(2, true), rotation(3, true), rotation(6, false), rotation(7, false)]).toEqual([
      0, 40, 0, 40,
    ]);
  });

  it('draws the fleet SO2/CO2 chart as margins on the gauge scale, the tooltip with band, ratio and limit', () => {
    const bars = marginBars(
      [
        { facilityId: 'a', name: 'A', value: 26.74418604651163 },
        { facilityId: 'b', name: 'B', value: -75 },
      ],
      new Map([
        ['a', 3.15],
        ['b', 37.975],
      ]),
      new Map([
        ['a', 4.300000000000001],
        ['b', 21.700000000000024],
      ]),
    );
    const { option } = shipBarOption(bars, {
      unit: '%',
      format: 'Percent',
      min: -30,
      max: 100,
      cap: capMarginChartValue,
      axisName: 'Margin to the limit (%)',
      axisStep: 10,
      labelsAt: [100, 50, 10, 0, -30],
    });
    const bar = series(option);
    // The value axis is labelled at the gauge's stops only.
    const label = (option as any).yAxis.axisLabel.formatter;
    expect([100, 90, 50, 30, 10, 0, -30].map(label)).toEqual(['100', '', '50', '', '10', '0', '-30']);
    expect(bar.data.map((d: { value: number }) => d.value)).toEqual([26.74418604651163, -30]);
    expect((option as any).yAxis).toMatchObject({ min: -30, max: 100, name: 'Margin to the limit (%)' });
    expect((option as any).tooltip.formatter({ dataIndex: 0 })).toBe(
      'A: 26.7 %<br/>Optimal<br/>Ratio: 3.15<br/>Limit: 4.30',
    );
    expect((option as any).tooltip.formatter({ dataIndex: 1 })).toBe(
      'B: -75.0 %<br/>Under-scrubbing<br/>Ratio: 37.98<br/>Limit: 21.70',
    );
  });

  it('keeps the old ratio cap for callers that still draw a ratio', () => {
    const { option } = shipBarOption([{ facilityId: 'a', name: 'A', value: 31.5 }], {
      unit: 'ppm/%',
      cap: capFleetChartValue,
    });
    expect(series(option).data[0].value).toBe(20);
  });

  it('sets SFOC ticks 0.5 apart up to at least 4', () => {
    const { option } = shipBarOption([{ facilityId: 'a', name: 'A', value: 4.7 }], {
      unit: '%',
      axisStep: 0.5,
    });
    expect((option as any).yAxis).toMatchObject({ interval: 0.5, max: 5 });
  });

  it('colours each ship by its margin band', () => {
    const bars = marginBars(
      [
        { facilityId: 'a', name: 'A', value: 60 },
        { facilityId: 'b', name: 'B', value: 10 },
        { facilityId: 'c', name: 'C', value: 0 },
        { facilityId: 'd', name: 'D', value: -5 },
      ],
      new Map(),
      new Map(),
    );
    expect(bars.map((b) => b.colour)).toEqual([
      RATIO_BAR_COLOURS.grey,
      RATIO_BAR_COLOURS.green,
      RATIO_BAR_COLOURS.yellow,
      RATIO_BAR_COLOURS.red,
    ]);
  });
});
