import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Box, Stack, Typography } from '@mui/material';
import type { ChartBand } from '../../ui/kpi/ship-options';
import {
  BAND_COLOURS,
  BAND_NAMES,
  eventBands,
  WASHWATER_BAND_COLOURS,
  WASHWATER_BAND_NAMES,
  washwaterBands,
  type BandKind,
  type WashwaterBandKind,
  type WashwaterPanel,
} from './display';
import { shipBandEventsQuery, shipPeriodEventsQuery, shipWashwaterEventsQuery } from './events-api';

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

/** A ship's washwater events of the period as bands, each with the panels (pH, PAH, turbidity) it is drawn on. */
export function useShipWashwaterBands(facilityId: string, period: { from: Date; to: Date }, enabled = true) {
  const events = useQuery({ ...shipWashwaterEventsQuery(facilityId, period.from, period.to), enabled });
  return useMemo<(ChartBand & { panels: readonly WashwaterPanel[] })[]>(
    () =>
      washwaterBands(events.data?.items ?? []).map((b) => ({ ...b, colour: WASHWATER_BAND_COLOURS[b.kind] })),
    [events.data],
  );
}

/** What the washwater chart's bands mean. */
export function WashwaterBandLegend() {
  return (
    <Stack
      direction="row"
      useFlexGap
      spacing={2}
      sx={{ flexWrap: 'wrap' }}
      data-testid="washwater-band-legend"
    >
      {(Object.keys(WASHWATER_BAND_NAMES) as WashwaterBandKind[]).map((kind) => (
        <Stack key={kind} direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <Box
            sx={{
              width: 12,
              height: 12,
              bgcolor: WASHWATER_BAND_COLOURS[kind],
              border: 1,
              borderColor: 'divider',
            }}
          />
          <Typography variant="caption">{WASHWATER_BAND_NAMES[kind]}</Typography>
        </Stack>
      ))}
    </Stack>
  );
}
