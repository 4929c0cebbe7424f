import '../charts/echarts-ship';
import { useMemo } from 'react';
import { Box, useMediaQuery, useTheme } from '@mui/material';
import type { UptimeMatrix } from '@portal/contracts/rules';
import { EChart } from '../charts/EChart';
import { uptimeHeatmapOption } from './ship-options';
import { UptimeMatrixTable } from './UptimeMatrixTable';

/** The uptime matrix: 24 hourly rows (a column per day) or 31 daily rows (a column per month). */
export default function UptimeMatrixChart({ matrix }: { matrix: UptimeMatrix }) {
  const option = useMemo(() => uptimeHeatmapOption(matrix), [matrix]);
  const height = matrix.rowLabels.length * 14 + 80;
  // On a phone a month of day columns would squeeze the cells and their dates together: the matrix scrolls instead.
  const compact = useMediaQuery(useTheme().breakpoints.down('sm'));
  const width = compact ? Math.max(320, matrix.columns.length * 18 + 60) : undefined;
  return (
    <Box
      sx={{ overflowX: compact ? 'auto' : 'visible' }}
      // Scrolling sideways on a phone: a keyboard reaches and scrolls it too.
      {...(compact ? { tabIndex: 0, role: 'region', 'aria-label': 'Operational availability matrix' } : {})}
    >
      <EChart
        option={option}
        height={height}
        width={width}
        data-testid="uptime-heatmap"
        ariaLabel={`Operational availability matrix, ${matrix.mode}`}
      />
      <UptimeMatrixTable matrix={matrix} />
    </Box>
  );
}
