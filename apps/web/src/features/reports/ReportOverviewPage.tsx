import { Link } from 'react-router';
import { Box, Chip, LinearProgress, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { reportsQuery } from './reports-api';
import { approvedProgress } from './progress';

/** Reports: name, target and a progress bar of approved fields over total; each row opens detail/{id}. */
export default function ReportOverviewPage() {
  const reports = useQuery(reportsQuery());
  return (
    <Paper>
      {reports.isPending ? <LinearProgress /> : null}
      {reports.isError ? (
        <Typography color="error" sx={{ p: 2 }}>
          Something went wrong! Please try again
        </Typography>
      ) : null}
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Target</TableCell>
            <TableCell sx={{ width: '35%' }}>Approved fields</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {(reports.data ?? []).map((r) => {
            const progress = approvedProgress(r.approvedFieldsCount, r.totalFieldsCount);
            return (
              <TableRow key={r.id} hover component={Link} to={`../detail/${encodeURIComponent(r.id)}`} sx={{ textDecoration: 'none' }} data-testid="report-row">
                <TableCell>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {r.name}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {r.id}
                  </Typography>
                </TableCell>
                <TableCell>
                  <Chip size="small" label={r.target} />
                </TableCell>
                <TableCell>
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
                      sx={{ position: 'absolute', inset: 0, textAlign: 'center', lineHeight: '20px', color: progress.complete ? '#fff' : 'text.primary', fontWeight: 600 }}
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
    </Paper>
  );
}
