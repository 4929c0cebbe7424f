import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import {
  Alert,
  Box,
  Button,
  IconButton,
  Link,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditNoteIcon from '@mui/icons-material/EditNote';
import VerifiedIcon from '@mui/icons-material/Verified';
import DownloadIcon from '@mui/icons-material/Download';
import { RECORD_BOOK_KIND_NAMES, type RecordBookEntryView } from '@portal/contracts/events';
import { formatDateTime, mayWriteLedger } from '@portal/contracts/rules';
import { useFleet } from '../../lib/fleet-context';
import { useLedgerYear, type LedgerYear } from '../../lib/ledger-year';
import { useSession } from '../../lib/session';
import { FLEET_ROLES, mayOpen } from '../../lib/access';
import { useNotify } from '../../lib/notifications';
import { visuallyHidden } from '../../ui/a11y/visually-hidden';
import { pickerDayText, toPickerValue, UtcDatePicker } from '../../ui/dates/pickers';
import { RecordBookEntryDialog } from './RecordBookEntryDialog';
import { ShipTabs } from './ShipTabs';
import { correctionsOf, positionText, shortHash } from './display';
import {
  exportRecordBook,
  failureMessage,
  recordBookQuery,
  useVerifyRecordBook,
  type RecordBookVerification,
} from './events-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

const PAGE_SIZE = 50;
const DAY_MS = 86_400_000;

function ExportDialog({
  facility,
  ledgerYear,
  onClose,
}: {
  facility: { id: string; name: string };
  ledgerYear: LedgerYear | null;
  onClose(): void;
}) {
  const { period } = useFleet();
  const notify = useNotify();
  // The year of the address when it names one (a verifier's reads are of its years), else the fleet period.
  const [from, setFrom] = useState<Dayjs | null>(() => toPickerValue(ledgerYear?.days.from ?? period.from));
  const [to, setTo] = useState<Dayjs | null>(() =>
    toPickerValue(ledgerYear?.days.to ?? new Date(period.to.getTime() - 1)),
  );
  const [busy, setBusy] = useState(false);
  const fromDay = pickerDayText(from);
  const toDay = pickerDayText(to);
  const valid = Boolean(fromDay && toDay && fromDay <= toDay);
  const run = async () => {
    if (!fromDay || !toDay) return;
    setBusy(true);
    try {
      await exportRecordBook(facility, {
        from: `${fromDay}T00:00:00.000Z`,
        // The last day whole.
        to: new Date(Date.parse(`${toDay}T00:00:00.000Z`) + DAY_MS).toISOString(),
      });
      onClose();
    } catch (error) {
      notify.error(failureMessage(error), error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      title="Export the record book"
      onClose={onClose}
      submitLabel="Export .xlsx"
      submitIcon={<DownloadIcon />}
      onSubmit={() => void run()}
      invalid={!valid}
      busy={busy}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        The entries of the days chosen as .xlsx, each with its hash and the previous one, so that an inspector
        can check the chain.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ pt: 1 }}>
        <UtcDatePicker
          label="From (UTC)"
          value={from}
          onChange={setFrom}
          slotProps={{ textField: { fullWidth: true } }}
        />
        <UtcDatePicker
          label="To (UTC)"
          value={to}
          onChange={setTo}
          slotProps={{
            textField: {
              fullWidth: true,
              error: !valid,
              helperText: valid ? undefined : 'From must be before to',
            },
          }}
        />
      </Stack>
    </FormDialog>
  );
}

function VerifyResult({
  result,
  entries,
}: {
  result: RecordBookVerification;
  entries: RecordBookEntryView[];
}) {
  if (result.valid)
    return (
      <Alert severity="success" data-testid="verify-result">
        Record book verified: {result.entries} entries
      </Alert>
    );
  const first = result.firstInvalid;
  const entry = entries.find((e) => e.id === first?.id);
  return (
    <Alert severity="error" data-testid="verify-result">
      The record book does not verify: entry No. {first?.sequence}
      {entry
        ? ` (${RECORD_BOOK_KIND_NAMES[entry.kind] ?? entry.kind}, ${formatDateTime(entry.occurredOn)} UTC)`
        : ''}{' '}
      does not match. {first?.reason}
    </Alert>
  );
}

/**
 * /facilities/{id}/record-book: the ship's record book, newest entry first (in sequence): time (UTC), who,
 * position, kind, text and the hash shortened. Add an entry, correct one (the original stays), verify the chain,
 * export a period as .xlsx. With `?year=` in the address (the verification view's links) the entries are that
 * year's; a role that may not write the ledger (a verifier) neither adds nor corrects.
 */
export default function RecordBookPage() {
  const { facilityId = '' } = useParams();
  const { facilities } = useFleet();
  const ship = facilities?.find((f) => f.id === facilityId);
  const ledgerYear = useLedgerYear();
  const { profile } = useSession();
  const writes = mayWriteLedger(profile?.roles ?? []);
  // A verifier opens no event page (shell/router.tsx): the entry's link to its event is not shown to it.
  const opensEvents = mayOpen(profile?.roles ?? [], [FLEET_ROLES]);
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('md'));
  const book = useQuery(recordBookQuery(facilityId, ledgerYear?.instants));
  const verify = useVerifyRecordBook(facilityId);
  const notify = useNotify();
  const [page, setPage] = useState(0);
  const [adding, setAdding] = useState(false);
  const [correcting, setCorrecting] = useState<RecordBookEntryView | null>(null);
  const [exporting, setExporting] = useState(false);
  const entries = useMemo(() => [...(book.data ?? [])].sort((a, b) => b.sequence - a.sequence), [book.data]);
  const corrections = useMemo(() => correctionsOf(entries), [entries]);
  const sequenceOf = useMemo(() => new Map(entries.map((e) => [e.id, e.sequence])), [entries]);
  const rows = entries.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
  const columns = compact ? 3 : 8;
  // A verification says what the book was when it ran: a new entry makes it old news.
  const { reset } = verify;
  useEffect(() => reset(), [book.dataUpdatedAt, reset]);

  const note = (e: RecordBookEntryView) => {
    const parts: string[] = [];
    if (e.correctsId) parts.push(`Corrects No. ${sequenceOf.get(e.correctsId) ?? '?'}`);
    const by = corrections.get(e.id);
    if (by) parts.push(`Corrected by No. ${by.join(', ')}`);
    return parts.join(' · ');
  };

  return (
    <Box data-testid="record-book-page">
      <ShipTabs facilityId={facilityId} current="record-book" />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        useFlexGap
        sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2, flexWrap: 'wrap' }}
      >
        <Typography variant="body2" color="text.secondary">
          {ledgerYear ? `The entries of ${ledgerYear.year}. ` : ''}Append-only: every entry is chained to the
          one before it by SHA-256; a correction is a new entry.
        </Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button
            variant="outlined"
            startIcon={<VerifiedIcon />}
            disabled={verify.isPending}
            onClick={() =>
              verify.mutate(undefined, { onError: (error) => notify.error(failureMessage(error), error) })
            }
          >
            Verify
          </Button>
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            disabled={!ship}
            onClick={() => setExporting(true)}
          >
            Export .xlsx
          </Button>
          {writes && (
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
              New entry
            </Button>
          )}
        </Stack>
      </Stack>
      {verify.data && (
        <Box sx={{ mb: 2 }}>
          <VerifyResult result={verify.data} entries={entries} />
        </Box>
      )}
      {book.isError ? (
        <Alert severity="error">The record book could not be loaded.</Alert>
      ) : (
        <Paper>
          <TableContainer>
            <Table size="small" aria-label="Record book" data-testid="record-book-table">
              <TableHead>
                <TableRow>
                  <TableCell>No.</TableCell>
                  {compact ? (
                    <TableCell>Entry</TableCell>
                  ) : (
                    <>
                      <TableCell>Time (UTC)</TableCell>
                      <TableCell>Recorded by</TableCell>
                      <TableCell>Position</TableCell>
                      <TableCell>Kind</TableCell>
                      <TableCell>Text</TableCell>
                      <TableCell>Hash</TableCell>
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
                {book.isPending
                  ? [0, 1, 2].map((i) => (
                      <TableRow key={i}>
                        <TableCell colSpan={columns}>
                          <Skeleton />
                        </TableCell>
                      </TableRow>
                    ))
                  : rows.map((e) => {
                      const kind = RECORD_BOOK_KIND_NAMES[e.kind] ?? e.kind;
                      const text = (
                        <>
                          {e.text}
                          {e.eventId && opensEvents && (
                            <>
                              {' '}
                              <Link component={RouterLink} to={`/events/${e.eventId}`} variant="body2">
                                Open the event
                              </Link>
                            </>
                          )}
                          {note(e) && (
                            <Typography variant="caption" color="text.secondary" component="div">
                              {note(e)}
                            </Typography>
                          )}
                        </>
                      );
                      return (
                        <TableRow
                          key={e.id}
                          data-testid="record-book-row"
                          data-kind={e.kind}
                          data-event-id={e.eventId ?? ''}
                        >
                          <TableCell sx={{ verticalAlign: 'top' }}>{e.sequence}</TableCell>
                          {compact ? (
                            <TableCell sx={{ overflowWrap: 'anywhere' }}>
                              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                                {kind}
                              </Typography>
                              <Typography variant="caption" color="text.secondary" component="div">
                                {formatDateTime(e.occurredOn)} UTC · {e.recordedBy} · {shortHash(e.hash)}
                              </Typography>
                              <Typography variant="body2">{text}</Typography>
                            </TableCell>
                          ) : (
                            <>
                              <TableCell sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                                {formatDateTime(e.occurredOn)}
                              </TableCell>
                              <TableCell sx={{ verticalAlign: 'top' }}>{e.recordedBy}</TableCell>
                              <TableCell sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                                {e.latitude === null || e.longitude === null
                                  ? 'Not known'
                                  : positionText({ latitude: e.latitude, longitude: e.longitude })}
                              </TableCell>
                              <TableCell sx={{ verticalAlign: 'top' }}>{kind}</TableCell>
                              <TableCell sx={{ overflowWrap: 'anywhere', verticalAlign: 'top' }}>
                                {text}
                              </TableCell>
                              <TableCell
                                sx={{ fontFamily: 'monospace', verticalAlign: 'top' }}
                                title={e.hash}
                              >
                                {shortHash(e.hash)}
                              </TableCell>
                            </>
                          )}
                          <TableCell align="right" sx={{ verticalAlign: 'top' }}>
                            {writes && (
                              <Tooltip title={`Correct entry No. ${e.sequence}`}>
                                <IconButton
                                  size="small"
                                  aria-label={`Correct entry No. ${e.sequence}`}
                                  onClick={() => setCorrecting(e)}
                                >
                                  <EditNoteIcon fontSize="small" />
                                </IconButton>
                              </Tooltip>
                            )}
                          </TableCell>
                        </TableRow>
                      );
                    })}
                {book.data && entries.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={columns}>
                      <Typography color="text.secondary">No entries</Typography>
                    </TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={entries.length}
            page={Math.min(page, Math.max(0, Math.ceil(entries.length / PAGE_SIZE) - 1))}
            onPageChange={(_e, next) => setPage(next)}
            rowsPerPage={PAGE_SIZE}
            rowsPerPageOptions={[PAGE_SIZE]}
          />
        </Paper>
      )}
      {adding && <RecordBookEntryDialog facilityId={facilityId} onClose={() => setAdding(false)} />}
      {correcting && (
        <RecordBookEntryDialog
          facilityId={facilityId}
          correcting={correcting}
          onClose={() => setCorrecting(null)}
        />
      )}
      {exporting && ship && (
        <ExportDialog facility={ship} ledgerYear={ledgerYear} onClose={() => setExporting(false)} />
      )}
    </Box>
  );
}
