import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { DIALOG_WIDTHS } from '@portal/contracts/rules';
import { validateApproveValidity, type ApproveValidityValues } from '@portal/contracts/forms';

/** datetime-local text (read as UTC) to an ISO instant; '' stays ''. */
const utc = (local: string) => (!local ? '' : local.length === 16 ? `${local}:00Z` : `${local}Z`);

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
  const [validFrom, setValidFrom] = useState('');
  const [validTo, setValidTo] = useState('');
  const [touched, setTouched] = useState(false);
  const values = { validFrom: utc(validFrom), validTo: utc(validTo) };
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
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: DIALOG_WIDTHS.normal } } }}
    >
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          Times are UTC. Without a Valid to date the calculation stays valid until another calculation is
          approved, from that one&apos;s Valid from on.
        </DialogContentText>
        <Stack spacing={2}>
          <TextField
            label="Valid from"
            type="datetime-local"
            value={validFrom}
            onChange={(e) => setValidFrom(e.target.value)}
            onBlur={() => setTouched(true)}
            error={touched && Boolean(errors.validFrom)}
            helperText={touched ? errors.validFrom : undefined}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'valid-from' } }}
            required
          />
          <TextField
            label="Valid to"
            type="datetime-local"
            value={validTo}
            onChange={(e) => setValidTo(e.target.value)}
            error={Boolean(errors.validTo)}
            helperText={errors.validTo ?? 'Optional'}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'valid-to' } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={submit} disabled={busy || (touched && !valid)}>
          Approve
        </Button>
      </DialogActions>
    </Dialog>
  );
}
