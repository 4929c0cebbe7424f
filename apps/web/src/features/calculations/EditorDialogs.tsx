import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import type { FormulaErrorDto } from '@portal/contracts/calculations';
import { errorText } from './calculation-form';

/** Save found errors: keep the code as a draft (saved without queuing) or keep editing. */
export function DraftDialog({
  open,
  isNew,
  firstError,
  busy,
  onClose,
  onSaveDraft,
}: {
  open: boolean;
  isNew: boolean;
  firstError: FormulaErrorDto | undefined;
  busy: boolean;
  onClose(): void;
  onSaveDraft(): void;
}) {
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="draft-dialog-title">
      <DialogTitle id="draft-dialog-title">The algorithm has errors</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 1 }}>
          {isNew
            ? 'It can be saved as a draft only. Fix the errors shown under Output before you approve it.'
            : 'No recalculation can be queued with it. Save it as a draft without queuing, or keep editing and fix the errors shown under Output.'}
        </Typography>
        {firstError && (
          <Typography variant="body2" color="error" data-testid="draft-first-error">
            {errorText(firstError)}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Keep editing</Button>
        <Button variant="contained" onClick={onSaveDraft} disabled={busy}>
          Save as draft
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function DeleteDialog({
  open,
  version,
  busy,
  onClose,
  onDelete,
}: {
  open: boolean;
  /** The version label of the calculation to delete. */
  version: string;
  busy: boolean;
  onClose(): void;
  onDelete(): void;
}) {
  return (
    <Dialog open={open} onClose={onClose}>
      <DialogTitle>Delete calculation?</DialogTitle>
      <DialogContent>Version {version} will be deleted.</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button color="error" variant="contained" onClick={onDelete} disabled={busy}>
          Delete
        </Button>
      </DialogActions>
    </Dialog>
  );
}
