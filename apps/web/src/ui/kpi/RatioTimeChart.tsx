import '../charts/echarts-ship';
import { useMemo } from 'react';
import { EChart } from '../charts/EChart';
import { ratioTimeOption, type RatioPoint } from './ship-options';

/** The ship's SO2/CO2 ratio over the period (capped at 25) with its limit line. */
export default function RatioTimeChart({ values, limits }: { values: RatioPoint[]; limits: RatioPoint[] }) {
  const option = useMemo(() => ratioTimeOption(values, limits), [values, limits]);
  return <EChart option={option} height={260} data-testid="ratio-time-chart" ariaLabel="SO2/CO2 ratio over time" />;
}
