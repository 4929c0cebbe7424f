import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Radio,
  RadioGroup,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import type { AssignableRole, OrganizationUser } from '@portal/contracts/organizations';
import { passwordChecklist, validateUserForm, type UserFormValues } from '@portal/contracts/forms';
import { DEFAULT_ROLE, DIALOG_WIDTHS, MESSAGES } from '@portal/contracts/rules';
import { ApiRequestError } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { ConfirmDialog } from '../../ui/dialogs/ConfirmDialog';
import { useCreateUser, useDeleteUser, useUpdateUser } from './users-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

type Field = keyof UserFormValues;

/**
 * Add or edit a user: Username (used for login), set new password (always when adding), password and confirmation
 * with the live checklist, one role, Delete (with "Delete user?"), Close, Add or Save.
 */
export function UserDialog({
  organizationId,
  user,
  roles,
  onClose,
}: {
  organizationId: string;
  user?: OrganizationUser;
  roles: AssignableRole[];
  onClose(): void;
}) {
  const mode = user ? 'update' : 'create';
  const [values, setValues] = useState<UserFormValues>({
    username: user?.username ?? '',
    role: user?.roles[0] ?? DEFAULT_ROLE,
    setNewPassword: !user,
    password: '',
    confirmPassword: '',
  });
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [generated, setGenerated] = useState<{ username: string; password: string } | null>(null);
  const create = useCreateUser(organizationId);
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const { error, success } = useNotify();
  // A password typed on create is checked like any other; left empty, one is generated.
  const errors = validateUserForm(values, mode);
  const valid = Object.keys(errors).length === 0;
  const shown = (field: Field) => (touched[field] ? errors[field] : undefined);
  const checklist = passwordChecklist(values.password);
  const passwordShown = mode === 'create' || values.setNewPassword;
  const failed = (cause: Error) =>
    error(cause instanceof ApiRequestError && cause.status === 409 ? cause.message : undefined, cause);
  const set = <K extends Field>(field: K, value: UserFormValues[K]) =>
    setValues((v) => ({ ...v, [field]: value }));
  const touch = (field: Field) => setTouched((t) => ({ ...t, [field]: true }));

  const submit = () => {
    if (mode === 'create') {
      create.mutate(values, {
        onSuccess: ({ user: created, generatedPassword }) => {
          success(MESSAGES.USER_CREATED);
          if (generatedPassword) setGenerated({ username: created.username, password: generatedPassword });
          else onClose();
        },
        onError: failed,
      });
    } else {
      update.mutate(
        { id: user!.id, values },
        {
          onSuccess: () => {
            success(MESSAGES.USER_UPDATED);
            onClose();
          },
          onError: failed,
        },
      );
    }
  };

  if (generated) {
    return (
      <Dialog
        open
        onClose={onClose}
        fullWidth
        maxWidth={false}
        slotProps={{ paper: { sx: { maxWidth: DIALOG_WIDTHS.normal } } }}
      >
        <DialogTitle>Password of {generated.username}</DialogTitle>
        <DialogContent>
          <Typography>The password was generated. Give it to the user now: it is not shown again.</Typography>
          <Typography variant="h5" sx={{ fontFamily: 'monospace', my: 2 }} data-testid="generated-password">
            {generated.password}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => void navigator.clipboard?.writeText(generated.password)}>Copy</Button>
          <Button variant="contained" onClick={onClose}>
            Close
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  const check = (ok: boolean, text: string) => (
    <ListItem dense disableGutters>
      <ListItemIcon sx={{ minWidth: 32 }}>
        {ok ? (
          <CheckCircleIcon color="success" fontSize="small" />
        ) : (
          <RadioButtonUncheckedIcon fontSize="small" />
        )}
      </ListItemIcon>
      <ListItemText primary={text} />
    </ListItem>
  );

  return (
    <FormDialog
      title={user ? 'Edit user' : 'Add user'}
      onClose={onClose}
      cancelLabel="Close"
      submitLabel={user ? 'Save' : 'Add'}
      onSubmit={submit}
      invalid={!valid}
      busy={create.isPending || update.isPending}
      startActions={
        user && (
          <Button color="error" onClick={() => setConfirmDelete(true)} sx={{ mr: 'auto' }}>
            Delete
          </Button>
        )
      }
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label="Username"
          value={values.username}
          onChange={(e) => set('username', e.target.value)}
          onBlur={() => touch('username')}
          error={Boolean(shown('username'))}
          helperText={shown('username') ?? 'Used for login'}
          autoComplete="off"
          fullWidth
        />
        {mode === 'update' && (
          <FormControlLabel
            control={
              <Switch
                checked={values.setNewPassword}
                onChange={(e) => set('setNewPassword', e.target.checked)}
              />
            }
            label="Set new password"
          />
        )}
        {passwordShown && (
          <>
            <TextField
              label="Password"
              type="password"
              value={values.password}
              onChange={(e) => set('password', e.target.value)}
              onBlur={() => touch('password')}
              error={Boolean(shown('password'))}
              helperText={
                shown('password') ?? (mode === 'create' ? 'Leave empty to generate a password' : undefined)
              }
              autoComplete="new-password"
              fullWidth
            />
            <List dense disablePadding aria-label="Password rules">
              {check(checklist.minLength, 'Minimum 8 characters')}
              {check(checklist.number, 'At least 1 number')}
              {check(checklist.letter, 'At least 1 letter')}
            </List>
            <TextField
              label="Confirm password"
              type="password"
              value={values.confirmPassword}
              onChange={(e) => set('confirmPassword', e.target.value)}
              onBlur={() => touch('confirmPassword')}
              error={Boolean(shown('confirmPassword'))}
              helperText={shown('confirmPassword')}
              autoComplete="new-password"
              fullWidth
            />
          </>
        )}
        <FormControl>
          <FormLabel id="user-role">Role</FormLabel>
          <RadioGroup
            aria-labelledby="user-role"
            value={values.role}
            onChange={(e) => set('role', e.target.value as UserFormValues['role'])}
          >
            {roles.map((r) => (
              <FormControlLabel
                key={r.name}
                value={r.name}
                control={<Radio />}
                label={
                  <span>
                    <Typography component="span" sx={{ display: 'block' }}>
                      {r.displayName}
                    </Typography>
                    <Typography component="span" variant="body2" color="text.secondary">
                      {r.summary}
                    </Typography>
                  </span>
                }
              />
            ))}
          </RadioGroup>
        </FormControl>
        {mode === 'create' && values.password === '' && (
          <Alert severity="info">A password of 8 characters will be generated and shown once.</Alert>
        )}
      </Stack>
      {confirmDelete && user && (
        <ConfirmDialog
          title={MESSAGES.DELETE_USER_CONFIRM}
          text={user.username}
          confirmLabel="Delete"
          busy={remove.isPending}
          onClose={() => setConfirmDelete(false)}
          onConfirm={() =>
            remove.mutate(user.id, {
              onSuccess: () => {
                success(MESSAGES.USER_DELETED);
                onClose();
              },
              onError: (cause) =>
                error(
                  cause instanceof ApiRequestError && cause.status === 400 ? cause.message : undefined,
                  cause,
                ),
            })
          }
        />
      )}
    </FormDialog>
  );
}
