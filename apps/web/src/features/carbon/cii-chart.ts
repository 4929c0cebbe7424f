import type { EChartsCoreOption } from 'echarts/core';
import type { CiiResult } from '@portal/contracts/carbon';
import { CII_RATINGS } from '@portal/contracts/rules/carbon';
import { gaugeOption } from '../../ui/kpi/options';
import { CII_RATING_COLOURS, formatCii, type CiiGaugeModel } from './display';

/** The needles' colours: to date dark, projected a lighter blue-grey (the legend under the gauge names them). */
export const NEEDLE_COLOURS = { attained: '#263238', projected: '#5c7cfa' } as const;

/** The CII gauge: the ui gauge with the rating letters around it, and a second, thinner needle for the projection. */
export function ciiGaugeOption(model: CiiGaugeModel): EChartsCoreOption {
  const option = gaugeOption({
    min: model.min,
    max: model.max,
    needle: model.needle,
    text: model.text,
    splitNumber: 10,
    bands: model.bands,
    bandLabels: model.bandLabels,
    // The boundaries are the numbers that matter; they are written under the gauge, not on a round scale.
    label: () => '',
  }) as { animation: boolean; series: Record<string, unknown>[] };
  const [main, ...rest] = option.series;
  const styled = { ...main, itemStyle: { color: NEEDLE_COLOURS.attained } };
  if (model.projectedNeedle === null) return { ...option, series: [styled, ...rest] };
  const projected = {
    ...main,
    splitNumber: undefined,
    axisLine: { show: false },
    axisTick: { show: false },
    splitLine: { show: false },
    axisLabel: { show: false },
    pointer: { show: true, width: 3, length: '82%' },
    itemStyle: { color: NEEDLE_COLOURS.projected },
    data: [{ value: model.projectedNeedle }],
  };
  return { ...option, series: [styled, ...rest, projected] };
}

/** An axis step of 1, 2 or 5 times a power of ten that cuts `range` into 4 to 10 parts. */
export function niceStep(range: number): number {
  if (!(range > 0)) return 1;
  const rough = range / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  const unit = rough / power;
  return (unit < 1.5 ? 1 : unit < 3.5 ? 2 : unit < 7.5 ? 5 : 10) * power;
}

/**
 * The trajectory 2026-2030: the rating bands of each year stacked (A at the bottom, E on top), the required line
 * dashed, and the attained value carried forward with the rating it would get each year.
 */
export function trajectoryOption(trajectory: CiiResult['trajectory']): EChartsCoreOption {
  const years = trajectory.map((t) => String(t.year));
  const values = trajectory.flatMap((t) => [...t.boundaries, t.attained ?? t.required]);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = Math.max(high - low, 1e-6);
  // Round ends on a step of the axis, with room below the A band and above the highest value for its letter.
  const step = niceStep((high - low) * 1.6);
  const yMin = Math.max(0, Math.floor((low - span * 0.3) / step) * step);
  const yMax = Math.ceil((high + span * 0.2) / step) * step;
  const layer = (index: number) =>
    trajectory.map((t) => {
      const edges = [yMin, ...t.boundaries, yMax];
      return edges[index + 1]! - edges[index]!;
    });
  const bands = CII_RATINGS.map((rating, i) => ({
    name: `Rating ${rating}`,
    type: 'line',
    stack: 'bands',
    symbol: 'none',
    silent: true,
    lineStyle: { width: 0 },
    areaStyle: { color: CII_RATING_COLOURS[rating], opacity: 0.35 },
    // The bottom band is A's boundary itself (filled down to the axis' start); the others stack on it.
    data: i === 0 ? trajectory.map((t) => t.boundaries[0]) : layer(i),
    tooltip: { show: false },
  }));
  return {
    animation: false,
    grid: { left: 48, right: 16, top: 32, bottom: 28 },
    tooltip: {
      trigger: 'axis',
      formatter: (items: { dataIndex: number }[]) => {
        const t = trajectory[items[0]?.dataIndex ?? 0];
        if (!t) return '';
        return [
          `${t.year} (Z ${t.z} %)`,
          `Required: ${formatCii(t.required)}`,
          `Attained, if it stays: ${formatCii(t.attained)}${t.rating ? ` (${t.rating})` : ''}`,
        ].join('<br/>');
      },
    },
    xAxis: { type: 'category', data: years, boundaryGap: false },
    yAxis: {
      type: 'value',
      min: Number(yMin.toFixed(6)),
      max: Number(yMax.toFixed(6)),
      interval: step,
      name: 'g CO2 per capacity-nm',
      nameTextStyle: { align: 'left', fontSize: 11 },
      axisLabel: { formatter: (v: number) => String(Number(v.toFixed(2))) },
    },
    series: [
      ...bands,
      {
        name: 'Required',
        type: 'line',
        data: trajectory.map((t) => t.required),
        symbol: 'none',
        lineStyle: { type: 'dashed', width: 2, color: '#37474f' },
        z: 3,
      },
      {
        name: 'Attained',
        type: 'line',
        data: trajectory.map((t) => t.attained),
        symbol: 'circle',
        symbolSize: 8,
        lineStyle: { width: 3, color: NEEDLE_COLOURS.attained },
        itemStyle: { color: NEEDLE_COLOURS.attained },
        label: {
          show: true,
          position: 'top',
          fontWeight: 700,
          formatter: (p: { dataIndex: number }) => trajectory[p.dataIndex]?.rating ?? '',
        },
        z: 4,
      },
    ],
  };
}
