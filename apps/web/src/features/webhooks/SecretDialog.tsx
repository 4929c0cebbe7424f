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
import { useNotify } from '../../lib/notifications';

/** A webhook's secret, shown once (after Add and Rotate secret) with a copy button. */
export function SecretDialog({ secret, url, onClose }: { secret: string; url: string; onClose(): void }) {
  const { notify, error } = useNotify();
  const copy = () =>
    navigator.clipboard
      .writeText(secret)
      .then(() => notify('Secret copied', 'success'))
      .catch((cause: unknown) => error('The secret could not be copied: select it and copy it', cause));
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: DIALOG_WIDTHS.normal } } }}
    >
      <DialogTitle>Webhook secret</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <DialogContentText>
            Copy the secret now: it is not shown again. The receiver at {url} checks the X-Portal-Signature of
            each delivery with it.
          </DialogContentText>
          <TextField
            label="Secret"
            value={secret}
            fullWidth
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'webhook-secret' } }}
            onFocus={(e) => e.target.select()}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={copy}>Copy</Button>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
