import { Box, Stack, Typography } from '@mui/material';
import type { LegendEntry } from './display';

/** What the map's colours mean: areas as filled squares, the track as lines, markers as dots. */
export function MapLegend({ entries }: { entries: readonly LegendEntry[] }) {
  return (
    <Stack
      component="ul"
      direction="row"
      useFlexGap
      spacing={2}
      sx={{ flexWrap: 'wrap', listStyle: 'none', p: 0, m: 0, my: 1 }}
      aria-label="Legend"
      data-testid="map-legend"
    >
      {entries.map((entry) => (
        <Stack
          component="li"
          key={entry.key}
          direction="row"
          spacing={0.75}
          sx={{ alignItems: 'center' }}
          data-key={entry.key}
        >
          <Box
            aria-hidden
            sx={
              entry.shape === 'line'
                ? { width: 20, height: 4, bgcolor: entry.colour, borderRadius: 1 }
                : entry.shape === 'dot'
                  ? {
                      width: 12,
                      height: 12,
                      bgcolor: entry.colour,
                      borderRadius: '50%',
                      border: '2px solid #fff',
                      boxShadow: 1,
                    }
                  : {
                      width: 16,
                      height: 12,
                      bgcolor: `${entry.colour}40`,
                      border: `1.5px ${entry.key === 'eca' ? 'dashed' : 'solid'} ${entry.colour}`,
                    }
            }
          />
          <Typography variant="caption">{entry.label}</Typography>
        </Stack>
      ))}
    </Stack>
  );
}
