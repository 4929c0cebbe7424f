import type { EChartsCoreOption } from 'echarts/core';
import { formatByFormat, formatDateTime, NO_DATA } from '@portal/contracts/rules';
import { bandMarkArea, BAND_MIN_SHARE, type ChartBand, type RatioPoint } from './ship-options';

/** The three washwater criteria of the chart, top to bottom (DOMAIN.md "Washwater discharge"). */
export type WashwaterPanelKey = 'ph' | 'pah' | 'turbidity';

export const WASHWATER_PANELS: readonly {
  key: WashwaterPanelKey;
  name: string;
  unit: string;
  colour: string;
  /** pH must stay at or above its limit; PAH and turbidity above the inlet at or below theirs. */
  limitIs: 'minimum' | 'maximum';
}[] = [
  { key: 'ph', name: 'pH', unit: 'pH', colour: '#0b4f8a', limitIs: 'minimum' },
  { key: 'pah', name: 'PAH above inlet', unit: 'µg/L', colour: '#6a1b9a', limitIs: 'maximum' },
  { key: 'turbidity', name: 'Turbidity above inlet', unit: 'NTU', colour: '#00796b', limitIs: 'maximum' },
];

export const WASHWATER_LIMIT_COLOUR = '#e53935';

/** The hourly values and limits of each criterion (the report's PhValues/PhLimit, PahValues/…, TurbidityValues/…). */
export type WashwaterSeries = Record<WashwaterPanelKey, { values: RatioPoint[]; limits: RatioPoint[] }>;

/** A criterion's value as shown: 2 decimals with its unit (pH has none of its own), or No data. */
export function criterionText(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return NO_DATA;
  const text = formatByFormat(value, 'Number');
  return unit === 'pH' ? text : `${text} ${unit}`;
}

/** Whether the period has any washwater value to draw (hours with discharge). */
export const hasWashwaterValues = (series: WashwaterSeries) =>
  WASHWATER_PANELS.some((p) => series[p.key].values.some((v) => v.value !== null));

const PANEL_HEIGHT = 92;
const PANEL_GAP = 40;
const TOP = 28;
/** The chart's height: three panels one above the other, the time axis under the last. */
export const WASHWATER_CHART_HEIGHT = TOP + 3 * PANEL_HEIGHT + 2 * PANEL_GAP + 36;

/**
 * The ship's washwater chart: pH, PAH above inlet and turbidity above inlet, each in a panel of its own (their units
 * differ) with its limit as a dashed stepped line and its events as bands; one time axis spanning the period (a gap
 * without discharge shows as a gap). The tooltip gives all three and their limits at the hour pointed at.
 */
export function washwaterChartOption(
  series: WashwaterSeries,
  period: { from: Date | string; to: Date | string },
  bands: readonly (ChartBand & { panels: readonly WashwaterPanelKey[] })[] = [],
): EChartsCoreOption {
  const from = new Date(period.from).getTime();
  const to = new Date(period.to).getTime();
  const at = new Map<
    WashwaterPanelKey,
    { values: Map<number, number | null>; limits: Map<number, number | null> }
  >(
    WASHWATER_PANELS.map((p) => [
      p.key,
      {
        values: new Map(series[p.key].values.map((v) => [Date.parse(v.timestamp), v.value])),
        limits: new Map(series[p.key].limits.map((v) => [Date.parse(v.timestamp), v.value])),
      },
    ]),
  );
  return {
    animation: false,
    axisPointer: { link: [{ xAxisIndex: 'all' }] },
    tooltip: {
      trigger: 'axis',
      formatter: (params: { axisValue: number | string }[]) => {
        const t = Number(params[0]?.axisValue);
        if (!Number.isFinite(t)) return '';
        return [
          `${formatDateTime(t)} UTC`,
          ...WASHWATER_PANELS.map((p) => {
            const value = at.get(p.key)!.values.get(t);
            const limit = at.get(p.key)!.limits.get(t);
            return `${p.name}: ${criterionText(value, p.unit)}${limit != null ? ` (limit ${criterionText(limit, p.unit)})` : ''}`;
          }),
        ].join('<br/>');
      },
    },
    grid: WASHWATER_PANELS.map((_, i) => ({
      left: 52,
      right: 16,
      top: TOP + i * (PANEL_HEIGHT + PANEL_GAP),
      height: PANEL_HEIGHT,
    })),
    xAxis: WASHWATER_PANELS.map((_, i) => ({
      type: 'time',
      gridIndex: i,
      min: from,
      max: to,
      axisLabel: { show: i === WASHWATER_PANELS.length - 1, hideOverlap: true },
    })),
    yAxis: WASHWATER_PANELS.map((p, i) => ({
      type: 'value',
      gridIndex: i,
      name: p.key === 'ph' ? 'pH' : `${p.name} (${p.unit})`,
      nameTextStyle: { align: 'left', fontSize: 11 },
      splitNumber: 3,
      // pH lives between about 5 and 9: no axis from 0.
      ...(p.key === 'ph' ? { scale: true } : { min: 0 }),
    })),
    series: WASHWATER_PANELS.flatMap((p, i) => {
      const panelBands = bands.filter((b) => b.panels.includes(p.key));
      return [
        {
          name: p.name,
          type: 'line',
          xAxisIndex: i,
          yAxisIndex: i,
          showSymbol: false,
          connectNulls: false,
          itemStyle: { color: p.colour },
          data: series[p.key].values.map((v) => [v.timestamp, v.value]),
          ...(panelBands.length ? { markArea: bandMarkArea(panelBands, (to - from) * BAND_MIN_SHARE) } : {}),
        },
        {
          name: `${p.name} limit`,
          type: 'line',
          step: 'end',
          xAxisIndex: i,
          yAxisIndex: i,
          showSymbol: false,
          connectNulls: false,
          lineStyle: { type: 'dashed', color: WASHWATER_LIMIT_COLOUR },
          itemStyle: { color: WASHWATER_LIMIT_COLOUR },
          data: series[p.key].limits.map((v) => [v.timestamp, v.value]),
        },
      ];
    }),
  };
}
