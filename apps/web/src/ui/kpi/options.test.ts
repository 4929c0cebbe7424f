import { describe, expect, it } from 'vitest';
import { capFleetChartValue, RATIO_BAR_COLOURS } from '@portal/contracts/rules';
import {
  availabilityGauge,
  gaugeOption,
  marpolGauge,
  ratioBars,
  ratioGauge,
  sfocGauge,
  shipBarOption,
} from './options';

const series = (option: object) => (option as { series: Record<string, any>[] }).series[0]!;

describe('gauges', () => {
  it('keeps the Marpol needle at 80 or above and truncates a fleet average from 99.5', () => {
    expect(marpolGauge(62, 'ship').needle).toBe(80);
    expect(marpolGauge(99.97, 'fleet').text).toBe('99.9 %');
    expect(marpolGauge(99.97, 'ship').text).toBe('100.0 %');
    expect(marpolGauge(null, 'fleet').text).toBe('No data');
    const axis = series(gaugeOption(marpolGauge(95, 'fleet')));
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

  it('caps the fleet ratio chart at 20 and keeps the real value for the tooltip', () => {
    const { option } = shipBarOption(
      [
        { facilityId: 'a', name: 'A', value: 31.5 },
        { facilityId: 'b', name: 'B', value: 3 },
      ],
      { unit: 'ppm/%', cap: capFleetChartValue },
    );
    const bar = series(option);
    expect(bar.data.map((d: { value: number }) => d.value)).toEqual([20, 3]);
    expect((option as any).tooltip.formatter({ dataIndex: 0 })).toBe('A: 31.5 ppm/%');
  });

  it('sets SFOC ticks 0.5 apart up to at least 4', () => {
    const { option } = shipBarOption([{ facilityId: 'a', name: 'A', value: 4.7 }], {
      unit: '%',
      axisStep: 0.5,
    });
    expect((option as any).yAxis).toMatchObject({ interval: 0.5, max: 5 });
  });

  it('colours each ship by its margin band', () => {
    const bars = ratioBars(
      [
        { facilityId: 'a', name: 'A', value: 1 },
        { facilityId: 'b', name: 'B', value: 2 },
        { facilityId: 'c', name: 'C', value: 3 },
        { facilityId: 'd', name: 'D', value: 30 },
      ],
      new Map([
        ['a', 60],
        ['b', 10],
        ['c', 0],
        ['d', -5],
      ]),
    );
    expect(bars.map((b) => b.colour)).toEqual([
      RATIO_BAR_COLOURS.grey,
      RATIO_BAR_COLOURS.green,
      RATIO_BAR_COLOURS.yellow,
      RATIO_BAR_COLOURS.red,
    ]);
  });
});
