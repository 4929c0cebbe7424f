import { Box } from '@mui/material';
import { NO_DATA, type UptimeCell, type UptimeMatrix } from '@portal/contracts/rules';
import { visuallyHidden } from '../a11y/visually-hidden';

/**
 * A cell of the matrix as text: the availability truncated to one decimal (never rounded up to look better),
 * No data, or nothing for an hour or day that does not exist in the period.
 */
export function uptimeCellText(cell: UptimeCell | undefined): string {
  if (cell === 'NO_DATA') return NO_DATA;
  if (cell === 'INVALID_DATE' || cell === undefined) return '';
  return `${(Math.trunc(cell * 10 + 1e-6) / 10).toFixed(1)} %`;
}

/**
 * The uptime matrix as a table for screen readers (the heatmap is a picture): a row per day (hourly) or month
 * (daily), a column per UTC hour or day of the month.
 */
export function UptimeMatrixTable({ matrix }: { matrix: UptimeMatrix }) {
  const hourly = matrix.mode === 'hourly';
  return (
    <Box sx={visuallyHidden} data-testid="uptime-table">
      <table>
        <caption>
          Operational availability per{' '}
          {hourly ? 'UTC hour (columns) and day (rows)' : 'day (columns) and month (rows)'}
        </caption>
        <thead>
          <tr>
            <th scope="col">{hourly ? 'Day' : 'Month'}</th>
            {matrix.rowLabels.map((label) => (
              <th scope="col" key={label}>
                {hourly ? `${label}:00` : label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.columns.map((column, c) => (
            <tr key={column.label}>
              <th scope="row">{column.label}</th>
              {matrix.rowLabels.map((label, r) => (
                <td key={label}>{uptimeCellText(matrix.cells[r]?.[c])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </Box>
  );
}
