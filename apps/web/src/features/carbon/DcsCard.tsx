import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
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
import DownloadIcon from '@mui/icons-material/Download';
import type { DcsReportRecord } from '@portal/contracts/carbon';
import { useNotify } from '../../lib/notifications';
import { downloadDcsReport, failureMessage } from './carbon-api';
import { dcsItems } from './display';

const NOT_IN_DATA = 'Not in the data';

/** The year's IMO DCS report: Appendix IX's items as the export has them, what is missing and why, the downloads. */
export function DcsCard({
  facilityId,
  shipName,
  year,
  report,
  loading,
  failed,
}: {
  facilityId: string;
  shipName: string;
  year: number;
  report?: DcsReportRecord;
  loading: boolean;
  failed: boolean;
}) {
  const notify = useNotify();
  const [busy, setBusy] = useState<'xlsx' | 'csv' | null>(null);
  const download = async (format: 'xlsx' | 'csv') => {
    setBusy(format);
    try {
      await downloadDcsReport(facilityId, shipName, year, format);
    } catch (error) {
      notify.error(failureMessage(error), error);
    } finally {
      setBusy(null);
    }
  };
  const items = report ? dcsItems(report) : [];
  return (
    <Card data-testid="dcs-card">
      <CardContent>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'flex-start' }, mb: 1 }}
        >
          <Box>
            <Typography variant="h6" component="h2">
              DCS report {year}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              IMO data collection system (MARPOL Annex VI regulation 27, Appendix IX): due to the flag State
              within three months of the year end.
            </Typography>
          </Box>
          <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              disabled={busy !== null}
              onClick={() => void download('xlsx')}
              aria-label={`Download the DCS report ${year} (.xlsx)`}
            >
              .xlsx
            </Button>
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              disabled={busy !== null}
              onClick={() => void download('csv')}
              aria-label={`Download the DCS report ${year} (CSV)`}
            >
              CSV
            </Button>
          </Stack>
        </Stack>
        {failed ? (
          <Alert severity="error">The DCS report could not be loaded.</Alert>
        ) : loading || !report ? (
          <Skeleton variant="rounded" height={200} />
        ) : (
          <>
            {report.missing.length ? (
              <Alert severity="warning" sx={{ mb: 1 }} data-testid="dcs-missing">
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  Not in the data yet ({report.missing.length})
                </Typography>
                <Box component="ul" sx={{ m: 0, pl: 2 }}>
                  {report.missing.map((m, i) => (
                    <li key={`${m.item}-${i}`} data-testid="dcs-missing-item">
                      <Typography variant="body2">
                        <strong>{m.item}</strong>: {m.reason}
                      </Typography>
                    </li>
                  ))}
                </Box>
              </Alert>
            ) : (
              <Alert severity="success" sx={{ mb: 1 }}>
                Every item is in the data.
              </Alert>
            )}
            <TableContainer tabIndex={0} role="region" aria-label={`DCS report ${year}`}>
              <Table size="small" aria-label={`DCS report ${year}`} data-testid="dcs-items">
                <TableHead>
                  <TableRow>
                    <TableCell sx={{ width: 56 }}>No.</TableCell>
                    <TableCell>Item</TableCell>
                    <TableCell align="right">Value</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {items.map((item) => (
                    <TableRow key={item.number} data-testid="dcs-item" data-number={item.number}>
                      <TableCell>{item.number}</TableCell>
                      <TableCell component="th" scope="row">
                        {item.item}
                      </TableCell>
                      <TableCell
                        align="right"
                        sx={item.value === null ? { color: 'warning.dark', fontStyle: 'italic' } : undefined}
                      >
                        {item.value ?? NOT_IN_DATA}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </>
        )}
      </CardContent>
    </Card>
  );
}
