import type { EChartsCoreOption } from 'echarts/core';
import {
  capShipChartValue,
  formatByFormat,
  formatDate,
  formatDateTime,
  SHIP_RATIO_CHART_CAP,
  uptimeCellColour,
  type UptimeMatrix,
} from '@portal/contracts/rules';

export interface RatioPoint {
  timestamp: string;
  value: number | null;
}

/** A span drawn behind a time chart's lines (an event: an exceedance, a scrubber stop, a data gap). */
export interface ChartBand {
  from: string;
  to: string;
  /** A see-through fill. */
  colour: string;
  label: string;
}

/** How much of a time axis a band covers at least: a 5-minute transient stays visible on a month's chart. */
export const BAND_MIN_SHARE = 1 / 400;

/**
 * Spans as an ECharts markArea (on a series of a time axis), each at least `minWidthMs` wide (an instant or a
 * short event would be thinner than a pixel); their label shows on hover only.
 */
export function bandMarkArea(bands: readonly ChartBand[], minWidthMs = 60_000) {
  return {
    silent: false,
    label: { show: false },
    emphasis: { label: { show: true, position: 'insideTop', fontSize: 11, color: '#333' } },
    data: bands.map((b) => [
      { name: b.label, xAxis: Date.parse(b.from), itemStyle: { color: b.colour } },
      { xAxis: Math.max(Date.parse(b.to), Date.parse(b.from) + minWidthMs) },
    ]),
  };
}

/**
 * The ship's SO2/CO2 ratio over time, capped at 25 (the tooltip note shows the real value), with its limit
 * (4.3 in an ECA, 21.7 outside) as a stepped line. The time axis spans the chosen period (when given), so a gap at
 * its start or end shows as a gap, not as a stretched chart.
 */
export function ratioTimeOption(
  values: readonly RatioPoint[],
  limits: readonly RatioPoint[],
  period?: { from: Date | string; to: Date | string },
  bands: readonly ChartBand[] = [],
): EChartsCoreOption {
  const ratio = values.map((p) => {
    if (p.value === null) return { t: p.timestamp, plotted: null, actual: null, capped: false };
    const c = capShipChartValue(p.value);
    return { t: p.timestamp, plotted: c.plotted, actual: c.actual, capped: c.capped };
  });
  return {
    animation: false,
    grid: { left: 40, right: 16, top: 24, bottom: 40 },
    tooltip: {
      trigger: 'axis',
      formatter: (params: { dataIndex: number; seriesIndex: number }[]) => {
        const i = params[0]?.dataIndex ?? 0;
        const point = ratio[i];
        if (!point) return '';
        const limit = limits.find((l) => l.timestamp === point.t)?.value;
        // Both by the Ratio format: an hourly average limit is 21.700000000000024, never shown as such.
        const actual = formatByFormat(point.actual, 'Ratio');
        return `${formatDateTime(point.t)} UTC<br/>Ratio: ${actual}${point.capped ? ` (shown at ${SHIP_RATIO_CHART_CAP})` : ''}${limit != null ? `<br/>Limit: ${formatByFormat(limit, 'Ratio')}` : ''}`;
      },
    },
    xAxis: period
      ? { type: 'time', min: new Date(period.from).getTime(), max: new Date(period.to).getTime() }
      : { type: 'time' },
    yAxis: { type: 'value', min: 0, max: SHIP_RATIO_CHART_CAP },
    series: [
      {
        name: 'SO2/CO2 ratio',
        type: 'line',
        showSymbol: false,
        connectNulls: false,
        data: ratio.map((p) => [p.t, p.plotted]),
        ...(bands.length
          ? {
              markArea: bandMarkArea(
                bands,
                period
                  ? (new Date(period.to).getTime() - new Date(period.from).getTime()) * BAND_MIN_SHARE
                  : undefined,
              ),
            }
          : {}),
      },
      {
        name: 'Limit',
        type: 'line',
        step: 'end',
        showSymbol: false,
        lineStyle: { type: 'dashed', color: '#e53935' },
        itemStyle: { color: '#e53935' },
        data: limits.map((p) => [p.timestamp, p.value]),
      },
    ],
  };
}

/** The uptime matrix as a heatmap: a column per day (hourly mode) or month (daily), a row per hour or day of month. */
export function uptimeHeatmapOption(
  matrix: UptimeMatrix,
  { compact = false }: { compact?: boolean } = {},
): EChartsCoreOption {
  const data: { value: [number, number, number]; itemStyle: { color: string; borderColor: string } }[] = [];
  matrix.cells.forEach((row, r) =>
    row.forEach((cell, c) => {
      // ECharts skips heatmap cells without a number: NO_DATA and INVALID_DATE are drawn as -1 in their own colour.
      data.push({
        value: [c, r, typeof cell === 'number' ? Math.round(cell * 10) / 10 : -1],
        itemStyle: { color: uptimeCellColour(cell), borderColor: '#e0e0e0' },
      });
    }),
  );
  return {
    animation: false,
    // A phone fits every column in its width: a narrower margin, and the axis labels ECharts has room for.
    grid: compact ? { left: 26, right: 4, top: 8, bottom: 48 } : { left: 40, right: 8, top: 8, bottom: 56 },
    tooltip: {
      formatter: (p: { value: [number, number, number] }) => {
        const [c, r] = p.value;
        const v = matrix.cells[r]?.[c];
        const column = matrix.columns[c];
        const when =
          matrix.mode === 'hourly'
            ? `${column ? formatDate(column.start) : ''} ${matrix.rowLabels[r]}:00 UTC`
            : `${column?.label}.${matrix.rowLabels[r]?.padStart(2, '0')}`;
        const text =
          v === 'NO_DATA'
            ? 'No data'
            : v === 'INVALID_DATE' || v === undefined
              ? ''
              : formatByFormat(v, 'Percent');
        return `${when}<br/>${text}`;
      },
    },
    xAxis: {
      type: 'category',
      data: matrix.columns.map((c) => c.label),
      splitArea: { show: false },
      axisLabel: compact ? { rotate: 90, fontSize: 9, hideOverlap: true } : { rotate: 60, fontSize: 9 },
    },
    yAxis: { type: 'category', data: matrix.rowLabels, inverse: true, axisLabel: { fontSize: 9 } },
    series: [{ type: 'heatmap', data, progressive: 0 }],
  };
}
