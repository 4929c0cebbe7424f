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
});
