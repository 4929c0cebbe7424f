import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Box, Stack, Typography } from '@mui/material';
import type { ChartBand } from '../../ui/kpi/ship-options';
import { BAND_COLOURS, BAND_NAMES, eventBands, type BandKind } from './display';
import { shipBandEventsQuery, shipPeriodEventsQuery } from './events-api';

/** A ship's events of the period as bands for the ratio chart: exceedances, scrubber stops, data gaps. */
export function useShipEventBands(facilityId: string, period: { from: Date; to: Date }, enabled = true) {
  const events = useQuery({ ...shipBandEventsQuery(facilityId, period.from, period.to), enabled });
  return useMemo<ChartBand[]>(
    () => eventBands(events.data?.items ?? []).map((b) => ({ ...b, colour: BAND_COLOURS[b.kind] })),
    [events.data],
  );
}

/** A ship's events of the period, every type: the map's markers. */
export function useShipPeriodEvents(facilityId: string, period: { from: Date; to: Date }, enabled = true) {
  return useQuery({ ...shipPeriodEventsQuery(facilityId, period.from, period.to), enabled });
}

/** What the bands' colours mean. */
export function EventBandLegend() {
  return (
    <Stack direction="row" useFlexGap spacing={2} sx={{ flexWrap: 'wrap' }} data-testid="event-band-legend">
      {(Object.keys(BAND_NAMES) as BandKind[]).map((kind) => (
        <Stack key={kind} direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <Box
            sx={{ width: 12, height: 12, bgcolor: BAND_COLOURS[kind], border: 1, borderColor: 'divider' }}
          />
          <Typography variant="caption">{BAND_NAMES[kind]}</Typography>
        </Stack>
      ))}
    </Stack>
  );
}
