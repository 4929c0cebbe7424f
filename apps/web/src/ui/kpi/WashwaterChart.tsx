import '../charts/echarts-ship';
import { useMemo } from 'react';
import { EChart } from '../charts/EChart';
import type { ChartBand } from './ship-options';
import {
  WASHWATER_CHART_HEIGHT,
  washwaterChartOption,
  type WashwaterPanelKey,
  type WashwaterSeries,
} from './washwater-options';

/** The ship's washwater criteria over the period against their limits, its washwater events as bands. */
export default function WashwaterChart({
  series,
  period,
  bands,
}: {
  series: WashwaterSeries;
  period: { from: Date; to: Date };
  bands?: readonly (ChartBand & { panels: readonly WashwaterPanelKey[] })[];
}) {
  const from = period.from.getTime();
  const to = period.to.getTime();
  const option = useMemo(
    () => washwaterChartOption(series, { from: new Date(from), to: new Date(to) }, bands),
    [series, from, to, bands],
  );
  return (
    <EChart
      option={option}
      height={WASHWATER_CHART_HEIGHT}
      data-testid="washwater-chart"
      ariaLabel="Washwater pH, PAH above inlet and turbidity above inlet over time, against their limits"
    />
  );
}
