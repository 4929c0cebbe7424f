import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  DialogContentText,
  Grid,
  List,
  ListItem,
  ListItemText,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import EditNoteIcon from '@mui/icons-material/EditNote';
import {
  eventReportBodySchema,
  eventReportFieldsOf,
  type ComplianceEvent,
  type EventReport,
  type EventReportFields,
} from '@portal/contracts/events';
import {
  fieldErrors,
  reportCardState,
  revisionDownloadable,
  revisionLine,
  validateReportRevision,
  validateReportSent,
} from '@portal/contracts/forms';
import { useNotify } from '../../lib/notifications';
import { pickerDayText, toPickerValue, UtcDatePicker } from '../../ui/dates/pickers';
import { draftAfterAnswer } from './display';
import {
  downloadEventReport,
  downloadReportRevision,
  eventReportQuery,
  failureMessage,
  useMarkReportSent,
  useReviseEventReport,
  useSaveEventReport,
} from './events-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

type Draft = EventReportFields;
/** The report's fields in the order of Circ.883's list, with their labels. */
const FIELDS: { key: keyof Draft; label: string; multiline?: boolean; half?: boolean }[] = [
  { key: 'shipName', label: 'Ship', half: true },
  { key: 'imo', label: 'IMO number', half: true },
  { key: 'position', label: 'Position', half: true },
  { key: 'start', label: 'Start', half: true },
  { key: 'duration', label: 'Duration', half: true },
  { key: 'expectedRepair', label: 'Expected time to repair', half: true },
  { key: 'egcs', label: 'EGCS', multiline: true },
  { key: 'instrument', label: 'Instrument and readings', multiline: true },
  { key: 'cause', label: 'Cause', multiline: true },
  { key: 'actionsTaken', label: 'Actions taken', multiline: true },
  { key: 'actionsPlanned', label: 'Actions planned', multiline: true },
];
const draftOf = eventReportFieldsOf;
const sameDraft = (a: Draft, b: Draft) => FIELDS.every((f) => a[f.key] === b[f.key]);

/** New revision: asks why the sent report is superseded; the revision starts as the report was sent. */
function NewRevisionDialog({ event, onClose }: { event: ComplianceEvent; onClose(): void }) {
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const revise = useReviseEventReport(event.id);
  const notify = useNotify();
  const errors = validateReportRevision({ reason });
  const submit = () => {
    setTouched(true);
    if (errors.reason) return;
    revise.mutate(
      { reason },
      {
        onSuccess: () => {
          notify.success();
          onClose();
        },
        onError: (error) => notify.error(failureMessage(error), error),
      },
    );
  };
  return (
    <FormDialog
      title="New revision"
      onClose={onClose}
      submitLabel="Make revision"
      onSubmit={submit}
      busy={revise.isPending}
    >
      <DialogContentText sx={{ mb: 2 }}>
        The report as sent is kept. The new revision starts from it: edit it, then mark it as sent. Its PDF
        says which revision it supersedes and why.
      </DialogContentText>
      <TextField
        label="Reason"
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        onBlur={() => setTouched(true)}
        error={touched && Boolean(errors.reason)}
        helperText={touched ? errors.reason : undefined}
        required
        multiline
        minRows={2}
        fullWidth
        autoFocus
        slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'revision-reason' } }}
      />
    </FormDialog>
  );
}

/** Every revision made: who made it and why, when it was sent, its SHA-256 and its PDF as sent. */
function RevisionList({ event, report }: { event: ComplianceEvent; report: EventReport }) {
  const notify = useNotify();
  const [downloading, setDownloading] = useState<number | null>(null);
  const download = async (revision: number) => {
    setDownloading(revision);
    try {
      await downloadReportRevision(event, revision);
    } catch (error) {
      notify.error(failureMessage(error), error);
    } finally {
      setDownloading(null);
    }
  };
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="subtitle2" component="h3">
        Revisions
      </Typography>
      <List dense disablePadding data-testid="report-revisions">
        {report.revisions.map((r) => {
          const line = revisionLine(r);
          return (
            <ListItem
              key={r.number}
              disableGutters
              data-testid="report-revision"
              data-revision={r.number}
              secondaryAction={
                revisionDownloadable(r) ? (
                  <Button
                    size="small"
                    startIcon={<DownloadIcon />}
                    disabled={downloading !== null}
                    onClick={() => void download(r.number)}
                    aria-label={`Download revision ${r.number} (PDF)`}
                  >
                    PDF
                  </Button>
                ) : undefined
              }
              sx={{ pr: 10 }}
            >
              <ListItemText
                primary={line.title}
                secondary={line.detail || undefined}
                slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          );
        })}
      </List>
    </Box>
  );
}

/**
 * The report to the flag State and the port State (MEPC.1/Circ.883/Rev.1) of an event that needs one: the draft
 * filled from the event and its acknowledgement, editable and saved, downloaded as PDF, and marked as sent. Once sent
 * it is frozen (docs/decisions/0104-sent-reports.md): read only, its PDF as sent, superseded only by a new revision.
 */
export function ReportCard({ event }: { event: ComplianceEvent }) {
  const report = useQuery(eventReportQuery(event.id));
  const save = useSaveEventReport(event.id);
  const markSent = useMarkReportSent(event.id);
  const notify = useNotify();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [sentOn, setSentOn] = useState<Dayjs | null>(() => toPickerValue(new Date()));
  const [sentTouched, setSentTouched] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [revising, setRevising] = useState(false);
  const saved = report.data ? draftOf(report.data) : null;
  // The draft follows the server's until the user edits it (an acknowledgement fills cause and actions).
  const lastSaved = useRef<Draft | null>(null);
  useEffect(() => {
    if (!report.data) return;
    const next = draftOf(report.data);
    // The updater may run later than this effect: it compares with the draft saved before this answer.
    const before = lastSaved.current;
    setDraft((d) => draftAfterAnswer(d, before, next));
    lastSaved.current = next;
  }, [report.data]);
  if (report.isError) return <Alert severity="error">The report could not be loaded.</Alert>;
  const data = report.data;
  if (!draft || !saved || !data)
    return (
      <Card>
        <CardContent>
          <Skeleton variant="rounded" height={320} />
        </CardContent>
      </Card>
    );
  const state = reportCardState(data);
  // A sent report shows what was sent, whatever was typed before it was marked sent elsewhere.
  const shown = state.editable ? draft : saved;
  const errors = state.editable ? fieldErrors(eventReportBodySchema, draft) : {};
  const dirty = state.editable && !sameDraft(draft, saved);
  const sentErrors = validateReportSent(pickerDayText(sentOn));

  const saveDraft = () =>
    save.mutateAsync(draft).then(
      () => {
        notify.success();
        return true;
      },
      (error: unknown) => {
        notify.error(failureMessage(error), error);
        return false;
      },
    );
  const download = async () => {
    setDownloading(true);
    try {
      // What is downloaded is what is saved: unsaved edits are saved first.
      if (dirty && !(await saveDraft())) return;
      await downloadEventReport(event);
    } catch (error) {
      notify.error(failureMessage(error), error);
    } finally {
      setDownloading(false);
    }
  };
  const send = () => {
    setSentTouched(true);
    const day = pickerDayText(sentOn);
    if (!day || Object.keys(sentErrors).length) return;
    markSent.mutate(day, {
      onSuccess: () => notify.success(),
      onError: (error) => notify.error(failureMessage(error), error),
    });
  };

  return (
    <Card data-testid="event-report-card">
      <CardContent>
        <Typography variant="h6" component="h2">
          Report to the flag State and the port State
        </Typography>
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ mb: 2, overflowWrap: 'anywhere' }}
          data-testid="report-status"
        >
          {state.status}
        </Typography>
        <Grid container spacing={2}>
          {FIELDS.map((f) => (
            <Grid key={f.key} size={{ xs: 12, md: f.half ? 6 : 12 }}>
              <TextField
                label={f.label}
                value={shown[f.key]}
                onChange={(e) => setDraft((d) => (d ? { ...d, [f.key]: e.target.value } : d))}
                error={Boolean(errors[f.key])}
                helperText={errors[f.key]}
                multiline={f.multiline}
                minRows={f.multiline ? 2 : undefined}
                fullWidth
                size="small"
                // Read only once sent: shaded, so it does not look like a field waiting for input.
                sx={state.editable ? undefined : { '& .MuiInputBase-root': { bgcolor: 'action.hover' } }}
                slotProps={{
                  htmlInput: { 'data-testid': `report-${f.key}`, readOnly: !state.editable },
                }}
              />
            </Grid>
          ))}
        </Grid>
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
          {state.editable && (
            <Button
              variant="contained"
              disabled={!dirty || save.isPending || Object.keys(errors).length > 0}
              onClick={() => void saveDraft()}
            >
              Save
            </Button>
          )}
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            disabled={downloading || Object.keys(errors).length > 0}
            onClick={() => void download()}
          >
            Download (PDF)
          </Button>
          {state.canRevise && (
            <Button variant="outlined" startIcon={<EditNoteIcon />} onClick={() => setRevising(true)}>
              New revision
            </Button>
          )}
        </Stack>
        {state.canMarkSent && (
          <Box sx={{ mt: 3 }}>
            <Typography variant="subtitle2" component="h3" gutterBottom>
              Mark as sent
            </Typography>
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={1}
              sx={{ alignItems: { sm: 'flex-start' } }}
            >
              <UtcDatePicker
                label="Sent on"
                value={sentOn}
                onChange={(v) => {
                  setSentOn(v);
                  setSentTouched(true);
                }}
                disableFuture
                slotProps={{
                  textField: {
                    size: 'small',
                    error: sentTouched && Boolean(sentErrors.sentOn),
                    helperText: sentTouched ? sentErrors.sentOn : undefined,
                  },
                }}
              />
              <Button
                variant="outlined"
                disabled={markSent.isPending}
                onClick={send}
                sx={{ mt: { sm: 0.25 } }}
              >
                Mark as sent
              </Button>
            </Stack>
          </Box>
        )}
        {data.revisions.length > 0 && <RevisionList event={event} report={data} />}
        {revising && <NewRevisionDialog event={event} onClose={() => setRevising(false)} />}
      </CardContent>
    </Card>
  );
}
