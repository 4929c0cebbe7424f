import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardContent,
  DialogContentText,
  FormControl,
  FormHelperText,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { EVENT_CAUSES, EVENT_CAUSE_NAMES, type ComplianceEvent } from '@portal/contracts/events';
import { acknowledgeBody, validateAcknowledge, type AcknowledgeFormValues } from '@portal/contracts/forms';
import { formatDateTime } from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { useSession } from '../../lib/session';
import { closeBlockedReason, mayCloseEvents } from './display';
import { failureMessage, useAcknowledgeEvent, useCloseEvent } from './events-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

const valuesOf = (event: ComplianceEvent): AcknowledgeFormValues => ({
  cause: event.cause ?? '',
  actionsTaken: event.actionsTaken ?? '',
  comment: event.comment ?? '',
});

function CloseDialog({ event, onClose }: { event: ComplianceEvent; onClose(): void }) {
  const [comment, setComment] = useState('');
  const close = useCloseEvent(event.id);
  const notify = useNotify();
  const submit = () =>
    close.mutate(comment, {
      onSuccess: () => {
        notify.success();
        onClose();
      },
      onError: (error) => notify.error(failureMessage(error), error),
    });
  return (
    <FormDialog
      title="Close event"
      onClose={onClose}
      submitLabel="Close event"
      onSubmit={submit}
      busy={close.isPending}
    >
      <DialogContentText sx={{ mb: 2 }}>
        A closed event can no longer be acknowledged or changed. The closure is entered in the ship&apos;s
        record book.
      </DialogContentText>
      <TextField
        label="Comment"
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        multiline
        minRows={2}
        fullWidth
        slotProps={{ htmlInput: { maxLength: 4000 } }}
      />
    </FormDialog>
  );
}

/**
 * What people add to an event: anyone who sees the ship acknowledges it with a cause from the fixed list, the
 * actions taken and a comment (and may change them until it is closed); an administrator closes it.
 */
export function AnnotationCard({ event }: { event: ComplianceEvent }) {
  const { profile } = useSession();
  const notify = useNotify();
  const acknowledge = useAcknowledgeEvent(event.id);
  const [values, setValues] = useState(() => valuesOf(event));
  const [touched, setTouched] = useState<Partial<Record<keyof AcknowledgeFormValues, boolean>>>({});
  const [closing, setClosing] = useState(false);
  const errors = validateAcknowledge(values);
  const shown = (field: keyof AcknowledgeFormValues) => (touched[field] ? errors[field] : undefined);
  const admin = mayCloseEvents(profile?.roles ?? []);
  const blocked = closeBlockedReason(event);
  const closed = event.state === 'closed';

  const submit = () => {
    setTouched({ cause: true, actionsTaken: true, comment: true });
    if (Object.keys(errors).length) return;
    acknowledge.mutate(acknowledgeBody(values), {
      onSuccess: (saved) => {
        setValues(valuesOf(saved));
        notify.success();
      },
      onError: (error) => notify.error(failureMessage(error), error),
    });
  };

  return (
    <Card data-testid="event-annotation">
      <CardContent>
        <Typography variant="h6" component="h2">
          Acknowledgement
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }} data-testid="annotation-status">
          {event.acknowledgedOn
            ? `Acknowledged by ${event.acknowledgedBy ?? 'a former user'} on ${formatDateTime(event.acknowledgedOn)} UTC`
            : 'Not acknowledged yet'}
          {event.closedOn
            ? ` · closed by ${event.closedBy ?? 'a former user'} on ${formatDateTime(event.closedOn)} UTC`
            : ''}
        </Typography>
        {closed ? (
          <Stack spacing={1} data-testid="annotation-read-only">
            <Typography variant="body2">
              <strong>Cause:</strong> {event.cause ? EVENT_CAUSE_NAMES[event.cause] : 'Not recorded'}
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              <strong>Actions taken:</strong> {event.actionsTaken || 'Not recorded'}
            </Typography>
            {event.comment ? (
              <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                <strong>Comment:</strong> {event.comment}
              </Typography>
            ) : null}
          </Stack>
        ) : (
          <Stack spacing={2} component="form" noValidate onSubmit={(e) => (e.preventDefault(), submit())}>
            <FormControl fullWidth error={Boolean(shown('cause'))} required>
              <InputLabel id="event-cause-label">Cause</InputLabel>
              <Select
                labelId="event-cause-label"
                label="Cause"
                value={values.cause}
                onChange={(e) => setValues((v) => ({ ...v, cause: e.target.value }))}
                onClose={() => setTouched((t) => ({ ...t, cause: true }))}
                data-testid="event-cause"
              >
                {EVENT_CAUSES.map((c) => (
                  <MenuItem key={c} value={c}>
                    {EVENT_CAUSE_NAMES[c]}
                  </MenuItem>
                ))}
              </Select>
              {shown('cause') && <FormHelperText>{shown('cause')}</FormHelperText>}
            </FormControl>
            <TextField
              label="Actions taken"
              required
              value={values.actionsTaken}
              onChange={(e) => setValues((v) => ({ ...v, actionsTaken: e.target.value }))}
              onBlur={() => setTouched((t) => ({ ...t, actionsTaken: true }))}
              error={Boolean(shown('actionsTaken'))}
              helperText={shown('actionsTaken')}
              multiline
              minRows={2}
              fullWidth
            />
            <TextField
              label="Comment"
              value={values.comment}
              onChange={(e) => setValues((v) => ({ ...v, comment: e.target.value }))}
              onBlur={() => setTouched((t) => ({ ...t, comment: true }))}
              error={Boolean(shown('comment'))}
              helperText={shown('comment')}
              multiline
              minRows={2}
              fullWidth
            />
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
              <Button type="submit" variant="contained" disabled={acknowledge.isPending}>
                {event.state === 'acknowledged' ? 'Save' : 'Acknowledge'}
              </Button>
              {admin && (
                <Button variant="outlined" disabled={Boolean(blocked)} onClick={() => setClosing(true)}>
                  Close event
                </Button>
              )}
            </Stack>
            {admin && blocked && (
              <Alert severity="info" data-testid="close-blocked">
                {blocked}
              </Alert>
            )}
          </Stack>
        )}
      </CardContent>
      {closing && <CloseDialog event={event} onClose={() => setClosing(false)} />}
    </Card>
  );
}
