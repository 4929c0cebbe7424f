import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Grid,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import EditIcon from '@mui/icons-material/Edit';
import type { PortCallRecord, Voyage } from '@portal/contracts/carbon';
import { formatDateOnly, formatDateTime } from '@portal/contracts/rules';
import { ApiRequestError } from '../../lib/api';
import { portCallsQuery, voyageQuery } from './carbon-api';
import { CargoDialog } from './CargoDialog';
import { FuelTable } from './FuelTable';
import {
  cargoText,
  formatHours,
  formatNm,
  formatTonnes,
  fuelTonnes,
  hoursWithoutFuelData,
  voyageTitle,
  worthSaying,
} from './display';

function Fact({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="body1" data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

/** The two ends of the voyage: the call it left and the call it reached, with their times at berth. */
function PortsTable({ voyage, calls }: { voyage: Voyage; calls?: PortCallRecord[] }) {
  const ends = [
    { role: 'Departure', end: voyage.from, call: calls?.find((c) => c.id === voyage.from?.portCallId) },
    { role: 'Arrival', end: voyage.to, call: calls?.find((c) => c.id === voyage.to?.portCallId) },
  ];
  return (
    <TableContainer
      tabIndex={0}
      role="region"
      aria-label="Ports of the voyage"
      sx={{ '& td, & th': { whiteSpace: 'nowrap' } }}
    >
      <Table size="small" aria-label="Ports of the voyage" data-testid="voyage-ports">
        <TableHead>
          <TableRow>
            <TableCell />
            <TableCell>Port</TableCell>
            <TableCell>Arrived (UTC)</TableCell>
            <TableCell>Left (UTC)</TableCell>
            <TableCell align="right">At berth</TableCell>
            <TableCell align="right">Fuel at berth</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {ends.map(({ role, end, call }) => (
            <TableRow key={role} data-testid={`voyage-port-${role.toLowerCase()}`}>
              <TableCell component="th" scope="row">
                {role}
              </TableCell>
              <TableCell>
                {end
                  ? `${end.portName} (${end.country})`
                  : role === 'Departure'
                    ? 'Before the data'
                    : 'At sea'}
              </TableCell>
              <TableCell>
                {call
                  ? call.openStart
                    ? `Before ${formatDateTime(call.arrival)}`
                    : formatDateTime(call.arrival)
                  : role === 'Arrival' && end
                    ? formatDateTime(voyage.arrival)
                    : '–'}
              </TableCell>
              <TableCell>
                {call
                  ? call.openEnd
                    ? 'Still there'
                    : formatDateTime(call.departure)
                  : role === 'Departure' && end
                    ? formatDateTime(voyage.departure)
                    : '–'}
              </TableCell>
              <TableCell align="right">{call ? formatHours(call.hours) : '–'}</TableCell>
              <TableCell align="right">{call ? formatTonnes(fuelTonnes(call.fuel)) : '–'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/**
 * A voyage (/facilities/{id}/voyages/{voyageId}): its ports with dates and times at berth, distance, hours under
 * way, fuel per fuel type and consumer, CO2, and its cargo, which a person enters here.
 */
export default function VoyagePage() {
  const { facilityId = '', voyageId = '' } = useParams();
  const voyage = useQuery(voyageQuery(voyageId));
  const v = voyage.data;
  const calls = useQuery({
    ...portCallsQuery(facilityId, {
      from: v ? formatDateOnly(v.departure) : '',
      to: v ? formatDateOnly(v.arrival) : '',
    }),
    enabled: Boolean(v),
  });
  const [editing, setEditing] = useState(false);
  const back = `/ship/${facilityId}/carbon`;

  if (voyage.isError) {
    const missing = voyage.error instanceof ApiRequestError && voyage.error.status === 404;
    return (
      <Alert severity={missing ? 'warning' : 'error'} data-testid="voyage-not-found">
        {missing ? 'Voyage not found' : 'The voyage could not be loaded.'}
      </Alert>
    );
  }
  if (!v) return <Skeleton variant="rounded" height={240} />;

  return (
    <Stack spacing={2} data-testid="voyage-page">
      <Box>
        <Button component={RouterLink} to={back} startIcon={<ArrowBackIcon />} sx={{ ml: -1 }}>
          Carbon
        </Button>
        <Typography variant="h6" component="h2" data-testid="voyage-title">
          Voyage {voyageTitle(v)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {formatDateTime(v.departure)} –{' '}
          {v.to ? formatDateTime(v.arrival) : `${formatDateTime(v.arrival)}, still at sea`} UTC
        </Typography>
      </Box>

      <Card>
        <CardContent>
          <Grid container spacing={2}>
            <Grid size={{ xs: 6, md: 2 }}>
              <Fact label="Distance over ground" value={formatNm(v.distanceNm)} testId="voyage-distance" />
            </Grid>
            <Grid size={{ xs: 6, md: 2 }}>
              <Fact label="Duration" value={formatHours(v.durationHours)} testId="voyage-duration" />
            </Grid>
            <Grid size={{ xs: 6, md: 2 }}>
              <Fact label="Under way" value={formatHours(v.hoursUnderWay)} testId="voyage-under-way" />
            </Grid>
            <Grid size={{ xs: 6, md: 2 }}>
              <Fact
                label="Stopped at sea"
                value={formatHours(v.hoursNotUnderWay)}
                testId="voyage-not-under-way"
              />
            </Grid>
            <Grid size={{ xs: 6, md: 2 }}>
              <Fact label="Fuel" value={formatTonnes(fuelTonnes(v.fuel))} testId="voyage-fuel" />
            </Grid>
            <Grid size={{ xs: 6, md: 2 }}>
              <Fact label="CO2 (IMO Cf)" value={formatTonnes(v.co2Tonnes)} testId="voyage-co2" />
            </Grid>
          </Grid>
          {worthSaying(v.hoursWithoutPosition) ||
          worthSaying(hoursWithoutFuelData(v.hoursWithoutFuelData)) ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {[
                v.hoursWithoutPosition > 0
                  ? `${formatHours(v.hoursWithoutPosition)} without a position`
                  : null,
                worthSaying(hoursWithoutFuelData(v.hoursWithoutFuelData))
                  ? `${formatHours(hoursWithoutFuelData(v.hoursWithoutFuelData))} without fuel flow data`
                  : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Typography>
          ) : null}
        </CardContent>
      </Card>

      <Card>
        <CardContent>
          <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
            Ports
          </Typography>
          {calls.isError ? (
            <Alert severity="error">The port calls could not be loaded.</Alert>
          ) : (
            <PortsTable voyage={v} calls={calls.data} />
          )}
        </CardContent>
      </Card>

      <Card>
        <CardContent>
          <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
            Fuel by type and consumer
          </Typography>
          <FuelTable fuel={v.fuel} caption="Fuel of the voyage" testId="voyage-fuel-table" />
        </CardContent>
      </Card>

      <Card data-testid="voyage-cargo">
        <CardContent>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
          >
            <Box>
              <Typography variant="h6" component="h3">
                Cargo
              </Typography>
              <Typography variant="body1" data-testid="cargo-text">
                {cargoText(v.cargo)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                The IMO DCS report takes its laden distance and transport work from the cargo.
              </Typography>
            </Box>
            <Button
              variant="outlined"
              startIcon={<EditIcon />}
              onClick={() => setEditing(true)}
              sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
            >
              {v.cargo ? 'Change cargo' : 'Enter cargo'}
            </Button>
          </Stack>
        </CardContent>
      </Card>
      {editing ? <CargoDialog voyage={v} onClose={() => setEditing(false)} /> : null}
    </Stack>
  );
}
