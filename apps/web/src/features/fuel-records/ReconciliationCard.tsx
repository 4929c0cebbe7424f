import { useState } from 'react';
import type { Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Card,
  CardContent,
  Chip,
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
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import type { ReconciliationResult } from '@portal/contracts/carbon';
import { FUEL_TYPE_NAMES } from '@portal/contracts/rules/carbon';
import { useFleet } from '../../lib/fleet-context';
import { pickerDayText, toPickerValue, UtcDatePicker } from '../../ui/dates/pickers';
import { reconciliationQuery } from './fuel-records-api';
import { differenceText, periodQuery, reconciliationState, tonnesText } from './rules';

type Row = ReconciliationResult['rows'][number];

function StateChip({
  row,
  threshold,
}: {
  row: Pick<Row, 'flagged' | 'missing' | 'differencePercent'>;
  threshold: number;
}) {
  const state = reconciliationState(row, threshold);
  if (state.kind === 'flagged')
    return (
      <Chip
        size="small"
        color="error"
        icon={<WarningAmberIcon />}
        label={state.text}
        data-testid="reconciliation-flag"
      />
    );
  if (state.kind === 'within')
    return (
      <Chip
        size="small"
        color="success"
        variant="outlined"
        icon={<CheckCircleOutlineIcon />}
        label={state.text}
      />
    );
  return (
    <Typography variant="body2" color="text.secondary">
      {state.text}
    </Typography>
  );
}

/** A figure with its name, for the phone's list (a table of eight columns does not fit). */
function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="body2">{value}</Typography>
    </Box>
  );
}

/**
 * The reconciliation of a period (whole UTC days, the fleet period at first): per fuel type the flow meters' fuel
 * against what the bunker delivery notes and the tank soundings account for (ROB at the start + bunkered - ROB at
 * the end), the difference in % of the latter, flagged above the threshold (5 %).
 */
export function ReconciliationCard({
  facilityId,
  days = null,
}: {
  facilityId: string;
  /** The period to start with (whole UTC days, both included; a reporting year); none: the fleet period. */
  days?: { from: string; to: string } | null;
}) {
  const { period } = useFleet();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('md'));
  const [from, setFrom] = useState<Dayjs | null>(() => toPickerValue(days ? days.from : period.from));
  const [to, setTo] = useState<Dayjs | null>(() => toPickerValue(days ? days.to : period.to));
  const query = periodQuery(pickerDayText(from), pickerDayText(to));
  const result = useQuery({
    ...reconciliationQuery(facilityId, query ?? { from: '', to: '' }),
    enabled: Boolean(query),
  });
  const data = result.data;
  const threshold = data?.thresholdPercent ?? 5;

  return (
    <Card variant="outlined" data-testid="reconciliation">
      <CardContent>
        <Typography variant="h6" component="h2">
          Reconciliation
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          The flow meters against the bunker delivery notes and tank soundings of the period, per fuel type:
          remaining on board at the start, plus the fuel bunkered, minus remaining on board at the end. A
          difference above {threshold} % is flagged.
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, maxWidth: 520 }}>
          <UtcDatePicker
            label="From (UTC)"
            value={from}
            onChange={setFrom}
            slotProps={{ textField: { fullWidth: true, size: 'small' } }}
          />
          <UtcDatePicker
            label="To (UTC)"
            value={to}
            onChange={setTo}
            slotProps={{
              textField: {
                fullWidth: true,
                size: 'small',
                error: !query,
                helperText: query ? undefined : 'The period ends before it begins',
              },
            }}
          />
        </Stack>
        {result.isError ? (
          <Alert severity="error">The reconciliation could not be loaded.</Alert>
        ) : !data ? (
          query && <Skeleton variant="rounded" height={120} />
        ) : data.rows.length === 0 ? (
          <Typography color="text.secondary">
            No fuel in this period: no flow meter readings, bunker delivery notes or tank soundings.
          </Typography>
        ) : phone ? (
          <Stack spacing={2} data-testid="reconciliation-table">
            {data.rows.map((r) => (
              <Box
                key={r.fuelType}
                data-testid="reconciliation-row"
                data-fuel={r.fuelType}
                sx={{ borderTop: 1, borderColor: 'divider', pt: 1 }}
              >
                <Stack
                  direction="row"
                  spacing={1}
                  sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}
                >
                  <Typography variant="subtitle2" component="h3">
                    {FUEL_TYPE_NAMES[r.fuelType]}
                  </Typography>
                  <StateChip row={r} threshold={threshold} />
                </Stack>
                <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
                  <Figure label="Flow meters" value={tonnesText(r.flowMeterTonnes)} />
                  <Figure label="Notes and soundings" value={tonnesText(r.bdnTonnes)} />
                  <Figure label="ROB at the start" value={tonnesText(r.robStartTonnes)} />
                  <Figure label="Bunkered" value={tonnesText(r.bunkeredTonnes)} />
                  <Figure label="ROB at the end" value={tonnesText(r.robEndTonnes)} />
                  <Figure label="Difference" value={differenceText(r.differencePercent)} />
                </Box>
              </Box>
            ))}
            <Box sx={{ borderTop: 1, borderColor: 'divider', pt: 1 }} data-testid="reconciliation-total">
              <Stack
                direction="row"
                spacing={1}
                sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}
              >
                <Typography variant="subtitle2" component="h3">
                  All fuel compared
                </Typography>
                <StateChip row={{ ...data.total, missing: [] }} threshold={threshold} />
              </Stack>
              <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
                <Figure label="Flow meters" value={tonnesText(data.total.flowMeterTonnes)} />
                <Figure label="Notes and soundings" value={tonnesText(data.total.bdnTonnes)} />
                <Figure label="Difference" value={differenceText(data.total.differencePercent)} />
              </Box>
            </Box>
          </Stack>
        ) : (
          <TableContainer>
            <Table size="small" aria-label="Reconciliation per fuel type" data-testid="reconciliation-table">
              <TableHead>
                <TableRow sx={{ '& > th': { whiteSpace: 'nowrap' } }}>
                  <TableCell>Fuel type</TableCell>
                  <TableCell align="right">Flow meters</TableCell>
                  <TableCell align="right">ROB at the start</TableCell>
                  <TableCell align="right">Bunkered</TableCell>
                  <TableCell align="right">ROB at the end</TableCell>
                  <TableCell align="right">Notes and soundings</TableCell>
                  <TableCell align="right">Difference</TableCell>
                  <TableCell>Check</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.rows.map((r) => (
                  <TableRow key={r.fuelType} data-testid="reconciliation-row" data-fuel={r.fuelType}>
                    <TableCell component="th" scope="row">
                      {FUEL_TYPE_NAMES[r.fuelType]}
                    </TableCell>
                    <TableCell align="right">{tonnesText(r.flowMeterTonnes)}</TableCell>
                    <TableCell align="right">{tonnesText(r.robStartTonnes)}</TableCell>
                    <TableCell align="right">{tonnesText(r.bunkeredTonnes)}</TableCell>
                    <TableCell align="right">{tonnesText(r.robEndTonnes)}</TableCell>
                    <TableCell align="right">{tonnesText(r.bdnTonnes)}</TableCell>
                    <TableCell align="right" data-testid="reconciliation-difference">
                      {differenceText(r.differencePercent)}
                    </TableCell>
                    <TableCell>
                      <StateChip row={r} threshold={threshold} />
                    </TableCell>
                  </TableRow>
                ))}
                <TableRow data-testid="reconciliation-total" sx={{ '& > *': { fontWeight: 600 } }}>
                  <TableCell component="th" scope="row">
                    All fuel compared
                  </TableCell>
                  <TableCell align="right">{tonnesText(data.total.flowMeterTonnes)}</TableCell>
                  <TableCell />
                  <TableCell />
                  <TableCell />
                  <TableCell align="right">{tonnesText(data.total.bdnTonnes)}</TableCell>
                  <TableCell align="right">{differenceText(data.total.differencePercent)}</TableCell>
                  <TableCell>
                    <StateChip row={{ ...data.total, missing: [] }} threshold={threshold} />
                  </TableCell>
                </TableRow>
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </CardContent>
    </Card>
  );
}
