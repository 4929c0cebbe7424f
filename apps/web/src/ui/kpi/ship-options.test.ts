import { describe, expect, it } from 'vitest';
import { buildUptimeMatrix, customPeriod, UPTIME_COLOURS } from '@portal/contracts/rules';
import { ratioTimeOption, uptimeHeatmapOption } from './ship-options';

describe('ship charts', () => {
  it('caps the ratio at 25 and shows the actual value in the note', () => {
    const option = ratioTimeOption(
      [
        { timestamp: '2024-03-01T00:00:00.000Z', value: 40 },
        { timestamp: '2024-03-01T01:00:00.000Z', value: 3 },
      ],
      [{ timestamp: '2024-03-01T00:00:00.000Z', value: 4.3 }],
    ) as any;
    expect(option.series[0].data).toEqual([
      ['2024-03-01T00:00:00.000Z', 25],
      ['2024-03-01T01:00:00.000Z', 3],
    ]);
    expect(option.yAxis.max).toBe(25);
    const note = option.tooltip.formatter([{ dataIndex: 0, seriesIndex: 0 }]);
    expect(note).toContain('Ratio: 40.00 (shown at 25)');
    expect(note).toContain('Limit: 4.30');
  });

  it('prints ratio and limit by the Ratio format, without floating-point noise', () => {
    const option = ratioTimeOption(
      [{ timestamp: '2024-03-01T00:00:00.000Z', value: 15.123456789 }],
      [{ timestamp: '2024-03-01T00:00:00.000Z', value: 21.700000000000024 }],
    ) as any;
    const note = option.tooltip.formatter([{ dataIndex: 0, seriesIndex: 0 }]);
    expect(note).toContain('Ratio: 15.12');
    expect(note).toContain('Limit: 21.70');
    expect(note).not.toContain('21.7000');
  });

  it('spans the time axis over the whole period, not only the hours with data', () => {
    const values = [{ timestamp: '2024-03-10T00:00:00.000Z', value: 3 }];
    const option = ratioTimeOption(values, [], {
      from: '2024-03-01T00:00:00.000Z',
      to: '2024-03-31T23:59:59.999Z',
    }) as any;
    expect(option.xAxis.min).toBe(Date.parse('2024-03-01T00:00:00.000Z'));
    expect(option.xAxis.max).toBe(Date.parse('2024-03-31T23:59:59.999Z'));
    expect((ratioTimeOption(values, []) as any).xAxis.min).toBeUndefined();
  });

  it('draws bands behind the ratio: each from its start to its end, an instant at least a minute wide', () => {
    const option = ratioTimeOption([], [], undefined, [
      { from: '2026-11-01T00:00:00.000Z', to: '2026-11-01T02:00:00.000Z', colour: 'red', label: 'Stop' },
      { from: '2026-11-02T00:00:00.000Z', to: '2026-11-02T00:00:00.000Z', colour: 'grey', label: 'Gap' },
    ]) as { series: { markArea?: { data: [{ xAxis: number; name: string }, { xAxis: number }][] } }[] };
    const areas = option.series[0]!.markArea!.data;
    expect(areas.map(([a, b]) => [a.name, b.xAxis - a.xAxis])).toEqual([
      ['Stop', 2 * 3_600_000],
      ['Gap', 60_000],
    ]);
    expect(
      (ratioTimeOption([], []) as { series: { markArea?: unknown }[] }).series[0]!.markArea,
    ).toBeUndefined();
    // On a period's axis a short event is drawn at least 1/400 of it wide: seen, not a hair.
    const month = { from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-21T00:00:00Z') };
    const onMonth = ratioTimeOption([], [], month, [
      { from: '2026-11-02T00:00:00.000Z', to: '2026-11-02T00:05:00.000Z', colour: 'red', label: 'Transient' },
    ]) as { series: { markArea?: { data: [{ xAxis: number }, { xAxis: number }][] } }[] };
    const [[a, b]] = onMonth.series[0]!.markArea!.data as [[{ xAxis: number }, { xAxis: number }]];
    expect(b.xAxis - a.xAxis).toBe(72 * 60_000);
  });

  it('colours the uptime cells by the rules: 24 rows a day in hourly mode', () => {
    const period = customPeriod('2024-03-01', '2024-03-02');
    const matrix = buildUptimeMatrix(
      [
        { timestamp: '2024-03-01T00:00:00.000Z', value: 100 },
        { timestamp: '2024-03-01T01:00:00.000Z', value: 80 },
        { timestamp: '2024-03-01T02:00:00.000Z', value: 120 },
      ],
      period,
      'hourly',
    );
    const option = uptimeHeatmapOption(matrix) as any;
    expect(option.yAxis.data).toHaveLength(24);
    expect(option.xAxis.data).toEqual(['2024.03.01', '2024.03.02']);
    const colourAt = (column: number, row: number) =>
      option.series[0].data.find((d: any) => d.value[0] === column && d.value[1] === row).itemStyle.color;
    expect([colourAt(0, 0), colourAt(0, 1), colourAt(0, 2), colourAt(0, 3)]).toEqual([
      UPTIME_COLOURS.full,
      UPTIME_COLOURS.below,
      UPTIME_COLOURS.above,
      UPTIME_COLOURS.noData,
    ]);
  });
});
