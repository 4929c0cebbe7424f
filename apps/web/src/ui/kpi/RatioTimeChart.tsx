import '../charts/echarts-ship';
import { useMemo } from 'react';
import { EChart } from '../charts/EChart';
import { ratioTimeOption, type ChartBand, type RatioPoint } from './ship-options';

/**
 * The ship's SO2/CO2 ratio over the period (capped at 25) with its limit line, and its events as bands behind them;
 * the time axis spans the period when given.
 */
export default function RatioTimeChart({
  values,
  limits,
  period,
  bands,
}: {
  values: RatioPoint[];
  limits: RatioPoint[];
  period?: { from: Date; to: Date };
  bands?: readonly ChartBand[];
}) {
  const from = period?.from.getTime();
  const to = period?.to.getTime();
  const option = useMemo(
    () =>
      ratioTimeOption(
        values,
        limits,
        from !== undefined && to !== undefined ? { from: new Date(from), to: new Date(to) } : undefined,
        bands,
      ),
    [values, limits, from, to, bands],
  );
  return (
    <EChart option={option} height={260} data-testid="ratio-time-chart" ariaLabel="SO2/CO2 ratio over time" />
  );
}
