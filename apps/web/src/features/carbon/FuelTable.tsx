import {
  Box,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableFooter,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { FuelAmount } from '@portal/contracts/carbon';
import { fuelTable, fuelTypeName, fuelTypeShortName, formatTonnes } from './display';

const TOTAL = { color: 'text.primary', fontWeight: 600, fontSize: '0.875rem' };

/** Fuel per consumer (rows) and fuel type (columns), with the totals and the part burnt not under way. */
export function FuelTable({
  fuel,
  caption,
  testId,
}: {
  fuel: readonly FuelAmount[];
  caption: string;
  testId: string;
}) {
  const table = fuelTable(fuel);
  if (table.rows.length === 0)
    return (
      <Typography variant="body2" color="text.secondary" data-testid={testId}>
        No fuel in this period.
      </Typography>
    );
  return (
    <TableContainer
      tabIndex={0}
      role="region"
      aria-label={caption}
      data-testid={testId}
      sx={{ '& td, & th': { whiteSpace: 'nowrap' }, '& tfoot th, & tfoot td': TOTAL }}
    >
      <Table size="small" aria-label={caption}>
        <TableHead>
          <TableRow>
            <TableCell>Consumer</TableCell>
            {table.fuelTypes.map((t) => (
              <TableCell key={t} align="right" title={fuelTypeName(t)}>
                {fuelTypeShortName(t)}
              </TableCell>
            ))}
            <TableCell align="right">Total</TableCell>
            <TableCell align="right">Of it not under way</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {table.rows.map((row) => (
            <TableRow key={row.consumer} data-testid="fuel-row" data-consumer={row.consumer}>
              <TableCell component="th" scope="row">
                {row.name}
              </TableCell>
              {row.tonnes.map((t, i) => (
                <TableCell key={table.fuelTypes[i]} align="right">
                  {t === null ? '–' : formatTonnes(t)}
                </TableCell>
              ))}
              <TableCell align="right">{formatTonnes(row.total)}</TableCell>
              <TableCell align="right">{formatTonnes(row.notUnderWay)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
        {table.rows.length > 1 ? (
          <TableFooter>
            <TableRow>
              <TableCell component="th" scope="row">
                Total
              </TableCell>
              {table.totals.map((t, i) => (
                <TableCell key={table.fuelTypes[i]} align="right">
                  {formatTonnes(t)}
                </TableCell>
              ))}
              <TableCell
                align="right"

                data-testid="fuel-total"
              >
                {formatTonnes(table.total)}
              </TableCell>
              <TableCell align="right">{formatTonnes(table.notUnderWay)}</TableCell>
            </TableRow>
          </TableFooter>
        ) : null}
      </Table>
      <Box sx={{ height: 4 }} />
    </TableContainer>
  );
}
