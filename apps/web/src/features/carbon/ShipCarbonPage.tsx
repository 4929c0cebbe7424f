import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  FormControl,
  FormControlLabel,
  FormLabel,
  Grid,
  InputLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Select,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { formatDate } from '@portal/contracts/rules';
import { useFleet } from '../../lib/fleet-context';
import { PageHeading } from '../../ui/headings/PageHeading';
import { ShipViewTabs } from '../map';
import { ciiQuery, dcsQuery, fuelQuery, voyagesQuery } from './carbon-api';
import { CiiCard, TrajectoryCard } from './CiiCard';
import { DcsCard } from './DcsCard';
import { FuelTable } from './FuelTable';
import { VoyagesCard } from './VoyagesCard';
import {
  dayPeriodOf,
  formatHours,
  formatNm,
  formatTonnes,
  hoursWithoutFuelData,
  ledgerYears,
  worthSaying,
  yearPeriod,
} from './display';

type Scope = 'year' | 'period';

/**
 * A ship's Carbon tab (/ship/{id}/carbon): the CII of the chosen year with its gauge and the trajectory to 2030, the
 * voyages and the fuel per consumer and fuel type of the year or of the drawer's period, and the year's IMO DCS
 * report with its downloads. ?year= keeps the year in the address (the fleet CII card links to it).
 */
export default function ShipCarbonPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const { period, facilities, filteredFacilities } = useFleet();
  const ship = facilities?.find((f) => f.id === id);
  const excluded = Boolean(ship && filteredFacilities && !filteredFacilities.some((f) => f.id === id));
  useEffect(() => {
    // As on the dashboard: a ship the fleet filter excludes is not viewed.
    if (excluded) void navigate('/', { replace: true });
  }, [excluded, navigate]);
  const enabled = Boolean(ship) && !excluded;

  const years = useMemo(() => ledgerYears(new Date()), []);
  const asked = Number(search.get('year'));
  const year = years.includes(asked) ? asked : years[0]!;
  const setYear = (y: number) =>
    setSearch(
      (s) => {
        s.set('year', String(y));
        return s;
      },
      { replace: true },
    );
  const [scope, setScope] = useState<Scope>('year');
  const days = scope === 'year' ? yearPeriod(year) : dayPeriodOf(period);
  const periodText =
    scope === 'year' ? `the year ${year}` : `${formatDate(period.from)} – ${formatDate(period.to)}`;

  const cii = useQuery({ ...ciiQuery(id, year), enabled });
  const dcs = useQuery({ ...dcsQuery(id, year), enabled });
  const voyages = useQuery({ ...voyagesQuery(id, days), enabled });
  const fuel = useQuery({ ...fuelQuery(id, days), enabled });

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
    <Box sx={{ p: { xs: 2, md: 3 } }} data-testid="ship-carbon">
      <ShipViewTabs facilityId={ship.id} current="carbon" />
      <Grid container spacing={2}>
        <Grid size={12}>
          <Card>
            <CardContent>
              <Stack
                direction={{ xs: 'column', md: 'row' }}
                spacing={2}
                sx={{ justifyContent: 'space-between', alignItems: { md: 'flex-start' } }}
              >
                <Box>
                  <PageHeading data-testid="ship-name">{ship.name}</PageHeading>
                  <Typography variant="body2" color="text.secondary">
                    Voyages, fuel and CO2 from the ship&apos;s position and fuel flow meters; the CII and the
                    IMO DCS report of the year.
                  </Typography>
                  <Button
                    component={RouterLink}
                    to={`/facilities/${ship.id}/fuel-records`}
                    startIcon={<ReceiptLongIcon />}
                    sx={{ mt: 1, ml: -1 }}
                    data-testid="fuel-records-link"
                  >
                    Bunker notes and reconciliation
                  </Button>
                </Box>
                <Stack
                  direction={{ xs: 'column', sm: 'row' }}
                  spacing={2}
                  sx={{ alignItems: { sm: 'center' } }}
                >
                  <FormControl size="small" sx={{ minWidth: 120 }}>
                    <InputLabel id="carbon-year-label">Year</InputLabel>
                    <Select
                      labelId="carbon-year-label"
                      label="Year"
                      value={year}
                      onChange={(event) => setYear(Number(event.target.value))}
                      data-testid="carbon-year"
                    >
                      {years.map((y) => (
                        <MenuItem key={y} value={y}>
                          {y}
                        </MenuItem>
                      ))}
                    </Select>
                  </FormControl>
                  <FormControl>
                    <FormLabel id="carbon-scope-label" sx={{ typography: 'caption' }}>
                      Voyages and fuel of
                    </FormLabel>
                    <RadioGroup
                      row
                      aria-labelledby="carbon-scope-label"
                      value={scope}
                      onChange={(event) => setScope(event.target.value as Scope)}
                    >
                      <FormControlLabel
                        value="year"
                        control={<Radio size="small" />}
                        label={`The year ${year}`}
                      />
                      <FormControlLabel
                        value="period"
                        control={<Radio size="small" />}
                        label={`${formatDate(period.from)} – ${formatDate(period.to)}`}
                      />
                    </RadioGroup>
                  </FormControl>
                </Stack>
              </Stack>
            </CardContent>
          </Card>
        </Grid>

        <Grid size={{ xs: 12, lg: 6 }}>
          <CiiCard cii={cii.data} loading={cii.isPending} failed={cii.isError} />
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <TrajectoryCard cii={cii.data} loading={cii.isPending} />
        </Grid>

        <Grid size={12}>
          <VoyagesCard
            voyages={voyages.data}
            loading={voyages.isPending}
            failed={voyages.isError}
            periodText={periodText}
          />
        </Grid>

        <Grid size={12}>
          <Card data-testid="fuel-card">
            <CardContent>
              <Typography variant="h6" component="h2">
                Fuel by type and consumer
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                At sea and at berth · {periodText}
              </Typography>
              {fuel.isError ? (
                <Alert severity="error">The fuel could not be loaded.</Alert>
              ) : fuel.isPending ? (
                <Skeleton variant="rounded" height={120} />
              ) : (
                <>
                  <FuelTable fuel={fuel.data.fuel} caption="Fuel by type and consumer" testId="fuel-table" />
                  <Typography
                    variant="body2"
                    sx={{ mt: 1 }}
                    data-testid="fuel-summary"
                    data-co2={fuel.data.co2Tonnes}
                  >
                    CO2 {formatTonnes(fuel.data.co2Tonnes)} · {formatNm(fuel.data.distanceNm)} ·{' '}
                    {formatHours(fuel.data.hoursUnderWay)} under way · {formatHours(fuel.data.hoursAtBerth)}{' '}
                    at berth
                  </Typography>
                  {fuel.data.fuelOfUnknownTypeTonnes > 0 ? (
                    <Typography variant="body2" color="warning.dark">
                      {formatTonnes(fuel.data.fuelOfUnknownTypeTonnes)} of fuel of unknown type: no
                      change-over or fuel type value for it, so it has no CO2 factor and is not in the CO2.
                    </Typography>
                  ) : null}
                  {worthSaying(hoursWithoutFuelData(fuel.data.hoursWithoutFuelData)) ? (
                    <Typography variant="body2" color="text.secondary">
                      {formatHours(hoursWithoutFuelData(fuel.data.hoursWithoutFuelData))} without fuel flow
                      data.
                    </Typography>
                  ) : null}
                </>
              )}
            </CardContent>
          </Card>
        </Grid>

        <Grid size={12}>
          <DcsCard
            facilityId={ship.id}
            shipName={ship.name}
            year={year}
            report={dcs.data}
            loading={dcs.isPending}
            failed={dcs.isError}
          />
        </Grid>
      </Grid>
    </Box>
  );
}
