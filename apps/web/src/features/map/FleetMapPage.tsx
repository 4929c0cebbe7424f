import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Box, Card, CardContent, Typography } from '@mui/material';
import { formatDateTime } from '@portal/contracts/rules';
import { useFleet } from '../../lib/fleet-context';
import { PageHeading } from '../../ui/headings/PageHeading';
import { legendEntries, positionMarkers } from './display';
import { MapCanvas } from './MapCanvas';
import { MapLegend } from './MapLegend';
import { MapTextList } from './MapTextList';
import { usePositions } from './map-api';
import { MAP_ZONES } from './zones';

const MAP_HEIGHT = { xs: '62vh', md: 600 };

/** The fleet map (/map): each ship of the fleet filter at its last position of the drawer's period, and the zones. */
export default function FleetMapPage() {
  const navigate = useNavigate();
  const { period, filteredFacilities } = useFleet();
  const positions = usePositions(period);
  const names = useMemo(
    () => new Map((filteredFacilities ?? []).map((f) => [f.id, f.name])),
    [filteredFacilities],
  );
  const markers = useMemo(
    () =>
      positionMarkers(
        (positions.data ?? []).filter((p) => names.has(p.facilityId)),
        names,
      ),
    [positions.data, names],
  );
  const go = useCallback((href: string) => void navigate(href), [navigate]);
  const withoutPosition = (filteredFacilities ?? []).filter((f) => !markers.some((m) => m.id === f.id));

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }} data-testid="fleet-map">
      <Card>
        <CardContent>
          <PageHeading>Fleet map</PageHeading>
          <Typography variant="body2" color="text.secondary" data-testid="fleet-map-summary">
            Last position of each ship in {formatDateTime(period.from)} – {formatDateTime(period.to)} UTC ·{' '}
            {markers.length} of {filteredFacilities?.length ?? 0} ship(s) with a position
          </Typography>
          {positions.isError ? (
            <Alert severity="error" sx={{ my: 1 }}>
              Something went wrong! Please try again
            </Alert>
          ) : null}
          <MapLegend entries={legendEntries({ positions: markers.length > 0 })} />
          <MapCanvas
            zones={MAP_ZONES}
            markers={markers}
            label="Fleet map: each ship's last position of the period, emission control areas and no-discharge zones"
            height={MAP_HEIGHT}
            navigate={go}
          />
          {positions.data && withoutPosition.length ? (
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
              No position in this period: {withoutPosition.map((f) => f.name).join(', ')}
            </Typography>
          ) : null}
          <Box sx={{ mt: 2 }}>
            <MapTextList zones={MAP_ZONES} markers={markers} markerCaption="Ships" />
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
