import { useState } from 'react';
import { DialogContentText, Stack } from '@mui/material';
import type { Dayjs } from 'dayjs';
import { validateApproveValidity, type ApproveValidityValues } from '@portal/contracts/forms';
import { pickerInstant, UtcDateTimePicker } from '../../ui/dates/pickers';
import { FormDialog } from '../../ui/dialogs/FormDialog';

/** A picker value as the form's text: an ISO instant, '' when empty, 'invalid' while it is no time. */
const instantText = (value: Dayjs | null) => (value ? (pickerInstant(value) ?? 'invalid') : '');

export interface ValidityDialogProps {
  open: boolean;
  title?: string;
  onClose(): void;
  onConfirm(validity: ApproveValidityValues): void | Promise<void>;
  busy?: boolean;
}

/** The Approve dialog: Valid from (required) and Valid to (optional, not before Valid from), in UTC. */
export function ValidityDialog({
  open,
  title = 'Approve calculation',
  onClose,
  onConfirm,
  busy,
}: ValidityDialogProps) {
  const [validFrom, setValidFrom] = useState<Dayjs | null>(null);
  const [validTo, setValidTo] = useState<Dayjs | null>(null);
  const [touched, setTouched] = useState(false);
  const values = { validFrom: instantText(validFrom), validTo: instantText(validTo) };
  const errors = validateApproveValidity(values);
  const valid = Object.keys(errors).length === 0;
  const submit = () => {
    setTouched(true);
    if (!valid) return;
    void onConfirm({
      validFrom: new Date(values.validFrom).toISOString(),
      validTo: values.validTo ? new Date(values.validTo).toISOString() : null,
    });
  };
  return (
    <FormDialog
      title={title}
      open={open}
      onClose={onClose}
      submitLabel="Approve"
      onSubmit={submit}
      invalid={touched && !valid}
      busy={busy}
    >
      <DialogContentText sx={{ mb: 2 }}>
        Times are UTC. Without a Valid to date the calculation stays valid until another calculation is
        approved, from that one&apos;s Valid from on.
      </DialogContentText>
      <Stack spacing={2}>
        <UtcDateTimePicker
          label="Valid from"
          value={validFrom}
          onChange={setValidFrom}
          onClose={() => setTouched(true)}
          slotProps={{
            textField: {
              required: true,
              name: 'validFrom',
              onBlur: () => setTouched(true),
              error: touched && Boolean(errors.validFrom),
              helperText: touched ? errors.validFrom : undefined,
            },
          }}
        />
        <UtcDateTimePicker
          label="Valid to"
          value={validTo}
          onChange={setValidTo}
          slotProps={{
            textField: {
              name: 'validTo',
              error: Boolean(errors.validTo),
              helperText: errors.validTo ?? 'Optional',
            },
          }}
        />
      </Stack>
    </FormDialog>
  );
}
