import '../charts/echarts-ship';
import { useMemo } from 'react';
import { Box, useMediaQuery, useTheme } from '@mui/material';
import type { UptimeMatrix } from '@portal/contracts/rules';
import { EChart } from '../charts/EChart';
import { uptimeHeatmapOption } from './ship-options';
import { UptimeMatrixTable } from './UptimeMatrixTable';

/**
 * The uptime matrix: 24 hourly rows (a column per day) or 31 daily rows (a column per month). Every column of the
 * period fits the width, on a phone too (narrower cells, fewer axis labels): nothing hides behind a sideways scroll.
 */
export default function UptimeMatrixChart({ matrix }: { matrix: UptimeMatrix }) {
  const compact = useMediaQuery(useTheme().breakpoints.down('sm'));
  const option = useMemo(() => uptimeHeatmapOption(matrix, { compact }), [matrix, compact]);
  const height = matrix.rowLabels.length * 14 + 80;
  return (
    <Box sx={{ width: '100%' }}>
      <EChart
        option={option}
        height={height}
        data-testid="uptime-heatmap"
        ariaLabel={`Operational availability matrix, ${matrix.mode}`}
      />
      <UptimeMatrixTable matrix={matrix} />
    </Box>
  );
}
