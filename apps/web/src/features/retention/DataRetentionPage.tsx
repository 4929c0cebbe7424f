import {
  Alert,
  Box,
  Button,
  Chip,
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
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { RETENTION_MINIMUM_MONTHS } from '@portal/contracts/retention';
import { formatDateTime, MESSAGES } from '@portal/contracts/rules';
import { ApiRequestError } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { storageMonthsQuery, useRestoreMonth } from './retention-api';

const REASON = { retention: 'Retention', administrator: 'By an administrator' } as const;

/** The months online as a range, "2024-01 to 2026-11 (35 months)", or that none has data. */
function onlineRange(online: readonly string[]): string {
  if (online.length === 0) return 'No month has data online.';
  const count = online.length === 1 ? '1 month' : `${online.length} months`;
  return online.length === 1
    ? `Data online: ${online[0]} (${count}).`
    : `Data online: ${online[0]} to ${online.at(-1)} (${count} with data).`;
}

/**
 * /admin/data-retention (SystemAdmin; decisions 0125 and 0134): the archived months of the whole deployment, each
 * restorable (audited on the server). Months are archived by the retention job when every organization's retention
 * lets them go; each organization sets its retention on its administration page.
 */
export default function DataRetentionPage() {
  const months = useQuery(storageMonthsQuery());
  const restore = useRestoreMonth();
  const { success, error } = useNotify();

  const restoreMonth = (month: string) =>
    restore.mutate(month, {
      onSuccess: () => success(`${month} was restored: its data are back on the dashboards`),
      // A refusal (409: rows of the month stored since; 404: restored meanwhile) says why.
      onError: (cause) =>
        error(cause instanceof ApiRequestError && cause.status < 500 ? cause.message : undefined, cause),
    });

  return (
    <Box component="section" aria-labelledby="data-retention-heading" data-testid="data-retention-page">
      <Typography variant="h6" component="h2" id="data-retention-heading" gutterBottom>
        Data retention
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Recorded data are kept at least {RETENTION_MINIMUM_MONTHS} months (2021 EGCS Guidelines, 7.4). A month
        is archived when every organization&apos;s retention lets it go: its data leave the dashboards and
        lists, and are kept until restored here. Each organization sets its retention on its Access management
        page.
      </Typography>
      {months.isError ? (
        <Alert severity="error">{months.error.message || MESSAGES.DEFAULT_ERROR}</Alert>
      ) : !months.data ? (
        <Stack spacing={1}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} variant="rounded" height={48} />
          ))}
        </Stack>
      ) : (
        <>
          <Typography variant="body2" sx={{ mb: 2 }} data-testid="data-retention-summary">
            {onlineRange(months.data.online)} Months before {months.data.archiveBefore} are past every
            organization&apos;s retention and are archived by the retention job.
          </Typography>
          <Typography variant="subtitle1" component="h3" gutterBottom>
            Archived months
          </Typography>
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" aria-label="Archived months">
              <TableHead>
                <TableRow>
                  <TableCell>Month</TableCell>
                  <TableCell>Archived (UTC)</TableCell>
                  <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Why</TableCell>
                  <TableCell align="right">Action</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {months.data.archived.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={4}>No month is archived</TableCell>
                  </TableRow>
                )}
                {months.data.archived.map((m) => (
                  <TableRow key={m.month} data-testid="archived-month" data-month={m.month}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{m.month}</TableCell>
                    <TableCell>
                      <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
                        {formatDateTime(m.archivedOn)}
                      </Box>
                      {/* On a phone the reason goes under the date: the row keeps its Restore button in view. */}
                      <Typography
                        variant="caption"
                        color="text.secondary"
                        component="p"
                        sx={{ display: { xs: 'block', sm: 'none' } }}
                      >
                        {REASON[m.reason]}
                      </Typography>
                    </TableCell>
                    <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                      <Chip size="small" variant="outlined" label={REASON[m.reason]} />
                    </TableCell>
                    <TableCell align="right">
                      <Button
                        size="small"
                        variant="outlined"
                        disabled={restore.isPending}
                        onClick={() => restoreMonth(m.month)}
                        aria-label={`Restore ${m.month}`}
                      >
                        Restore
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
    </Box>
  );
}
