import type { EChartsCoreOption } from 'echarts/core';
import type { ComplianceEvent, EventInputs } from '@portal/contracts/events';
import { eventChart, formatDateTime, NO_DATA, type EventChart } from '@portal/contracts/rules';
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
export function inputPoints(inputs: EventInputs, field: string): Point[] {
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

type ChartedEvent = Pick<ComplianceEvent, 'type' | 'channel' | 'fault' | 'start' | 'end' | 'durationMinutes'>;

/**
 * The chart of an event's inputs (eventChart: by its type and criterion): the value it is derived from and its limit
 * on the left axis (the SO2/CO2 ratio capped at 25 as on the ship dashboard; a washwater criterion's value in its
 * unit, its limit a minimum or a maximum), scrubber running (a filled step) and required (a dashed step) on the
 * right, 6 h before to 6 h after, with the event as a band.
 */
export function eventInputsOption(inputs: EventInputs, event: ChartedEvent): EChartsCoreOption {
  const chart = eventChart(event);
  const value = inputInfo(inputPoints(inputs, chart.value.field), chart.value.cap);
  const limit = inputPoints(inputs, chart.limit.field);
  const [running, required] = chart.state.map((s) => inputPoints(inputs, s.field));
  const at = (points: Point[] | undefined, t: number) => points?.find((p) => p[0] === t)?.[1];
  // The ratio and pH are written without a unit after the number, as eventValueText writes them.
  const unit = chart.value.axis === 'SO2/CO2' || chart.value.axis === 'pH' ? '' : ` ${chart.value.axis}`;
  const withUnit = (v: number | null | undefined) =>
    v === null || v === undefined ? NO_DATA : `${v.toFixed(chart.value.decimals)}${unit}`;
  return {
    animation: false,
    grid: { left: 44, right: 44, top: 24, bottom: 40 },
    tooltip: {
      trigger: 'axis',
      formatter: (params: { value: Point }[]) => {
        const t = params[0]?.value[0];
        if (t === undefined) return '';
        const actual = value.actual.get(t);
        const cap = chart.value.cap;
        return [
          `${formatDateTime(t)} UTC`,
          `${chart.value.label}: ${withUnit(actual)}${cap !== null && actual !== undefined && actual !== null && actual > cap ? ` (shown at ${cap})` : ''}`,
          `${chart.limit.label}: ${withUnit(at(limit, t))}`,
          ...chart.state.map((s, i) => `${s.label}: ${yesNo(at([running, required][i], t))}`),
        ].join('<br/>');
      },
    },
    xAxis: { type: 'time', min: Date.parse(inputs.from), max: Date.parse(inputs.to) },
    yAxis: [
      chart.value.cap !== null
        ? {
            type: 'value',
            min: 0,
            max: chart.value.cap,
            name: chart.value.axis,
            nameTextStyle: { align: 'left' },
          }
        : { type: 'value', scale: true, name: chart.value.axis, nameTextStyle: { align: 'left' } },
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
        name: chart.value.label,
        type: 'line',
        showSymbol: false,
        connectNulls: false,
        itemStyle: { color: INPUT_COLOURS.ratio },
        data: value.plotted,
        markArea: bandMarkArea(eventBand(event)),
      },
      {
        name: chart.limit.label,
        type: 'line',
        step: 'end',
        showSymbol: false,
        lineStyle: { type: 'dashed', color: INPUT_COLOURS.limit },
        itemStyle: { color: INPUT_COLOURS.limit },
        data: limit,
      },
      {
        name: chart.state[0]!.label,
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
        name: chart.state[1]!.label,
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

/** The legend of an event's chart: what each colour draws. */
export function eventChartLegend(chart: EventChart) {
  return [
    { colour: INPUT_COLOURS.ratio, label: chart.value.label, dashed: false },
    { colour: INPUT_COLOURS.limit, label: chart.limit.label, dashed: true },
    { colour: INPUT_COLOURS.running, label: `${chart.state[0]!.label} (right axis)`, dashed: false },
    { colour: INPUT_COLOURS.required, label: `${chart.state[1]!.label} (right axis)`, dashed: true },
  ];
}

/** The value drawn capped (the ratio; null: as it is), the real values kept for the tooltip. */
function inputInfo(points: Point[], cap: number | null) {
  const actual = new Map<number, number | null>();
  const plotted = points.map(([t, v]): Point => {
    actual.set(t, v);
    return [t, v === null || cap === null ? v : Math.min(v, cap)];
  });
  return { plotted, actual };
}
