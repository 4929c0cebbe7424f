import type { EChartsCoreOption } from 'echarts/core';
import {
  AVAILABILITY_GAUGE,
  availabilityNeedle,
  chartWidthForShips,
  formatByFormat,
  MARPOL_GAUGE,
  marpolNeedle,
  NO_DATA,
  type Needle,
  RATIO_BAR_COLOURS,
  RATIO_GAUGE,
  RATIO_MARGIN_BANDS,
  ratioBarColour,
  ratioGaugeNeedle,
  ratioMarginBand,
  SFOC_GAUGE,
  sfocAxisTicks,
  sfocNeedle,
} from '@portal/contracts/rules';

/** Colours of the gauge bands, worst to best. */
export const BAND_COLOURS = {
  bad: '#e53935',
  warn: '#fbc02d',
  good: '#4caf50',
  neutral: '#90a4ae',
  info: '#1e88e5',
} as const;

export interface GaugeModel {
  min: number;
  max: number;
  /** Where the needle points (clamped by the rules); null: no value, no needle. */
  needle: Needle;
  /** The number as text under the needle ('No data' without a value). */
  text: string;
  /** Band names drawn on the dial ({ from, to, label } in axis values). */
  bandLabels?: { from: number; to: number; label: string }[];
  splitNumber: number;
  /** [up to this axis value, colour], ascending, the last at max. */
  bands: [number, string][];
  /** Axis labels from the axis value (the ratio gauge runs from 100 down to -30). */
  label?: (axisValue: number) => string;
}

/** A percent by the Percent format: truncated from 99.5 below 100, so it never reads 100.0 when it is not. */
const percentText = (v: number | null) => formatByFormat(v, 'Percent');

/** Marpol compliance: 80 to 100, stops 80/90/95/100, needle at least 80; the text is truncated from 99.5. */
export function marpolGauge(value: number | null): GaugeModel {
  const [, s90, s95, s100] = MARPOL_GAUGE.stops;
  return {
    min: MARPOL_GAUGE.min,
    max: MARPOL_GAUGE.max,
    needle: marpolNeedle(value),
    text: percentText(value),
    splitNumber: 4,
    bands: [
      [s90, BAND_COLOURS.bad],
      [s95, BAND_COLOURS.warn],
      [s100, BAND_COLOURS.good],
    ],
  };
}

/** Operational availability: 90 to 100, stops 90/96/98/100; needle floor 90 for a ship, 80 for the fleet. */
export function availabilityGauge(value: number | null, scope: 'ship' | 'fleet'): GaugeModel {
  const [, s96, s98, s100] = AVAILABILITY_GAUGE.stops;
  return {
    min: AVAILABILITY_GAUGE.min,
    max: AVAILABILITY_GAUGE.max,
    // The fleet needle's floor is 80, below the dial's start, as the rule says.
    needle: availabilityNeedle(value, scope),
    text: percentText(value),
    splitNumber: 5,
    bands: [
      [s96, BAND_COLOURS.bad],
      [s98, BAND_COLOURS.warn],
      [s100, BAND_COLOURS.good],
    ],
  };
}

/** SFOC impact: 0 to 4 % in 8 segments; the industry standard band 2.0-2.5 % is marked. */
export function sfocGauge(value: number | null): GaugeModel {
  const [low, high] = SFOC_GAUGE.industryBand;
  return {
    min: SFOC_GAUGE.min,
    max: SFOC_GAUGE.max,
    needle: sfocNeedle(value),
    text: percentText(value),
    splitNumber: SFOC_GAUGE.segments,
    bands: [
      [low, BAND_COLOURS.good],
      [high, BAND_COLOURS.info],
      [SFOC_GAUGE.max, BAND_COLOURS.warn],
    ],
  };
}

/**
 * SO2/CO2 ratio margin: from 100 (left) down to -30 (right), bands Over-scrubbing, Optimal, Risk, Under-scrubbing.
 * ECharts draws min to max left to right, so the axis is 100 - margin and its labels are turned back.
 */
export function ratioGauge(margin: number | null): GaugeModel {
  const span = RATIO_GAUGE.max - RATIO_GAUGE.min;
  const colour = (band: (typeof RATIO_MARGIN_BANDS)[number]) =>
    RATIO_BAR_COLOURS[ratioBarColour(band.to + 1e-9)];
  return {
    min: 0,
    max: span,
    needle: margin === null ? null : RATIO_GAUGE.max - ratioGaugeNeedle(margin)!,
    text: percentText(margin),
    splitNumber: 13,
    bands: RATIO_MARGIN_BANDS.map((band) => [RATIO_GAUGE.max - band.to, colour(band)] as [number, string]),
    bandLabels: RATIO_MARGIN_BANDS.map((band) => ({
      from: RATIO_GAUGE.max - band.from,
      to: RATIO_GAUGE.max - band.to,
      label: band.label,
    })),
    label: (axisValue) => {
      const margin = RATIO_GAUGE.max - axisValue;
      return (RATIO_GAUGE.stops as readonly number[]).includes(Math.round(margin))
        ? String(Math.round(margin))
        : '';
    },
  };
}

const START_ANGLE = 200;
const END_ANGLE = -20;

/**
 * Where a band's name sits: outside the ring at the middle of the band, as an offset from the dial's centre in % of
 * its radius; names beside the dial sit further out than those above it, as they are wider than tall.
 */
export function bandLabelPlace(
  middle: number,
  min: number,
  max: number,
): { offsetCenter: [string, string]; verticalAlign: 'middle' | 'bottom' } {
  const angle = ((START_ANGLE - ((middle - min) / (max - min)) * (START_ANGLE - END_ANGLE)) * Math.PI) / 180;
  const beside = Math.abs(Math.cos(angle)) > 0.5;
  const r = beside ? 148 : 114;
  return {
    offsetCenter: [`${Math.round(r * Math.cos(angle))}%`, `${Math.round(-r * Math.sin(angle))}%`],
    verticalAlign: beside ? 'middle' : 'bottom',
  };
}

export function gaugeOption(model: GaugeModel): EChartsCoreOption {
  const range = model.max - model.min;
  const hasNeedle = model.needle !== null;
  const named = Boolean(model.bandLabels?.length);
  const base = {
    type: 'gauge',
    min: model.min,
    max: model.max,
    // With band names around the dial, a smaller dial leaves them room outside it.
    radius: named ? '76%' : '95%',
    center: ['50%', named ? '64%' : '60%'],
    startAngle: START_ANGLE,
    endAngle: END_ANGLE,
  };
  const series: Record<string, unknown>[] = [
    {
      ...base,
      splitNumber: model.splitNumber,
      axisLine: {
        lineStyle: {
          width: 14,
          color: model.bands.map(([to, colour]) => [(to - model.min) / range, colour]),
        },
      },
      // No value, no needle: the card says No data instead.
      pointer: { show: hasNeedle, width: 5, length: '70%' },
      anchor: { show: false },
      axisTick: { distance: -14, length: 6 },
      splitLine: { distance: -14, length: 14 },
      axisLabel: {
        distance: 18,
        fontSize: 10,
        formatter: model.label ?? ((v: number) => String(Math.round(v * 10) / 10)),
      },
      // The value is printed by the card under the dial (GaugeCard), not twice.
      detail: { show: false },
      data: hasNeedle ? [{ value: model.needle }] : [],
    },
  ];
  if (model.bandLabels?.length) {
    // The band names: one more dial without ring, ticks or needle, whose data items are the names.
    series.push({
      ...base,
      axisLine: { show: false },
      axisTick: { show: false },
      splitLine: { show: false },
      axisLabel: { show: false },
      pointer: { show: false },
      anchor: { show: false },
      detail: { show: false },
      data: model.bandLabels.map((band) => ({
        value: model.min,
        // Two lines for the long names, so they fit beside the dial on a phone.
        name: band.label.replace('-', '-\n'),
        title: {
          ...bandLabelPlace((band.from + band.to) / 2, model.min, model.max),
          fontSize: 11,
          fontWeight: 600,
          lineHeight: 13,
          color: '#37474f',
        },
      })),
    });
  }
  return { animation: false, series };
}

export interface ShipBar {
  facilityId: string;
  name: string;
  value: number | null;
  /** Bar colour; default the primary colour. */
  colour?: string;
  /** More lines for the tooltip (already formatted text), e.g. the ratio and the limit behind a margin. */
  detail?: string[];
}

export interface ShipBarOptions {
  /** Caps a value for plotting (capFleetChartValue); the tooltip keeps the real value. */
  cap?: (value: number) => { plotted: number; actual: number };
  /** Axis ticks (SFOC: step 0.5). */
  axisStep?: number;
  min?: number;
  max?: number;
  unit: string;
  /** The field's format: the tooltip prints the value by it (formatByFormat). */
  format?: string;
  /** The value axis' name, e.g. 'Margin to the limit (%)'. */
  axisName?: string;
  /** Only these values are labelled on the value axis (ticks every axisStep), e.g. the gauge's stops. */
  labelsAt?: readonly number[];
  /** Horizontal line(s), e.g. a limit. */
  lines?: { value: number; label: string }[];
}

/** Per-ship bars: 40 px a ship; above 25 ships the chart is wider than its card and scrolls (chartWidthForShips). */
export function shipBarOption(
  bars: readonly ShipBar[],
  options: ShipBarOptions,
  compact = false,
): { option: EChartsCoreOption; widthPx: number; scroll: boolean } {
  const { widthPx, scroll } = chartWidthForShips(bars.length);
  const plotted = bars.map((bar) => {
    if (bar.value === null) return { value: null, actual: null, colour: bar.colour };
    const capped = options.cap ? options.cap(bar.value) : { plotted: bar.value, actual: bar.value };
    return { value: capped.plotted, actual: capped.actual, colour: bar.colour };
  });
  const max =
    options.max ??
    (options.axisStep ? sfocAxisTicks(Math.max(0, ...plotted.map((p) => p.value ?? 0))).at(-1) : undefined);
  return {
    widthPx,
    scroll,
    option: {
      animation: false,
      // Names turn on a narrow screen or with many ships, so they do not run into each other.
      grid: {
        left: options.axisName ? 56 : 40,
        right: 12,
        top: options.axisName ? 28 : 16,
        bottom: rotate(bars.length, compact) ? 64 : 28,
      },
      tooltip: {
        trigger: 'item',
        formatter: (p: { dataIndex: number }) => {
          const bar = bars[p.dataIndex]!;
          const actual = plotted[p.dataIndex]!.actual;
          const text =
            actual === null
              ? NO_DATA
              : options.format
                ? formatByFormat(actual, options.format)
                : `${round(actual)} ${options.unit}`;
          return [`${escapeHtml(bar.name)}: ${text}`, ...(bar.detail ?? []).map(escapeHtml)].join('<br/>');
        },
      },
      xAxis: {
        type: 'category',
        data: bars.map((b) => b.name),
        axisLabel: {
          interval: 0,
          rotate: rotate(bars.length, compact) ? 40 : 0,
          fontSize: 10,
          width: compact ? 70 : 90,
          overflow: 'truncate',
        },
      },
      yAxis: {
        type: 'value',
        min: options.min,
        max,
        interval: options.axisStep,
        ...(options.labelsAt
          ? {
              axisLabel: {
                formatter: (v: number) =>
                  options.labelsAt!.some((l) => Math.abs(l - v) < 1e-9) ? String(v) : '',
              },
              splitLine: { lineStyle: { opacity: 0.4 } },
            }
          : {}),
        ...(options.axisName
          ? { name: options.axisName, nameLocation: 'end', nameTextStyle: { align: 'left', fontSize: 11 } }
          : {}),
      },
      series: [
        {
          type: 'bar',
          barMaxWidth: 28,
          data: plotted.map((p) => ({
            value: p.value,
            itemStyle: p.colour ? { color: p.colour } : undefined,
          })),
          markLine: options.lines?.length
            ? {
                symbol: 'none',
                data: options.lines.map((l) => ({
                  yAxis: l.value,
                  label: { formatter: l.label, position: 'insideEndTop' },
                })),
                lineStyle: { type: 'dashed' },
              }
            : undefined,
        },
      ],
    },
  };
}

const rotate = (ships: number, compact: boolean) => ships > (compact ? 2 : 6);
const round = (v: number) => Math.round(v * 100) / 100;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The fleet SO2/CO2 chart: one measure with the gauge, each ship's margin to its limit (%), coloured by its band
 * (the spec's bar colours), drawn on the gauge's scale 100 to -30 (a deeper margin at -30, the tooltip keeps it);
 * the tooltip adds the band, the ship's average ratio and its average limit, each by its field's format.
 */
export function marginBars(
  margins: readonly { facilityId: string; name: string; value: number | null }[],
  ratios: ReadonlyMap<string, number | null>,
  limits: ReadonlyMap<string, number | null>,
): ShipBar[] {
  return margins.map((m) => ({
    ...m,
    colour: m.value === null ? RATIO_BAR_COLOURS.grey : RATIO_BAR_COLOURS[ratioBarColour(m.value)],
    detail: [
      ...(m.value === null ? [] : [ratioMarginBand(m.value)]),
      `Ratio: ${formatByFormat(ratios.get(m.facilityId), 'Ratio')}`,
      `Limit: ${formatByFormat(limits.get(m.facilityId), 'Ratio')}`,
    ],
  }));
}

export const MARGIN_AXIS_NAME = 'Margin to the limit (%)';

/** The compliance chart: hourly values averaged into 24, 12, 8, 6, 4 or 3 slots a day by the period's length. */
export function complianceSlotsOption(slots: readonly { from: Date; value: number }[]): EChartsCoreOption {
  return {
    animation: false,
    grid: { left: 32, right: 8, top: 8, bottom: 20 },
    tooltip: { trigger: 'axis' },
    xAxis: {
      type: 'category',
      data: slots.map((s) => s.from.toISOString().slice(0, 16).replace('T', ' ')),
      axisLabel: { show: false },
    },
    yAxis: { type: 'value', min: 0, max: 100, interval: 50 },
    series: [
      {
        type: 'bar',
        data: slots.map((s) => Math.round(s.value * 10) / 10),
        itemStyle: { color: BAND_COLOURS.info },
      },
    ],
  };
}
