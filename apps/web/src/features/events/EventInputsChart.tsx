import '../../ui/charts/echarts-ship';
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import type { ComplianceEvent } from '@portal/contracts/events';
import { EVENT_INPUTS_MARGIN_HOURS } from '@portal/contracts/events';
import { eventChart } from '@portal/contracts/rules';
import { EChart } from '../../ui/charts/EChart';
import { eventChartLegend, eventInputsOption } from './chart';
import { BAND_COLOURS, eventBands } from './display';
import { eventInputsQuery } from './events-api';

function Swatch({ colour, label, dashed }: { colour: string; label: string; dashed?: boolean }) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      <Box
        sx={
          dashed
            ? { width: 16, height: 0, borderTop: 2, borderTopStyle: 'dashed', borderColor: colour }
            : { width: 12, height: 12, bgcolor: colour, border: 1, borderColor: 'divider' }
        }
      />
      <Typography variant="caption">{label}</Typography>
    </Stack>
  );
}

/** The inputs the event is derived from, 6 h before it to 6 h after it. */
export function EventInputsChart({ event }: { event: ComplianceEvent }) {
  const inputs = useQuery(eventInputsQuery(event.id));
  const option = useMemo(
    () => (inputs.data ? eventInputsOption(inputs.data, event) : null),
    [inputs.data, event],
  );
  const chart = eventChart(event);
  const band = eventBands([event])[0];
  const empty = inputs.data?.series.every((s) => s.timestamps.length === 0);
  return (
    <Card data-testid="event-chart">
      <CardContent>
        <Typography variant="h6" component="h2">
          Inputs around the event
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {EVENT_INPUTS_MARGIN_HOURS} h before the start to {EVENT_INPUTS_MARGIN_HOURS} h after the end, UTC
        </Typography>
        <Stack direction="row" useFlexGap spacing={2} sx={{ my: 1, flexWrap: 'wrap' }}>
          {eventChartLegend(chart).map((line) => (
            <Swatch key={line.label} colour={line.colour} label={line.label} dashed={line.dashed} />
          ))}
          {band && <Swatch colour={BAND_COLOURS[band.kind]} label="The event" />}
        </Stack>
        {inputs.isError ? (
          <Alert severity="error">The values could not be loaded.</Alert>
        ) : !option ? (
          <Skeleton variant="rounded" height={280} />
        ) : empty ? (
          <Typography color="text.secondary">No data</Typography>
        ) : (
          <EChart
            option={option}
            height={280}
            ariaLabel={`${chart.value.label}, ${chart.limit.label.toLowerCase()} and scrubber state around the event`}
          />
        )}
      </CardContent>
    </Card>
  );
}
