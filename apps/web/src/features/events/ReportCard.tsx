import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Grid,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import {
  eventReportBodySchema,
  eventReportFieldsOf,
  type ComplianceEvent,
  type EventReportFields,
} from '@portal/contracts/events';
import { fieldErrors, validateReportSent } from '@portal/contracts/forms';
import { formatDate } from '@portal/contracts/rules';
import { useNotify } from '../../app/notifications';
import { pickerDayText, toPickerValue, UtcDatePicker } from '../../ui/dates/pickers';
import { draftAfterAnswer } from './display';
import {
  downloadEventReport,
  eventReportQuery,
  failureMessage,
  useMarkReportSent,
  useSaveEventReport,
} from './events-api';

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

/**
 * The report to the flag State and the port State (MEPC.1/Circ.883/Rev.1) of an event that needs one: the draft
 * filled from the event and its acknowledgement, editable and saved, downloaded as PDF, and marked as sent.
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
  if (!draft || !saved)
    return (
      <Card>
        <CardContent>
          <Skeleton variant="rounded" height={320} />
        </CardContent>
      </Card>
    );
  const errors = fieldErrors(eventReportBodySchema, draft);
  const dirty = !sameDraft(draft, saved);
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
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="report-status">
          {report.data?.sentOn
            ? `Sent on ${formatDate(report.data.sentOn)}`
            : 'Required: a malfunction longer than one hour, or repeated (MEPC.1/Circ.883/Rev.1). Not sent yet.'}
        </Typography>
        <Grid container spacing={2}>
          {FIELDS.map((f) => (
            <Grid key={f.key} size={{ xs: 12, md: f.half ? 6 : 12 }}>
              <TextField
                label={f.label}
                value={draft[f.key]}
                onChange={(e) => setDraft((d) => (d ? { ...d, [f.key]: e.target.value } : d))}
                error={Boolean(errors[f.key])}
                helperText={errors[f.key]}
                multiline={f.multiline}
                minRows={f.multiline ? 2 : undefined}
                fullWidth
                size="small"
                slotProps={{ htmlInput: { 'data-testid': `report-${f.key}` } }}
              />
            </Grid>
          ))}
        </Grid>
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
          <Button
            variant="contained"
            disabled={!dirty || save.isPending || Object.keys(errors).length > 0}
            onClick={() => void saveDraft()}
          >
            Save
          </Button>
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            disabled={downloading || Object.keys(errors).length > 0}
            onClick={() => void download()}
          >
            Download (PDF)
          </Button>
        </Stack>
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
            <Button variant="outlined" disabled={markSent.isPending} onClick={send} sx={{ mt: { sm: 0.25 } }}>
              Mark as sent
            </Button>
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}
