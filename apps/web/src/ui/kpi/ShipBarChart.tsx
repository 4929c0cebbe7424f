import { useMemo } from 'react';
import { Box, useMediaQuery, useTheme } from '@mui/material';
import { EChart } from '../charts/EChart';
import { shipBarOption, type ShipBar, type ShipBarOptions } from './options';

/** Bars per ship: 40 px each; above 25 ships the chart scrolls horizontally inside its card. */
export function ShipBarChart({
  bars,
  options,
  testId,
  height = 220,
}: {
  bars: ShipBar[];
  options: ShipBarOptions;
  testId: string;
  height?: number;
}) {
  const compact = useMediaQuery(useTheme().breakpoints.down('sm'));
  const { option, widthPx, scroll } = useMemo(
    () => shipBarOption(bars, options, compact),
    [bars, options, compact],
  );
  const points = JSON.stringify(
    bars.map((b) => ({ facilityId: b.facilityId, value: b.value, colour: b.colour ?? null })),
  );
  return (
    <Box
      sx={{ overflowX: scroll ? 'auto' : 'hidden' }}
      data-testid={testId}
      data-points={points}
      data-scroll={scroll}
      // Scrolling sideways: a keyboard reaches and scrolls it too.
      {...(scroll ? { tabIndex: 0, role: 'region', 'aria-label': 'Value per ship' } : {})}
    >
      <EChart
        option={option}
        height={height}
        width={scroll ? widthPx + 60 : '100%'}
        ariaLabel="Value per ship"
      />
    </Box>
  );
}
