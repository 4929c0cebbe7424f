import type { EChartsCoreOption } from 'echarts/core';
import type { ComplianceEvent, EventInputField, EventInputs } from '@portal/contracts/events';
import {
  capShipChartValue,
  formatByFormat,
  formatDateTime,
  SHIP_RATIO_CHART_CAP,
} from '@portal/contracts/rules';
import { bandMarkArea, type ChartBand } from '../../ui/kpi/ship-options';
import { BAND_COLOURS, eventBands } from './display';

export const INPUT_COLOURS = {
  ratio: '#0b4f8a',
  limit: '#e53935',
  running: '#2e7d32',
  required: '#616161',
} as const;

type Point = [number, number | null];

/** A field's values as [time, value] pairs; none when the ship has no such field. */
export function inputPoints(inputs: EventInputs, field: EventInputField): Point[] {
  const series = inputs.series.find((s) => s.field === field);
  return series ? series.timestamps.map((t, i): Point => [t, series.values[i] ?? null]) : [];
}

/** The event itself as a band on its chart, in its type's colour. */
export function eventBand(
  event: Pick<ComplianceEvent, 'type' | 'start' | 'end' | 'durationMinutes'>,
): ChartBand[] {
  return eventBands([event]).map((b) => ({ ...b, colour: BAND_COLOURS[b.kind] }));
}

const yesNo = (v: number | null | undefined) =>
  v === null || v === undefined ? 'No data' : v ? 'Yes' : 'No';

/**
 * The chart of an event's inputs: the SO2/CO2 ratio (capped at 25 as on the ship dashboard) and its limit on the
 * left axis, scrubber running (a filled step) and required (a dashed step) on the right, 6 h before to 6 h after,
 * with the event as a band.
 */
export function eventInputsOption(
  inputs: EventInputs,
  event: Pick<ComplianceEvent, 'type' | 'start' | 'end' | 'durationMinutes'>,
): EChartsCoreOption {
  const ratio = inputInfo(inputPoints(inputs, 'SO2_CO2_RATIO'));
  const limit = inputPoints(inputs, 'SO2_CO2_LIMIT');
  const running = inputPoints(inputs, 'SCRUBBER_RUNNING');
  const required = inputPoints(inputs, 'SCRUBBER_REQUIRED');
  const at = (points: Point[], t: number) => points.find((p) => p[0] === t)?.[1];
  return {
    animation: false,
    grid: { left: 40, right: 44, top: 24, bottom: 40 },
    tooltip: {
      trigger: 'axis',
      formatter: (params: { value: Point }[]) => {
        const t = params[0]?.value[0];
        if (t === undefined) return '';
        const actual = ratio.actual.get(t);
        return [
          `${formatDateTime(t)} UTC`,
          `SO2/CO2 ratio: ${formatByFormat(actual ?? null, 'Ratio')}${actual !== undefined && actual !== null && actual > SHIP_RATIO_CHART_CAP ? ` (shown at ${SHIP_RATIO_CHART_CAP})` : ''}`,
          `Limit: ${formatByFormat(at(limit, t) ?? null, 'Ratio')}`,
          `Scrubber running: ${yesNo(at(running, t))}`,
          `Scrubber required: ${yesNo(at(required, t))}`,
        ].join('<br/>');
      },
    },
    xAxis: { type: 'time', min: Date.parse(inputs.from), max: Date.parse(inputs.to) },
    yAxis: [
      { type: 'value', min: 0, max: SHIP_RATIO_CHART_CAP, name: 'SO2/CO2', nameTextStyle: { align: 'left' } },
      {
        type: 'value',
        min: 0,
        max: 1,
        interval: 1,
        position: 'right',
        splitLine: { show: false },
        axisLabel: { formatter: (v: number) => (v ? 'On' : 'Off') },
      },
    ],
    series: [
      {
        name: 'SO2/CO2 ratio',
        type: 'line',
        showSymbol: false,
        connectNulls: false,
        itemStyle: { color: INPUT_COLOURS.ratio },
        data: ratio.plotted,
        markArea: bandMarkArea(eventBand(event)),
      },
      {
        name: 'Limit',
        type: 'line',
        step: 'end',
        showSymbol: false,
        lineStyle: { type: 'dashed', color: INPUT_COLOURS.limit },
        itemStyle: { color: INPUT_COLOURS.limit },
        data: limit,
      },
      {
        name: 'Scrubber running',
        type: 'line',
        step: 'end',
        yAxisIndex: 1,
        showSymbol: false,
        lineStyle: { width: 1, color: INPUT_COLOURS.running },
        itemStyle: { color: INPUT_COLOURS.running },
        areaStyle: { color: 'rgba(46, 125, 50, 0.12)' },
        data: running,
      },
      {
        name: 'Scrubber required',
        type: 'line',
        step: 'end',
        yAxisIndex: 1,
        showSymbol: false,
        lineStyle: { width: 1, type: 'dotted', color: INPUT_COLOURS.required },
        itemStyle: { color: INPUT_COLOURS.required },
        data: required,
      },
    ],
  };
}

/** The ratio drawn capped, the real values kept for the tooltip. */
function inputInfo(points: Point[]) {
  const actual = new Map<number, number | null>();
  const plotted = points.map(([t, v]): Point => {
    actual.set(t, v);
    return [t, v === null ? null : capShipChartValue(v).plotted];
  });
  return { plotted, actual };
}
