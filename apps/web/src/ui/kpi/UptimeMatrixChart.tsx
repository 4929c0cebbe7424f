import '../charts/echarts-ship';
import { useMemo } from 'react';
import type { UptimeMatrix } from '@portal/contracts/rules';
import { EChart } from '../charts/EChart';
import { uptimeHeatmapOption } from './ship-options';

/** The uptime matrix: 24 hourly rows (a column per day) or 31 daily rows (a column per month). */
export default function UptimeMatrixChart({ matrix }: { matrix: UptimeMatrix }) {
  const option = useMemo(() => uptimeHeatmapOption(matrix), [matrix]);
  const height = matrix.rowLabels.length * 14 + 80;
  return <EChart option={option} height={height} data-testid="uptime-heatmap" ariaLabel={`Operational availability matrix, ${matrix.mode}`} />;
}
