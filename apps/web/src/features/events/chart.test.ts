import { describe, expect, it } from 'vitest';
import type { EventInputs } from '@portal/contracts/events';
import { eventInputsOption, inputPoints } from './chart';

const HOUR = 3_600_000;
const start = Date.UTC(2026, 10, 1, 12);
const inputs: EventInputs = {
  from: new Date(start - 6 * HOUR).toISOString(),
  to: new Date(start + 8 * HOUR).toISOString(),
  series: [
    { field: 'SO2_CO2_RATIO', timestamps: [start - HOUR, start], values: [3, 80] },
    { field: 'SCRUBBER_RUNNING', timestamps: [start - HOUR, start], values: [1, 0] },
  ],
};
const event = {
  type: 'scrubber-off' as const,
  channel: null,
  fault: null,
  start: new Date(start).toISOString(),
  end: new Date(start + 2 * HOUR).toISOString(),
  durationMinutes: 120,
};

describe('the chart of an event', () => {
  it('spans 6 h before to 6 h after the event and marks the event', () => {
    const option = eventInputsOption(inputs, event) as {
      xAxis: { min: number; max: number };
      series: {
        name: string;
        data: unknown[];
        markArea?: { data: [{ xAxis: number }, { xAxis: number }][] };
      }[];
    };
    expect([option.xAxis.min, option.xAxis.max]).toEqual([start - 6 * HOUR, start + 8 * HOUR]);
    expect(option.series[0]!.markArea!.data.map(([a, b]) => [a.xAxis, b.xAxis])).toEqual([
      [start, start + 2 * HOUR],
    ]);
  });

  it('draws the ratio capped at 25 and leaves out the fields the ship lacks', () => {
    const option = eventInputsOption(inputs, event) as { series: { name: string; data: unknown[] }[] };
    expect(option.series.find((s) => s.name === 'SO2/CO2 ratio')!.data).toEqual([
      [start - HOUR, 3],
      [start, 25],
    ]);
    expect(inputPoints(inputs, 'SCRUBBER_REQUIRED')).toEqual([]);
  });

  it('tells the real ratio and the scrubber state in the tooltip', () => {
    const option = eventInputsOption(inputs, event) as {
      tooltip: { formatter(p: { value: [number, number | null] }[]): string };
    };
    expect(option.tooltip.formatter([{ value: [start, 25] }])).toBe(
      '2026.11.01 12:00 UTC<br/>SO2/CO2 ratio: 80.00 (shown at 25)<br/>Limit: No data<br/>Scrubber running: No<br/>Scrubber required: No data',
    );
  });

  it('draws a washwater pH event as the discharge pH against its minimum, in pH, not the ratio', () => {
    const ph = { ...event, type: 'washwater-exceedance' as const, channel: 'WASHWATER_PH' };
    const washwater: EventInputs = {
      ...inputs,
      series: [
        { field: 'WASHWATER_PH_DISCHARGING', timestamps: [start - HOUR, start], values: [7.1, 5.87] },
        { field: 'WASHWATER_PH_LIMIT', timestamps: [start - HOUR, start], values: [6.5, 6.5] },
        { field: 'SCRUBBER_RUNNING', timestamps: [start - HOUR, start], values: [1, 1] },
      ],
    };
    const option = eventInputsOption(washwater, ph) as {
      yAxis: { name?: string; max?: number }[];
      series: { name: string; data: unknown[] }[];
      tooltip: { formatter(p: { value: [number, number | null] }[]): string };
    };
    expect(option.yAxis[0]).toMatchObject({ name: 'pH' });
    expect(option.yAxis[0]!.max).toBeUndefined();
    expect(option.series.map((s) => s.name)).toEqual([
      'Discharge pH',
      'Minimum',
      'Scrubber running',
      'Scrubber required',
    ]);
    expect(option.series[0]!.data).toEqual([
      [start - HOUR, 7.1],
      [start, 5.87],
    ]);
    expect(option.tooltip.formatter([{ value: [start, 5.87] }])).toBe(
      '2026.11.01 12:00 UTC<br/>Discharge pH: 5.87<br/>Minimum: 6.50<br/>Scrubber running: Yes<br/>Scrubber required: No data',
    );
  });

  it('writes a PAH event in µg/L above the inlet against its limit', () => {
    const pah = { ...event, type: 'washwater-exceedance' as const, channel: 'WASHWATER_PAH' };
    const washwater: EventInputs = {
      ...inputs,
      series: [
        { field: 'WASHWATER_PAH_ABOVE_INLET', timestamps: [start], values: [123.45] },
        { field: 'WASHWATER_PAH_LIMIT', timestamps: [start], values: [50] },
      ],
    };
    const option = eventInputsOption(washwater, pah) as {
      tooltip: { formatter(p: { value: [number, number | null] }[]): string };
    };
    expect(option.tooltip.formatter([{ value: [start, 123.45] }])).toContain(
      'PAH above inlet: 123.5 µg/L<br/>Limit: 50.0 µg/L',
    );
  });
});
