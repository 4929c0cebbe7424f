import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  LinearProgress,
  Link,
  Paper,
  Rating,
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
import { isApprovable } from '@portal/contracts/measurement-fields';
import { useFleet } from '../../lib/fleet-context';
import { useNotify } from '../../lib/notifications';
import { ValidityDialog } from '../calculations';
import { DeleteValuesDialog } from './DeleteValuesDialog';
import { approveAll, type ApproveAllProgress } from './approve-all';
import {
  addDefaultCalculations,
  approveFieldCalculation,
  fetchFieldCalculations,
  useFacilityMeasurementFields,
} from './measurement-fields-api';
import { StatusChip } from './StatusChip';
import { calculationKeys, measurementFieldKeys } from '../../lib/queries/keys';

const COMMENT_PREVIEW = 80;

function Comment({ text }: { text: string | null }) {
  const [open, setOpen] = useState(false);
  if (!text) return null;
  if (text.length <= COMMENT_PREVIEW) return <>{text}</>;
  return (
    <>
      {open ? text : `${text.slice(0, COMMENT_PREVIEW)}…`}{' '}
      <Link component="button" variant="body2" onClick={() => setOpen(!open)}>
        {open ? 'Show less' : 'Show more'}
      </Link>
    </>
  );
}

/** /facilities/{id}/config/list: the ship's measurement fields with their calculation status. */
/** On a phone the list keeps the name and the status; the rest is on the field's detail screen. */
const WIDE_ONLY = { display: { xs: 'none', sm: 'table-cell' } } as const;

export default function MeasurementFieldListPage() {
  const { facilityId = '' } = useParams();
  const fields = useFacilityMeasurementFields(facilityId);
  const notify = useNotify();
  const client = useQueryClient();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [progress, setProgress] = useState<ApproveAllProgress | null>(null);
  const running =
    progress !== null && progress.completed + progress.failed + progress.skipped < progress.total;
  const approvable = (fields.data ?? []).filter(isApprovable).length;
  // Fields without any calculation on the ship: a ship made before a release's new fields, or the first of a fleet.
  const waiting = (fields.data ?? []).filter((f) => f.calculations === 0).length;
  const [adding, setAdding] = useState(false);
  const [deletingValues, setDeletingValues] = useState(false);
  const { facilities, period } = useFleet();
  const shipName = facilities?.find((f) => f.id === facilityId)?.name ?? 'this ship';

  const runAddDefaults = async () => {
    setAdding(true);
    try {
      const result = await addDefaultCalculations(facilityId);
      notify.notify(result.message, result.created.length ? 'success' : 'info');
    } catch (error) {
      notify.error(undefined, error);
    } finally {
      setAdding(false);
      await client.invalidateQueries({ queryKey: measurementFieldKeys.all });
      await client.invalidateQueries({ queryKey: calculationKeys.all });
    }
  };

  const runApproveAll = async (validity: { validFrom: string; validTo: string | null }) => {
    setDialogOpen(false);
    const result = await approveAll(
      fields.data ?? [],
      {
        list: (fieldId) => fetchFieldCalculations(facilityId, fieldId),
        approve: (fieldId, calcId) => approveFieldCalculation(facilityId, fieldId, calcId, validity),
      },
      setProgress,
    );
    notify.notify(
      `Approve all: ${result.completed} completed, ${result.failed} failed, ${result.skipped} skipped`,
      result.failed ? 'warning' : 'success',
    );
    await client.invalidateQueries({ queryKey: measurementFieldKeys.all });
    await client.invalidateQueries({ queryKey: calculationKeys.all });
  };

  return (
    <Box sx={{ pt: 2 }}>
      <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography
          variant="h5"
          component="h2"
          sx={{ flexGrow: 1, fontSize: { xs: '1.25rem', sm: '1.5rem' } }}
        >
          Measurement fields
        </Typography>
        <Button
          variant="outlined"
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          disabled={adding || running || waiting === 0}
          onClick={() => void runAddDefaults()}
        >
          Add default calculations
        </Button>
        <Button
          variant="outlined"
          color="error"
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          onClick={() => setDeletingValues(true)}
        >
          Delete values
        </Button>
        <Button
          variant="contained"
          sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
          disabled={running || approvable === 0}
          onClick={() => setDialogOpen(true)}
        >
          Approve all
        </Button>
      </Stack>
      {progress && (
        <Box sx={{ mb: 2 }} data-testid="approve-all-progress">
          <LinearProgress
            variant="determinate"
            aria-label="Approving all"
            value={
              progress.total
                ? ((progress.completed + progress.failed + progress.skipped) / progress.total) * 100
                : 100
            }
          />
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {progress.completed + progress.failed + progress.skipped} of {progress.total}:{' '}
            {progress.completed} completed, {progress.failed} failed, {progress.skipped} skipped
          </Typography>
        </Box>
      )}
      {fields.isError && <Alert severity="error">Something went wrong! Please try again</Alert>}
      {fields.isPending ? (
        <Skeleton variant="rounded" height={400} />
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Measurement fields">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell sx={WIDE_ONLY}>Data type</TableCell>
                <TableCell sx={WIDE_ONLY}>Calculation rating</TableCell>
                <TableCell>Status</TableCell>
                <TableCell sx={WIDE_ONLY}>Comment</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(fields.data ?? []).map((f) => (
                <TableRow key={f.id} hover data-testid={`field-row-${f.name}`}>
                  {/* Long names (OPEN_LOOP_IN_NO_DISCHARGE_ZONE) break so the status stays on a phone's screen. */}
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    <Link component={RouterLink} to={`/facilities/${facilityId}/config/detail?id=${f.id}`}>
                      {f.name}
                    </Link>
                  </TableCell>
                  <TableCell sx={WIDE_ONLY}>{f.dataType}</TableCell>
                  <TableCell sx={WIDE_ONLY}>
                    <Rating
                      size="small"
                      readOnly
                      value={f.activeCalculationRating}
                      aria-label={`Rating ${f.activeCalculationRating ?? 0}`}
                    />
                  </TableCell>
                  <TableCell>
                    <StatusChip status={f.status} />
                  </TableCell>
                  <TableCell sx={{ ...WIDE_ONLY, maxWidth: 420 }}>
                    <Comment text={f.activeCalculationComment} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {deletingValues && (
        <DeleteValuesDialog
          facilityId={facilityId}
          shipName={shipName}
          period={period}
          onClose={() => setDeletingValues(false)}
        />
      )}
      <ValidityDialog
        open={dialogOpen}
        title={`Approve ${approvable} field(s)`}
        onClose={() => setDialogOpen(false)}
        onConfirm={runApproveAll}
      />
    </Box>
  );
}
