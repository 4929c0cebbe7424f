import { useMemo, useState, type ReactNode } from 'react';
import { useLocation, useParams } from 'react-router';
import {
  Box,
  Button,
  Checkbox,
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
import type { RecalculationKind, RecalculationRequest } from '@portal/contracts/execution';
import {
  canCancel,
  canExecuteOrRemove,
  formatDateTime,
  NO_PENDING_RECALCULATIONS,
  RECALCULATION_QUEUE_TITLE,
  recalculationsCancelledText,
  recalculationsQueuedText,
  recalculationsRemovedText,
  sortByRequested,
  versionLabel,
} from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { usePendingRecalculations, useQueueAction, type QueueAction } from './recalculation-api';

const SUCCESS: Record<QueueAction, (n: number) => string> = {
  remove: recalculationsRemovedText,
  cancel: recalculationsCancelledText,
  execute: recalculationsQueuedText,
};

/**
 * The calculation queue: under ship config (measurement field mode, the ship from the URL) and under report config
 * (report field mode). Rows are the pending recalculations, oldest request first.
 */
export default function CalculationQueuePage() {
  const { facilityId } = useParams();
  const { pathname } = useLocation();
  const kind: RecalculationKind = pathname.startsWith('/report-config')
    ? 'report-fields'
    : 'measurement-fields';
  const pending = usePendingRecalculations(kind, facilityId);
  const action = useQueueAction(kind);
  const notify = useNotify();
  const [selectedIds, setSelectedIds] = useState<Set<string>>(new Set());
  // On a phone the two date columns fold into the field cell.
  const compact = useMediaQuery(useTheme().breakpoints.down('sm'));
  const rows = useMemo(() => sortByRequested(pending.data ?? []), [pending.data]);
  const selected = rows.filter((r) => selectedIds.has(r.id));

  const toggle = (id: string) =>
    setSelectedIds((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allSelected = rows.length > 0 && selected.length === rows.length;
  const run = (which: QueueAction) =>
    action.mutate(
      { action: which, ids: selected.map((r) => r.id) },
      {
        onSuccess: (result) => {
          notify.success(SUCCESS[which](result.count));
          setSelectedIds(new Set());
        },
        onError: () => notify.error(),
      },
    );

  const dates = (r: RecalculationRequest) => ({
    requested: r.recalculationRequestedOn ? formatDateTime(r.recalculationRequestedOn) : '',
    queued: r.recalculationQueuedOn ? formatDateTime(r.recalculationQueuedOn) : '',
  });
  const fieldColumns: { label: string; value: (r: RecalculationRequest) => ReactNode }[] =
    kind === 'report-fields'
      ? [
          { label: 'Report', value: (r) => r.reportName ?? '' },
          { label: 'Report field', value: (r) => r.fieldName },
        ]
      : [{ label: 'Measurement field', value: (r) => r.fieldName }];
  const columns: { label: string; value: (r: RecalculationRequest) => ReactNode }[] = compact
    ? [
        {
          label: kind === 'report-fields' ? 'Report field' : 'Measurement field',
          value: (r) => {
            const { requested, queued } = dates(r);
            return (
              <>
                {r.reportName && (
                  <Typography variant="caption" color="text.secondary" component="div">
                    {r.reportName}
                  </Typography>
                )}
                {r.fieldName}
                <Typography variant="caption" color="text.secondary" component="div">
                  Requested on {requested}
                  {queued && ` · Queued on ${queued}`}
                </Typography>
              </>
            );
          },
        },
        { label: 'Version', value: (r) => versionLabel(r.version, r.revision) },
      ]
    : [
        ...fieldColumns,
        { label: 'Calculation version', value: (r) => versionLabel(r.version, r.revision) },
        { label: 'Requested on', value: (r) => dates(r).requested },
        { label: 'Queued on', value: (r) => dates(r).queued },
      ];

  return (
    <Box sx={{ pt: 1 }}>
      <Typography variant={compact ? 'h6' : 'h5'} component="h2" sx={{ mb: 2 }}>
        {RECALCULATION_QUEUE_TITLE}
      </Typography>
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ mb: 2, flexWrap: 'wrap', '& .MuiButton-root': { whiteSpace: 'nowrap' } }}
      >
        <Button
          variant="outlined"
          disabled={!canExecuteOrRemove(selected) || action.isPending}
          onClick={() => run('remove')}
        >
          Remove from queue
        </Button>
        <Button
          variant="outlined"
          disabled={!canCancel(selected) || action.isPending}
          onClick={() => run('cancel')}
        >
          Cancel execution
        </Button>
        <Button
          variant="contained"
          disabled={!canExecuteOrRemove(selected) || action.isPending}
          onClick={() => run('execute')}
        >
          Execute
        </Button>
      </Stack>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={RECALCULATION_QUEUE_TITLE}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  checked={allSelected}
                  indeterminate={selected.length > 0 && !allSelected}
                  onChange={() => setSelectedIds(allSelected ? new Set() : new Set(rows.map((r) => r.id)))}
                  slotProps={{ input: { 'aria-label': 'Select all' } }}
                />
              </TableCell>
              {columns.map((c) => (
                <TableCell key={c.label}>{c.label}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {pending.isPending && (kind === 'report-fields' || facilityId) ? (
              <TableRow>
                <TableCell colSpan={columns.length + 1}>
                  <Skeleton />
                </TableCell>
              </TableRow>
            ) : rows.length === 0 ? (
              <TableRow>
                <TableCell
                  colSpan={columns.length + 1}
                  align="center"
                  sx={{ color: 'text.secondary', py: 4 }}
                >
                  {NO_PENDING_RECALCULATIONS}
                </TableCell>
              </TableRow>
            ) : (
              rows.map((r) => (
                <TableRow
                  key={r.id}
                  hover
                  selected={selectedIds.has(r.id)}
                  onClick={() => toggle(r.id)}
                  sx={{ cursor: 'pointer' }}
                >
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={selectedIds.has(r.id)}
                      slotProps={{ input: { 'aria-label': `Select ${r.fieldName}` } }}
                    />
                  </TableCell>
                  {columns.map((c) => (
                    <TableCell key={c.label}>{c.value(r)}</TableCell>
                  ))}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
