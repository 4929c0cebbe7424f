import { useState } from 'react';
import { Stack, TextField, Typography } from '@mui/material';
import type { ComplianceDeadline } from '@portal/contracts/compliance-calendar';
import { useNotify } from '../../lib/notifications';
import { FormDialog } from '../../ui/dialogs/FormDialog';
import { failureMessage, useDeadlineDone } from './calendar-api';
import { doneBody, formatDay, type DoneFormValues } from './display';

/**
 * "Mark as done": the day a deadline was met and a note (what was filed, with whom, its reference). The portal
 * files nothing itself: this is the record the fleet sees and the reminders read. Audited by the API.
 */
export function MarkDoneDialog({
  organizationId,
  year,
  deadline,
  today,
  onClose,
}: {
  organizationId: string;
  year: number;
  deadline: ComplianceDeadline;
  today: string;
  onClose(): void;
}) {
  const notify = useNotify();
  const { done } = useDeadlineDone(organizationId, year);
  const [values, setValues] = useState<DoneFormValues>({
    doneOn: deadline.dueOn < today ? deadline.dueOn : today,
    note: '',
  });
  const [error, setError] = useState<string>();
  const result = doneBody(values, today);
  const submit = () => {
    if (!result.body) return;
    setError(undefined);
    done.mutate(
      { code: deadline.code, body: result.body },
      {
        onSuccess: () => {
          notify.success();
          onClose();
        },
        onError: (failure) => {
          setError(failureMessage(failure));
          if (!failureMessage(failure)) notify.error(undefined, failure);
        },
      },
    );
  };
  return (
    <FormDialog
      title="Mark as done"
      onClose={onClose}
      submitLabel="Mark as done"
      onSubmit={submit}
      invalid={!result.body}
      busy={done.isPending}
      error={error}
      data-testid="mark-done-dialog"
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {deadline.regimeName}: {deadline.title}, due {formatDay(deadline.dueOn)} for {deadline.reportingYear}.
      </Typography>
      <Stack spacing={2}>
        <TextField
          label="Done on"
          type="date"
          value={values.doneOn}
          onChange={(event) => setValues((v) => ({ ...v, doneOn: event.target.value }))}
          error={Boolean(result.errors?.doneOn)}
          helperText={result.errors?.doneOn ?? 'The day it was filed or paid'}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'done-on', max: today } }}
          fullWidth
        />
        <TextField
          label="Note"
          value={values.note}
          onChange={(event) => setValues((v) => ({ ...v, note: event.target.value }))}
          error={Boolean(result.errors?.note)}
          helperText={
            result.errors?.note ?? 'What was done: the verifier, the reference, the registry transaction'
          }
          slotProps={{ htmlInput: { 'data-testid': 'done-note', maxLength: 500 } }}
          multiline
          minRows={2}
          fullWidth
        />
      </Stack>
    </FormDialog>
  );
}
