import { type ChangeEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { ApiRequestError } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { useImportNoonReports } from './fuel-records-api';
import { noonImportSummary } from './rules';

/** Noon reports (a CSV) into the cargo of the ship's voyages, with what was used and why the rest was not. */
export function NoonReportCard({ facilityId }: { facilityId: string }) {
  const importing = useImportNoonReports(facilityId);
  const notify = useNotify();
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    importing.mutate(await file.text(), {
      onError: (cause) =>
        // A refusal of the file (empty, too large) is shown beside the button; others notify.
        cause instanceof ApiRequestError && cause.status < 500 ? undefined : notify.error(undefined, cause),
    });
  };
  const result = importing.data;
  const refusal =
    importing.error instanceof ApiRequestError && importing.error.status < 500
      ? importing.error.message
      : null;
  return (
    <Card variant="outlined" data-testid="noon-reports">
      <CardContent>
        <Typography variant="h6" component="h2">
          Noon reports
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          A CSV file with a header row: Date (UTC date and time), Condition (laden or ballast), and Cargo (t)
          and TEU where known. Each voyage takes the first report written on it; a voyage whose cargo was
          entered by a person keeps it.
        </Typography>
        <Button
          component="label"
          variant="outlined"
          startIcon={<UploadFileIcon />}
          disabled={importing.isPending}
          aria-busy={importing.isPending || undefined}
        >
          Import CSV
          <input
            hidden
            type="file"
            accept=".csv,.txt,text/csv"
            aria-label="Noon report CSV file"
            onChange={(e) => void onFile(e)}
          />
        </Button>
        {refusal && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {refusal}
          </Alert>
        )}
        {result && (
          <Box sx={{ mt: 2 }} data-testid="noon-report-result">
            <Alert severity={result.problems.length ? 'warning' : 'success'}>
              {noonImportSummary(result)}
            </Alert>
            {result.problems.length > 0 && (
              <List dense aria-label="Lines not used">
                {result.problems.map((p) => (
                  <ListItem key={`${p.line}:${p.message}`} disableGutters>
                    <ListItemText
                      primary={`Line ${p.line}: ${p.message}`}
                      slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }}
                    />
                  </ListItem>
                ))}
              </List>
            )}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
