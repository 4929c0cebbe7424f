import { Link as RouterLink, useNavigate } from 'react-router';
import {
  Box,
  Chip,
  LinearProgress,
  Link,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { reportsQuery } from './reports-api';
import { approvedProgress } from './progress';

// On a phone the target moves under the name, so the table fits the screen and the page does not scroll sideways.
const wideOnly = { display: { xs: 'none', sm: 'table-cell' } } as const;

/**
 * Reports: name, target and a progress bar of approved fields over total; each row opens detail/{id}. The row is
 * a table row (a click anywhere opens the report); the name is the link keyboards and screen readers use.
 */
export default function ReportOverviewPage() {
  const reports = useQuery(reportsQuery());
  const navigate = useNavigate();
  return (
    <Paper>
      {reports.isPending ? <LinearProgress aria-label="Loading the reports" /> : null}
      {reports.isError ? (
        <Typography color="error" sx={{ p: 2 }}>
          Something went wrong! Please try again
        </Typography>
      ) : null}
      <TableContainer>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell sx={wideOnly}>Target</TableCell>
              <TableCell sx={{ width: { xs: 112, sm: '35%' }, whiteSpace: 'nowrap' }}>
                Approved fields
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(reports.data ?? []).map((r) => {
              const progress = approvedProgress(r.approvedFieldsCount, r.totalFieldsCount);
              return (
                <TableRow
                  key={r.id}
                  hover
                  onClick={() => navigate(`../detail/${encodeURIComponent(r.id)}`)}
                  sx={{ cursor: 'pointer' }}
                  data-testid="report-row"
                >
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    <Link
                      component={RouterLink}
                      to={`../detail/${encodeURIComponent(r.id)}`}
                      variant="body2"
                      underline="hover"
                      color="inherit"
                      sx={{ display: 'block', fontWeight: 600 }}
                    >
                      {r.name}
                    </Link>
                    <Typography variant="caption" color="text.secondary">
                      {r.id}
                    </Typography>
                    <Box sx={{ display: { xs: 'block', sm: 'none' }, mt: 0.5 }}>
                      <Chip size="small" label={r.target} />
                    </Box>
                  </TableCell>
                  <TableCell sx={wideOnly}>
                    <Chip size="small" label={r.target} />
                  </TableCell>
                  <TableCell sx={{ minWidth: 112 }}>
                    <Box sx={{ position: 'relative' }}>
                      <LinearProgress
                        variant="determinate"
                        value={progress.percent}
                        color={progress.complete ? 'success' : 'primary'}
                        sx={{ height: 20, borderRadius: 1 }}
                        aria-label={`${r.approvedFieldsCount} of ${r.totalFieldsCount} fields approved`}
                      />
                      <Typography
                        variant="caption"
                        data-testid="report-progress"
                        sx={{
                          position: 'absolute',
                          inset: 0,
                          textAlign: 'center',
                          lineHeight: '20px',
                          whiteSpace: 'nowrap',
                          color: progress.complete ? '#fff' : 'text.primary',
                          fontWeight: 600,
                        }}
                      >
                        {progress.text}
                      </Typography>
                    </Box>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}
