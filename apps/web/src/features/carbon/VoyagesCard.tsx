import { Link as RouterLink } from 'react-router';
import {
  Alert,
  Card,
  CardContent,
  Link,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import type { Voyage } from '@portal/contracts/carbon';
import {
  formatHours,
  formatNm,
  formatTonnes,
  fuelTonnes,
  portText,
  voyageDate,
  voyageTitle,
} from './display';

const voyagePath = (voyage: Voyage) => `/facilities/${voyage.shipId}/voyages/${voyage.id}`;

/** The ship's voyages of the period, newest first, each a link to its page; on a phone one block per voyage. */
export function VoyagesCard({
  voyages,
  loading,
  failed,
  periodText,
}: {
  voyages?: Voyage[];
  loading: boolean;
  failed: boolean;
  periodText: string;
}) {
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const list = [...(voyages ?? [])].sort((a, b) => b.departure.localeCompare(a.departure));
  return (
    <Card data-testid="voyages-card">
      <CardContent>
        <Typography variant="h6" component="h2">
          Voyages
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          From leaving one port to arriving at the next · {periodText}
        </Typography>
        {failed ? (
          <Alert severity="error">The voyages could not be loaded.</Alert>
        ) : loading ? (
          <Skeleton variant="rounded" height={160} />
        ) : list.length === 0 ? (
          <Typography variant="body2" color="text.secondary" data-testid="no-voyages">
            No voyage in this period.
          </Typography>
        ) : phone ? (
          <Stack spacing={1} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="Voyages">
            {list.map((v) => (
              <Paper component="li" variant="outlined" key={v.id} sx={{ p: 1.5 }} data-testid="voyage-row">
                <Link
                  component={RouterLink}
                  to={voyagePath(v)}
                  data-testid="voyage-link"
                  sx={{ fontWeight: 600 }}
                >
                  {voyageTitle(v)}
                </Link>
                <Typography variant="body2" color="text.secondary">
                  {voyageDate(v.departure)} – {v.to ? voyageDate(v.arrival) : 'under way'}
                </Typography>
                <Typography variant="body2">
                  {formatNm(v.distanceNm)} · {formatHours(v.hoursUnderWay)} under way · fuel{' '}
                  {formatTonnes(fuelTonnes(v.fuel))} · CO2 {formatTonnes(v.co2Tonnes)}
                </Typography>
              </Paper>
            ))}
          </Stack>
        ) : (
          <TableContainer tabIndex={0} role="region" aria-label="Voyages">
            <Table size="small" aria-label="Voyages" data-testid="voyages-table">
              <TableHead>
                <TableRow>
                  <TableCell>From</TableCell>
                  <TableCell>To</TableCell>
                  <TableCell>Departure</TableCell>
                  <TableCell>Arrival</TableCell>
                  <TableCell align="right">Distance</TableCell>
                  <TableCell align="right">Under way</TableCell>
                  <TableCell align="right">Fuel</TableCell>
                  <TableCell align="right">CO2</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {list.map((v) => (
                  <TableRow key={v.id} hover data-testid="voyage-row" data-voyage-id={v.id}>
                    <TableCell>
                      <Link
                        component={RouterLink}
                        to={voyagePath(v)}
                        data-testid="voyage-link"
                        aria-label={`Voyage ${voyageTitle(v)}, departed ${voyageDate(v.departure)}`}
                      >
                        {portText(v.from, 'from')}
                      </Link>
                    </TableCell>
                    <TableCell>{portText(v.to, 'to')}</TableCell>
                    <TableCell>{voyageDate(v.departure)}</TableCell>
                    <TableCell>{v.to ? voyageDate(v.arrival) : 'Under way'}</TableCell>
                    <TableCell align="right">{formatNm(v.distanceNm)}</TableCell>
                    <TableCell align="right">{formatHours(v.hoursUnderWay)}</TableCell>
                    <TableCell align="right" data-testid="voyage-fuel">
                      {formatTonnes(fuelTonnes(v.fuel))}
                    </TableCell>
                    <TableCell align="right">{formatTonnes(v.co2Tonnes)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </CardContent>
    </Card>
  );
}
