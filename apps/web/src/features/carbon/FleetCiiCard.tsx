import { useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Link,
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
import { CII_TREND_DAYS } from '@portal/contracts/rules/carbon';
import { fleetCiiQuery } from './carbon-api';
import { formatCii, headingForDOrE, sortFleetCii } from './display';
import { RatingChip } from './RatingChip';

/**
 * The fleet dashboard's CII card: each ship the user sees with its rating this year so far and projected to the year
 * end, the ships heading for D or E first (marked), each a link to its Carbon tab. Only the ships of the fleet filter.
 */
export function FleetCiiCard({ shipIds }: { shipIds?: readonly string[] }) {
  const year = new Date().getUTCFullYear();
  const cii = useQuery(fleetCiiQuery(year));
  const ships = useMemo(() => {
    const all = cii.data?.ships ?? [];
    const shown = shipIds ? all.filter((s) => shipIds.includes(s.shipId)) : all;
    return sortFleetCii(shown);
  }, [cii.data, shipIds]);
  const atRisk = ships.filter(headingForDOrE).length;
  return (
    <Card data-testid="fleet-cii-card" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          CII {year}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="fleet-cii-summary">
          {cii.data
            ? atRisk
              ? `${atRisk} of ${ships.length} ship(s) rated or heading for D or E`
              : `No ship rated or heading for D or E (${ships.length} ship(s))`
            : 'Rating this year and projected to the year end'}
        </Typography>
        {cii.isError ? (
          <Alert severity="error">The CII could not be loaded.</Alert>
        ) : cii.isPending ? (
          <Skeleton variant="rounded" height={160} />
        ) : ships.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No ship.
          </Typography>
        ) : (
          <TableContainer
            tabIndex={0}
            role="region"
            aria-label={`CII ${year} per ship`}
            sx={{ maxHeight: 360 }}
          >
            <Table size="small" stickyHeader aria-label={`CII ${year} per ship`}>
              <TableHead>
                <TableRow>
                  <TableCell>Ship</TableCell>
                  <TableCell>This year</TableCell>
                  <TableCell>Projected</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {ships.map((s) => (
                  <TableRow
                    key={s.shipId}
                    data-testid="fleet-cii-row"
                    data-ship-id={s.shipId}
                    data-at-risk={headingForDOrE(s)}
                    sx={headingForDOrE(s) ? { bgcolor: 'rgba(251, 140, 0, 0.08)' } : undefined}
                  >
                    <TableCell component="th" scope="row">
                      <Link
                        component={RouterLink}
                        to={`/ship/${s.shipId}/carbon`}
                        data-testid="fleet-cii-link"
                      >
                        {s.shipName}
                      </Link>
                      {s.missing ? (
                        <Typography variant="caption" color="text.secondary" component="div">
                          {s.missing}
                        </Typography>
                      ) : null}
                    </TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <RatingChip rating={s.rating} label={`${s.shipName} this year`} />
                        <Box component="span" sx={{ typography: 'body2' }}>
                          {s.attained === null ? '' : formatCii(s.attained)}
                        </Box>
                      </Stack>
                    </TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <RatingChip rating={s.projectedRating} label={`${s.shipName} projected`} />
                        <Box component="span" sx={{ typography: 'body2' }}>
                          {s.projectedAttained === null ? '' : formatCii(s.projectedAttained)}
                        </Box>
                      </Stack>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
          g CO2 per capacity and nautical mile (MARPOL Annex VI regulation 28); projected from the trend of
          the last {CII_TREND_DAYS} days with data.
        </Typography>
      </CardContent>
    </Card>
  );
}
