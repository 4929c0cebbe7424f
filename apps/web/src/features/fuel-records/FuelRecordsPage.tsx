import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  IconButton,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import type { Bdn, TankSounding } from '@portal/contracts/carbon';
import { formatDateTime, mayWriteLedger } from '@portal/contracts/rules';
import { CHANNEL_FUEL_TYPE_NAMES } from '@portal/contracts/fuel-channels';
import { FUEL_TYPE_NAMES } from '@portal/contracts/rules/carbon';
import { useLedgerYear } from '../../lib/ledger-year';
import { useNotify } from '../../lib/notifications';
import { useSession } from '../../lib/session';
import { visuallyHidden } from '../../ui/a11y/visually-hidden';
import { ConfirmDialog } from '../../ui/dialogs/ConfirmDialog';
import { ShipTabs } from '../events';
import { BdnDialog } from './BdnDialog';
import { bdnsQuery, soundingsQuery, useRemoveSounding } from './fuel-records-api';
import { NoonReportCard } from './NoonReportCard';
import { ReconciliationCard } from './ReconciliationCard';
import { notePortText, tonnesText } from './rules';
import { SoundingDialog } from './SoundingDialog';

const percentText = (value: number) => `${value.toLocaleString('en-US', { maximumFractionDigits: 3 })} % m/m`;

function SectionHeader({ title, action }: { title: string; action?: React.ReactNode }) {
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1, flexWrap: 'wrap' }}
    >
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {action}
    </Stack>
  );
}

function LoadingRows({ columns }: { columns: number }) {
  return [0, 1].map((i) => (
    <TableRow key={i}>
      <TableCell colSpan={columns}>
        <Skeleton />
      </TableCell>
    </TableRow>
  ));
}

type Days = { from: string; to: string } | null;

/** The notes of the ship (of the days when given); `onEdit` absent: read only (a verifier). */
function BdnTable({
  facilityId,
  days,
  onEdit,
}: {
  facilityId: string;
  days: Days;
  onEdit?(note: Bdn): void;
}) {
  const notes = useQuery(bdnsQuery(facilityId, days));
  const compact = useMediaQuery(useTheme().breakpoints.down('md'));
  const rows = useMemo(() => [...(notes.data ?? [])].reverse(), [notes.data]);
  const columns = compact ? 3 : 7;
  if (notes.isError) return <Alert severity="error">The bunker delivery notes could not be loaded.</Alert>;
  return (
    <TableContainer>
      <Table size="small" aria-label="Bunker delivery notes" data-testid="bdn-table">
        <TableHead>
          <TableRow>
            <TableCell>Delivered (UTC)</TableCell>
            {compact ? (
              <TableCell>Note</TableCell>
            ) : (
              <>
                <TableCell>Port</TableCell>
                <TableCell>Fuel type</TableCell>
                <TableCell align="right">Mass</TableCell>
                <TableCell align="right">Sulfur</TableCell>
                <TableCell>Note number</TableCell>
              </>
            )}
            <TableCell align="right">
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {notes.isPending ? (
            <LoadingRows columns={columns} />
          ) : rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns}>
                <Typography variant="body2" color="text.secondary">
                  No bunker delivery notes yet.
                </Typography>
              </TableCell>
            </TableRow>
          ) : (
            rows.map((n) => (
              <TableRow key={n.id} data-testid="bdn-row">
                <TableCell sx={{ whiteSpace: 'nowrap', verticalAlign: compact ? 'top' : undefined }}>
                  {formatDateTime(n.deliveredAt)}
                </TableCell>
                {compact ? (
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {tonnesText(n.massTonnes)} {FUEL_TYPE_NAMES[n.fuelType]}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" component="div">
                      {percentText(n.sulfurPercent)} · {notePortText(n)}
                      {n.bdnNumber ? ` · No. ${n.bdnNumber}` : ''}
                    </Typography>
                  </TableCell>
                ) : (
                  <>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{notePortText(n)}</TableCell>
                    <TableCell>{FUEL_TYPE_NAMES[n.fuelType]}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {tonnesText(n.massTonnes)}
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {percentText(n.sulfurPercent)}
                    </TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{n.bdnNumber ?? '—'}</TableCell>
                  </>
                )}
                <TableCell align="right" sx={{ verticalAlign: compact ? 'top' : undefined }}>
                  {onEdit && (
                    <Tooltip title="Edit the note">
                      <IconButton
                        size="small"
                        aria-label={`Edit the note of ${formatDateTime(n.deliveredAt)}`}
                        onClick={() => onEdit(n)}
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The soundings of the ship (of the days when given); `onRemove` absent: read only (a verifier). */
function SoundingTable({
  facilityId,
  days,
  onRemove,
}: {
  facilityId: string;
  days: Days;
  onRemove?(sounding: TankSounding): void;
}) {
  const soundings = useQuery(soundingsQuery(facilityId, days));
  const compact = useMediaQuery(useTheme().breakpoints.down('md'));
  const rows = useMemo(() => [...(soundings.data ?? [])].reverse(), [soundings.data]);
  const columns = compact ? 3 : 5;
  if (soundings.isError) return <Alert severity="error">The tank soundings could not be loaded.</Alert>;
  return (
    <TableContainer>
      <Table size="small" aria-label="Tank soundings" data-testid="sounding-table">
        <TableHead>
          <TableRow>
            <TableCell>Sounded (UTC)</TableCell>
            {compact ? (
              <TableCell align="right">Remaining on board</TableCell>
            ) : (
              <>
                <TableCell>Fuel type</TableCell>
                <TableCell align="right">Remaining on board</TableCell>
                <TableCell>Entered by</TableCell>
              </>
            )}
            <TableCell align="right">
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {soundings.isPending ? (
            <LoadingRows columns={columns} />
          ) : rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columns}>
                <Typography variant="body2" color="text.secondary">
                  No tank soundings yet.
                </Typography>
              </TableCell>
            </TableRow>
          ) : (
            rows.map((s) => (
              <TableRow key={s.id} data-testid="sounding-row">
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(s.at)}</TableCell>
                {compact ? (
                  // A phone: the fuel's short name beside the tonnes (the long names take three lines).
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {tonnesText(s.robTonnes)} {CHANNEL_FUEL_TYPE_NAMES[s.fuelType]}
                  </TableCell>
                ) : (
                  <>
                    <TableCell>{FUEL_TYPE_NAMES[s.fuelType]}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {tonnesText(s.robTonnes)}
                    </TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{s.enteredBy}</TableCell>
                  </>
                )}
                <TableCell align="right">
                  {onRemove && (
                    <Tooltip title="Delete the sounding">
                      <IconButton
                        size="small"
                        aria-label={`Delete the sounding of ${formatDateTime(s.at)}`}
                        onClick={() => onRemove(s)}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/**
 * /facilities/{id}/fuel-records: what people enter for the ship's carbon ledger beside its flow meters. The
 * reconciliation of a period, the bunker delivery notes (entered, changed and withdrawn through a dialog; each one
 * in the record book), the tank soundings, and the import of noon reports into the voyages' cargo. With `?year=`
 * in the address (the verification view's links) the lists and the reconciliation are that year's; a role that
 * may not write the ledger (a verifier) sees them without the controls that change them.
 */
export default function FuelRecordsPage() {
  const { facilityId = '' } = useParams();
  const ledgerYear = useLedgerYear();
  const days = ledgerYear?.days ?? null;
  const { profile } = useSession();
  const writes = mayWriteLedger(profile?.roles ?? []);
  const notify = useNotify();
  const removeSounding = useRemoveSounding(facilityId);
  const [dialog, setDialog] = useState<
    | { kind: 'bdn'; note?: Bdn }
    | { kind: 'sounding' }
    | { kind: 'remove-sounding'; sounding: TankSounding }
    | null
  >(null);
  const close = () => setDialog(null);

  return (
    <Box data-testid="fuel-records-page">
      <ShipTabs facilityId={facilityId} current="fuel-records" />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {ledgerYear
          ? `Bunker delivery notes and tank soundings of the ship in ${ledgerYear.year}, and how the fuel they account for compares with the flow meters.`
          : 'Bunker delivery notes, tank soundings and noon reports of the ship, and how the fuel they account for compares with the flow meters.'}
      </Typography>
      <Stack spacing={2}>
        <ReconciliationCard facilityId={facilityId} days={ledgerYear?.daysSoFar ?? null} />
        <Card variant="outlined">
          <CardContent>
            <SectionHeader
              title="Bunker delivery notes"
              action={
                writes && (
                  <Button
                    variant="contained"
                    startIcon={<AddIcon />}
                    onClick={() => setDialog({ kind: 'bdn' })}
                  >
                    New note
                  </Button>
                )
              }
            />
            <BdnTable
              facilityId={facilityId}
              days={days}
              onEdit={writes ? (note) => setDialog({ kind: 'bdn', note }) : undefined}
            />
          </CardContent>
        </Card>
        <Card variant="outlined">
          <CardContent>
            <SectionHeader
              title="Tank soundings"
              action={
                writes && (
                  <Button
                    variant="outlined"
                    startIcon={<AddIcon />}
                    onClick={() => setDialog({ kind: 'sounding' })}
                  >
                    New sounding
                  </Button>
                )
              }
            />
            <SoundingTable
              facilityId={facilityId}
              days={days}
              onRemove={writes ? (sounding) => setDialog({ kind: 'remove-sounding', sounding }) : undefined}
            />
          </CardContent>
        </Card>
        {writes && <NoonReportCard facilityId={facilityId} />}
      </Stack>
      {dialog?.kind === 'bdn' && (
        <BdnDialog
          key={dialog.note?.id ?? 'new'}
          facilityId={facilityId}
          note={dialog.note}
          onClose={close}
        />
      )}
      {dialog?.kind === 'sounding' && <SoundingDialog facilityId={facilityId} onClose={close} />}
      {dialog?.kind === 'remove-sounding' && (
        <ConfirmDialog
          title="Delete this tank sounding?"
          text={`The sounding of ${formatDateTime(dialog.sounding.at)} UTC, ${tonnesText(dialog.sounding.robTonnes)} ${FUEL_TYPE_NAMES[dialog.sounding.fuelType]} remaining on board, no longer counts in the reconciliation.`}
          confirmLabel="Delete"
          busy={removeSounding.isPending}
          onClose={close}
          onConfirm={() =>
            removeSounding.mutate(dialog.sounding.id, {
              onSuccess: () => {
                notify.success();
                close();
              },
              onError: (cause) => notify.error(undefined, cause),
            })
          }
        />
      )}
    </Box>
  );
}
