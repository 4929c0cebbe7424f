import { useId, type ReactNode, type SyntheticEvent } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  useMediaQuery,
  useTheme,
  type ButtonProps,
  type SxProps,
  type Theme,
} from '@mui/material';
import { DIALOG_WIDTHS } from '@portal/contracts/rules';

export interface FormDialogProps {
  /** The dialog's title: also its accessible name. */
  title: ReactNode;
  /** The paper's width on a larger screen (DIALOG_WIDTHS); on a phone the dialog fills the screen. */
  width?: keyof typeof DIALOG_WIDTHS;
  /** For a dialog kept mounted while closed; by default it is open while rendered. */
  open?: boolean;
  /** Cancel, Escape and a click beside the dialog. Without it the dialog closes only through its buttons. */
  onClose?: () => void;
  /** The button that closes without sending ('Cancel' by default, 'Close' where the spec says so); null: none. */
  cancelLabel?: string | null;
  /** The submit button's text (Save, Add, Upload…). */
  submitLabel: ReactNode;
  submitColor?: ButtonProps['color'];
  submitIcon?: ReactNode;
  /** Sends the form: the submit button, or Enter in one of its text fields, when neither `invalid` nor `busy`. */
  onSubmit(): void;
  /** The form cannot be sent as it stands: the submit button is disabled. */
  invalid?: boolean;
  /** The form is being sent: the submit button is disabled until the answer. */
  busy?: boolean;
  /** Why the server refused the form: an alert under the fields. */
  error?: ReactNode;
  /** Buttons at the start of the actions, apart from the others (Delete, Remove, Stop). */
  startActions?: ReactNode;
  /** Buttons between Cancel and the submit button (Accept all, Clear). */
  extraActions?: ReactNode;
  /** Lines between the title, the fields and the actions (a long form that scrolls). */
  dividers?: boolean;
  actionsSx?: SxProps<Theme>;
  'data-testid'?: string;
  /** The fields (and a confirmation the dialog opens: ConfirmDialog, which shows above it). */
  children: ReactNode;
  /**
   * false: the fields are not a form, so Enter in one of them sends nothing; for a dialog that holds a panel with an
   * action of its own (the upload's Run panel), where Enter in the panel's fields must not send the dialog's form.
   */
  enterSubmits?: boolean;
}

// The fields say what is wrong themselves (the contracts' form rules), not the browser's own bubbles. Spread in:
// the paper's props know no form attributes, but pass them on to the form element.
const FORM_ATTRIBUTES = { noValidate: true };

/**
 * The portal's form dialog (docs/decisions/0110-web-layers.md): title, the fields in a form, Cancel and the submit
 * button, the busy state, the server's refusal as an alert. The dialog is named by its title, keeps the focus inside
 * while open and gives it back to what opened it; on a phone (below the `sm` breakpoint) it fills the screen.
 */
export function FormDialog({
  title,
  width = 'normal',
  open = true,
  onClose,
  cancelLabel = 'Cancel',
  submitLabel,
  submitColor,
  submitIcon,
  onSubmit,
  invalid = false,
  busy = false,
  error,
  startActions,
  extraActions,
  dividers,
  actionsSx,
  'data-testid': testId,
  children,
  enterSubmits = true,
}: FormDialogProps) {
  const titleId = useId();
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const submit = (event: SyntheticEvent) => {
    // A form of a dialog opened from this one sends its own: its event reaches here through React's tree only. And
    // this one's stops here: the dialog may be rendered inside a form of the page (React's tree again).
    if (event.target !== event.currentTarget) return;
    event.preventDefault();
    event.stopPropagation();
    if (!invalid && !busy) onSubmit();
  };
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      fullScreen={phone}
      maxWidth={false}
      aria-labelledby={titleId}
      data-testid={testId}
      slotProps={{
        paper: {
          ...(enterSubmits ? { component: 'form', ...FORM_ATTRIBUTES, onSubmit: submit } : {}),
          sx: { maxWidth: phone ? undefined : DIALOG_WIDTHS[width] },
        },
      }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers={dividers}>
        {children}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={actionsSx}>
        {startActions}
        {cancelLabel !== null && onClose && <Button onClick={onClose}>{cancelLabel}</Button>}
        {extraActions}
        <Button
          type={enterSubmits ? 'submit' : 'button'}
          onClick={enterSubmits ? undefined : () => !invalid && !busy && onSubmit()}
          variant="contained"
          color={submitColor}
          startIcon={submitIcon}
          disabled={invalid || busy}
          aria-busy={busy || undefined}
        >
          {submitLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
