import { useCallback, useEffect, useMemo } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert, Box, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import { formatDateTime } from '@portal/contracts/rules';
import { useFleet } from '../../lib/fleet-context';
import { PageHeading } from '../../ui/headings/PageHeading';
import { useShipPeriodEvents } from '../events';
import { ZONE_KIND_NAMES as WARNING_ZONE_KIND_NAMES } from '@portal/contracts/zone-warnings';
import { eventMarkers, legendEntries, trackSummary, zoneWarningSentence } from './display';
import { MapCanvas } from './MapCanvas';
import { MapLegend } from './MapLegend';
import { MapTextList } from './MapTextList';
import { useTrack, useZoneWarnings } from './map-api';
import { ShipViewTabs } from './ShipViewTabs';
import { MAP_ZONES } from './zones';

const MAP_HEIGHT = { xs: '62vh', md: 560 };

/** A ship's map (/ship/{id}/map): the zones, its track of the drawer's period coloured by scrubber mode, its events. */
export default function ShipMapPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { period, facilities, filteredFacilities } = useFleet();
  const ship = facilities?.find((f) => f.id === id);
  const excluded = Boolean(ship && filteredFacilities && !filteredFacilities.some((f) => f.id === id));
  useEffect(() => {
    // As on the dashboard: a ship the fleet filter excludes is not viewed.
    if (excluded) void navigate('/', { replace: true });
  }, [excluded, navigate]);
  const enabled = Boolean(ship) && !excluded;
  const track = useTrack(id, period, enabled);
  const events = useShipPeriodEvents(id, period, enabled);
  const warnings = useZoneWarnings(id, enabled);
  const ahead = useMemo(
    () =>
      warnings.data && warnings.data.projected.length > 1
        ? {
            points: warnings.data.projected,
            warnings: warnings.data.warnings.map((w) => ({
              entry: w.entry,
              title: `Zone warning: ${w.zoneName}`,
              lines: [zoneWarningSentence(w, formatDateTime), `${WARNING_ZONE_KIND_NAMES[w.zoneKind]}`],
            })),
          }
        : null,
    [warnings.data],
  );
  const markers = useMemo(() => eventMarkers(events.data?.items ?? []), [events.data]);
  const go = useCallback((href: string) => void navigate(href), [navigate]);
  const legend = useMemo(
    () =>
      legendEntries({
        track: track.data,
        eventTypes: (events.data?.items ?? []).filter((e) => e.startPosition).map((e) => e.type),
        ahead: Boolean(ahead),
        zoneWarnings: Boolean(ahead?.warnings.length),
      }),
    [track.data, events.data, ahead],
  );

  if (facilities && !ship) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="warning" data-testid="ship-not-found">
          Ship not found
        </Alert>
      </Box>
    );
  }
  if (!ship) return <Skeleton variant="rounded" height={240} sx={{ m: 3 }} />;

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }} data-testid="ship-map">
      <ShipViewTabs facilityId={ship.id} current="map" />
      <Card>
        <CardContent>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between' }}>
            <Box>
              <PageHeading data-testid="ship-name">{ship.name}</PageHeading>
              <Typography variant="body2" color="text.secondary">
                Track, emission control areas and no-discharge zones · {formatDateTime(period.from)} –{' '}
                {formatDateTime(period.to)} UTC
              </Typography>
            </Box>
            <Typography
              variant="body2"
              color="text.secondary"
              data-testid="track-summary"
              data-samples={track.data?.samples ?? 'null'}
              data-segments={track.data?.segments.length ?? 'null'}
            >
              {track.isPending ? 'Loading the track…' : trackSummary(track.data)}
            </Typography>
          </Stack>
          {track.isError ? (
            <Alert severity="error" sx={{ my: 1 }}>
              Something went wrong! Please try again
            </Alert>
          ) : null}
          {warnings.data?.warnings.map((w) => (
            <Alert severity="warning" key={w.id} sx={{ my: 1 }} data-testid="zone-warning">
              {zoneWarningSentence(w, formatDateTime)}
            </Alert>
          ))}
          {warnings.data?.motion ? (
            <Typography variant="body2" color="text.secondary" data-testid="ship-motion">
              Last position {formatDateTime(warnings.data.motion.at)} UTC:{' '}
              {Math.round(warnings.data.motion.courseDeg)}° at {warnings.data.motion.speedKn.toFixed(1)} kn
              over ground; the dashed line is its track for the next {warnings.data.horizonMinutes} minutes.
            </Typography>
          ) : null}
          <MapLegend entries={legend} />
          <MapCanvas
            zones={MAP_ZONES}
            track={track.data ?? null}
            markers={markers}
            label={`Map of ${ship.name}: its track of the period, emission control areas and no-discharge zones`}
            height={MAP_HEIGHT}
            navigate={go}
            ahead={ahead}
          />
          {track.data && !track.data.hasScrubberMode && track.data.samples > 0 ? (
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
              The ship logs no scrubber mode: its track is drawn in one colour.
            </Typography>
          ) : null}
          <Box sx={{ mt: 2 }}>
            <MapTextList
              zones={MAP_ZONES}
              track={track.data ?? null}
              markers={markers}
              markerCaption="Events"
            />
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
