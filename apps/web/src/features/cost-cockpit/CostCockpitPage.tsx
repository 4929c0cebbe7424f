import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Link,
  MenuItem,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import {
  COCKPIT_REGIMES,
  COCKPIT_REGIME_NAMES,
  type CockpitShip,
  type CostCockpit,
  type RegimeEuros,
} from '@portal/contracts/cost-cockpit';
import { useSession } from '../../lib/session';
import { PageHeading } from '../../ui/headings/PageHeading';
import { cockpitQuery } from './cockpit-api';
import { formatEuros, formatTonnes, payingVerdict, regimeCell } from './display';
import { formatDate } from '@portal/contracts/rules';
import { FuelPriceDialog } from './FuelPriceDialog';

function RegimeCard({ name, regime }: { name: string; regime: RegimeEuros }) {
  const cell = regimeCell(regime);
  return (
    <Card variant="outlined" sx={{ flex: 1, minWidth: 200 }} data-testid="fleet-regime">
      <CardContent>
        <Typography variant="subtitle2" component="h3">
          {name}
        </Typography>
        <Typography variant="h6" component="div" data-testid="fleet-regime-value">
          {cell.toDate}
        </Typography>
        {cell.projected ? (
          <Typography variant="body2" color="text.secondary">
            {cell.projected}
          </Typography>
        ) : null}
        {cell.note ? (
          <Typography variant="caption" color="text.secondary" component="p">
            {cell.note}
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  );
}

function ScrubberCard({ cockpit }: { cockpit: CostCockpit }) {
  const net = cockpit.fleet.scrubberNetEur;
  const projected = cockpit.fleet.scrubberProjectedNetEur;
  return (
    <Card variant="outlined" sx={{ flex: 1, minWidth: 200 }} data-testid="fleet-scrubber">
      <CardContent>
        <Typography variant="subtitle2" component="h3">
          Scrubbers, net savings
        </Typography>
        <Typography variant="h6" component="div" data-testid="fleet-scrubber-net">
          {net === null ? 'No figure yet' : formatEuros(net)}
        </Typography>
        {projected !== null ? (
          <Typography variant="body2" color="text.secondary">
            {formatEuros(projected)} projected
          </Typography>
        ) : null}
        <Typography variant="caption" color="text.secondary" component="p">
          {cockpit.fuelPrice
            ? 'Fuel saved less the fuel their power takes'
            : 'Enter the fuel prices to see them'}
        </Typography>
      </CardContent>
    </Card>
  );
}

function RegimeTableCell({ regime }: { regime: RegimeEuros }) {
  const cell = regimeCell(regime);
  return (
    <TableCell>
      <Box sx={{ whiteSpace: 'nowrap' }}>{cell.toDate}</Box>
      {cell.projected ? (
        <Typography variant="caption" color="text.secondary" component="div" sx={{ whiteSpace: 'nowrap' }}>
          {cell.projected}
        </Typography>
      ) : null}
    </TableCell>
  );
}

function ScrubberCells({ ship }: { ship: CockpitShip }) {
  const s = ship.scrubber;
  if (!s)
    return (
      <TableCell colSpan={3}>
        <Typography variant="body2" color="text.secondary">
          {ship.scrubberMissing}
        </Typography>
      </TableCell>
    );
  const verdict = payingVerdict(s);
  return (
    <>
      <TableCell>
        <Box sx={{ whiteSpace: 'nowrap' }}>{formatEuros(s.fuelSavedEur)}</Box>
        <Typography variant="caption" color="text.secondary" component="div" sx={{ whiteSpace: 'nowrap' }}>
          {formatTonnes(s.hsfoTonnes)} HSFO
        </Typography>
      </TableCell>
      <TableCell>
        <Box sx={{ whiteSpace: 'nowrap' }}>{formatEuros(-s.penaltyEur)}</Box>
        <Typography variant="caption" color="text.secondary" component="div" sx={{ whiteSpace: 'nowrap' }}>
          {formatTonnes(s.penaltyTonnes)} fuel for its power
        </Typography>
      </TableCell>
      <TableCell data-testid="ship-net">
        <Box sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>{formatEuros(s.netEur)}</Box>
        {s.projectedNetEur !== null ? (
          <Typography variant="caption" color="text.secondary" component="div" sx={{ whiteSpace: 'nowrap' }}>
            {formatEuros(s.projectedNetEur)} projected
          </Typography>
        ) : null}
        <Chip
          size="small"
          sx={{ mt: 0.5 }}
          label={verdict}
          color={(s.projectedPaying ?? s.paying) ? 'success' : 'warning'}
          variant="outlined"
          data-testid="ship-verdict"
        />
      </TableCell>
    </>
  );
}

/** A ship on a phone: the answer first (net, still paying?), then what it is made of, then the regimes. */
function ShipCard({ ship }: { ship: CockpitShip }) {
  const s = ship.scrubber;
  return (
    <Card variant="outlined" data-testid="cockpit-ship" data-ship-id={ship.shipId}>
      <CardContent>
        <Typography variant="subtitle1" component="h3">
          <Link component={RouterLink} to={`/ship/${ship.shipId}/carbon`}>
            {ship.shipName}
          </Link>
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
          {ship.daysWithData} {ship.daysWithData === 1 ? 'day' : 'days'} with data
        </Typography>
        {s ? (
          <Box data-testid="ship-net" sx={{ mb: 1 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography variant="h6" component="div">
                {formatEuros(s.netEur)}
              </Typography>
              <Chip
                size="small"
                label={payingVerdict(s)}
                color={(s.projectedPaying ?? s.paying) ? 'success' : 'warning'}
                variant="outlined"
                data-testid="ship-verdict"
              />
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {s.projectedNetEur !== null ? `${formatEuros(s.projectedNetEur)} projected. ` : ''}
              {formatEuros(s.fuelSavedEur)} saved on {formatTonnes(s.hsfoTonnes)} HSFO,{' '}
              {formatEuros(-s.penaltyEur)} for {formatTonnes(s.penaltyTonnes)} of fuel for its power.
            </Typography>
          </Box>
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {ship.scrubberMissing}
          </Typography>
        )}
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2 }}>
          {COCKPIT_REGIMES.map((r) => {
            const cell = regimeCell(ship.regimes[r]);
            return (
              <Box key={r} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {COCKPIT_REGIME_NAMES[r]}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0 }}>
                  {cell.toDate}
                  {cell.projected ? `, ${cell.projected}` : ''}
                </Typography>
              </Box>
            );
          })}
        </Box>
      </CardContent>
    </Card>
  );
}

/**
 * The cost cockpit (decision 0119): per ship and for the fleet, euros per regime this year and projected, beside the
 * scrubber's own economics: "is this scrubber still paying, here, this year?". A regime the portal has no figures
 * for says so; nothing is estimated here.
 */
export default function CostCockpitPage() {
  const { profile } = useSession();
  const [params, setParams] = useSearchParams();
  const thisYear = new Date().getUTCFullYear();
  const year = Number(params.get('year')) || thisYear;
  const admin = Boolean(profile?.roles.some((r) => r === 'UserAdmin' || r === 'SystemAdmin'));
  const phone = !useMediaQuery(useTheme().breakpoints.up('md'));
  const cockpit = useQuery(cockpitQuery(year));
  const [pricing, setPricing] = useState(false);
  const data = cockpit.data;
  const price = data?.fuelPrice ?? null;
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}
      >
        <Box>
          <PageHeading>Cost cockpit</PageHeading>
          <Typography variant="body2" color="text.secondary">
            Euros per regime this year and projected, beside what each scrubber saves
          </Typography>
        </Box>
        <TextField
          select
          label="Year"
          size="small"
          value={year}
          onChange={(event) => setParams({ year: event.target.value })}
          sx={{ minWidth: 120 }}
          slotProps={{ htmlInput: { 'data-testid': 'cockpit-year' } }}
        >
          {[thisYear, thisYear - 1, thisYear - 2].map((y) => (
            <MenuItem key={y} value={y}>
              {y}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {cockpit.isError ? (
        <Alert severity="error">The cost cockpit could not be loaded.</Alert>
      ) : !data ? (
        <Skeleton variant="rounded" height={360} />
      ) : (
        <Stack spacing={3}>
          <Card variant="outlined" data-testid="fuel-prices">
            <CardContent>
              <Stack
                direction={{ xs: 'column', sm: 'row' }}
                spacing={2}
                sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
              >
                <Box>
                  <Typography variant="h6" component="h2">
                    Fuel prices
                  </Typography>
                  <Typography variant="body2" data-testid="fuel-prices-text">
                    {price
                      ? `HSFO ${formatEuros(price.hsfoEurPerTonne)}/t, VLSFO ${formatEuros(price.vlsfoEurPerTonne)}/t: a spread of ${formatEuros(price.vlsfoEurPerTonne - price.hsfoEurPerTonne)}/t (prices of ${formatDate(price.on)}, entered by ${price.enteredBy})`
                      : 'No fuel prices entered yet: the scrubbers’ savings need the HSFO and VLSFO prices.'}
                  </Typography>
                </Box>
                {admin ? (
                  <Button variant="outlined" onClick={() => setPricing(true)} data-testid="enter-prices">
                    Enter prices
                  </Button>
                ) : null}
              </Stack>
            </CardContent>
          </Card>

          <Box component="section" aria-labelledby="cockpit-fleet">
            <Typography variant="h6" component="h2" id="cockpit-fleet" sx={{ mb: 1 }}>
              Fleet, {year}
            </Typography>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
              {COCKPIT_REGIMES.map((r) => (
                <RegimeCard key={r} name={COCKPIT_REGIME_NAMES[r]} regime={data.fleet.regimes[r]} />
              ))}
              <ScrubberCard cockpit={data} />
            </Stack>
          </Box>

          <Box component="section" aria-labelledby="cockpit-ships">
            <Typography variant="h6" component="h2" id="cockpit-ships" sx={{ mb: 1 }}>
              Per ship
            </Typography>
            {data.ships.length === 0 ? (
              <Typography color="text.secondary">No ship.</Typography>
            ) : phone ? (
              <Stack spacing={2}>
                {data.ships.map((ship) => (
                  <ShipCard key={ship.shipId} ship={ship} />
                ))}
              </Stack>
            ) : (
              <TableContainer tabIndex={0} role="region" aria-label={`Cost cockpit ${year} per ship`}>
                <Table size="small" aria-label={`Cost cockpit ${year} per ship`}>
                  <TableHead>
                    <TableRow>
                      <TableCell>Ship</TableCell>
                      {COCKPIT_REGIMES.map((r) => (
                        <TableCell key={r}>{COCKPIT_REGIME_NAMES[r]}</TableCell>
                      ))}
                      <TableCell>Fuel saved</TableCell>
                      <TableCell>Scrubber power</TableCell>
                      <TableCell>Net: still paying?</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {data.ships.map((ship) => (
                      <TableRow key={ship.shipId} data-testid="cockpit-ship" data-ship-id={ship.shipId}>
                        <TableCell component="th" scope="row">
                          <Link component={RouterLink} to={`/ship/${ship.shipId}/carbon`}>
                            {ship.shipName}
                          </Link>
                          <Typography variant="caption" color="text.secondary" component="div">
                            {ship.daysWithData} {ship.daysWithData === 1 ? 'day' : 'days'} with data
                          </Typography>
                        </TableCell>
                        {COCKPIT_REGIMES.map((r) => (
                          <RegimeTableCell key={r} regime={ship.regimes[r]} />
                        ))}
                        <ScrubberCells ship={ship} />
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            )}
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
              Fuel saved: HSFO burnt (the carbon ledger) × the spread. Scrubber power: the fuel its power
              takes (the SFOC-impact KPI) at the HSFO price. Projected: the rate per day with data carried to
              the year end.
            </Typography>
          </Box>
        </Stack>
      )}
      {pricing && data ? (
        <FuelPriceDialog
          organizationId={profile?.organizationId ?? ''}
          current={price}
          today={data.today}
          onClose={() => setPricing(false)}
        />
      ) : null}
    </Box>
  );
}
