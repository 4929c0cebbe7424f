import { useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { passwordChecklist, validateNewPassword } from '@portal/contracts/forms';
import { ROLES } from '@portal/contracts/rules';
import { FLEET_ROLES, mayOpen } from '../../lib/access';
import { ApiRequestError } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { useSession } from '../../lib/session';
import { useChangePassword } from './change-password-api';
import { AlertSubscriptionCard } from '../alerts';

const CURRENT_REQUIRED = 'Your current password is required';

/** /profile: who is signed in, the alerts the user gets, and the change password form with the password rules. */
export default function ProfilePage() {
  const { profile } = useSession();
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, display: 'grid', gap: 3, maxWidth: 720 }}>
      <Typography variant="h5" component="h1">
        My profile
      </Typography>
      <Card>
        <CardContent>
          <Typography variant="overline" color="text.secondary">
            Username
          </Typography>
          <Typography variant="h6" component="div" data-testid="signed-in-user">
            {profile?.username}
          </Typography>
          <Typography variant="overline" color="text.secondary" component="p" sx={{ mt: 1 }}>
            Organization
          </Typography>
          <Typography data-testid="signed-in-organization">{profile?.organizationName}</Typography>
          <Typography variant="overline" color="text.secondary" component="p" sx={{ mt: 1 }}>
            Role
          </Typography>
          <Stack direction="row" spacing={1}>
            {profile?.roles.map((role) => (
              <Chip
                key={role}
                label={role}
                title={ROLES[role]?.summary}
                data-testid="signed-in-role"
                size="small"
              />
            ))}
          </Stack>
        </CardContent>
      </Card>
      {/* Alerts are of the fleet's ships; a verifier reads the ledger of its years and gets none (the API refuses it). */}
      {profile && mayOpen(profile.roles, [FLEET_ROLES]) && <AlertSubscriptionCard />}
      <ChangePasswordCard userId={profile?.sub} />
    </Box>
  );
}

function ChangePasswordCard({ userId }: { userId: string | undefined }) {
  const empty = { currentPassword: '', password: '', confirmPassword: '' };
  const [values, setValues] = useState(empty);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const change = useChangePassword(userId);
  const { success, error } = useNotify();
  const errors = {
    ...validateNewPassword(values),
    ...(values.currentPassword ? {} : { currentPassword: CURRENT_REQUIRED }),
  };
  const checklist = passwordChecklist(values.password);
  const show = (field: 'currentPassword' | 'password' | 'confirmPassword') =>
    serverErrors[field] ??
    (submitted || (field !== 'currentPassword' && values[field]) ? errors[field] : undefined);

  const set = (field: keyof typeof empty) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setServerErrors({});
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length) return;
    change.mutate(
      { currentPassword: values.currentPassword, newPassword: values.password },
      {
        onSuccess: () => {
          success('Your password was changed');
          setValues(empty);
          setSubmitted(false);
        },
        onError: (cause) => {
          const fields = cause instanceof ApiRequestError ? cause.body?.fields : undefined;
          if (fields)
            setServerErrors({
              currentPassword: fields.currentPassword ?? '',
              password: fields.newPassword ?? '',
            });
          else error(undefined, cause);
        },
      },
    );
  };
  const rule = (ok: boolean, text: string) => (
    <ListItem disableGutters sx={{ py: 0 }}>
      <ListItemIcon sx={{ minWidth: 28 }}>
        {ok ? (
          <CheckCircleIcon color="success" fontSize="small" />
        ) : (
          <RadioButtonUncheckedIcon fontSize="small" />
        )}
      </ListItemIcon>
      <ListItemText primary={text} slotProps={{ primary: { variant: 'body2' } }} />
    </ListItem>
  );
  return (
    <Card component="form" onSubmit={submit} noValidate aria-label="Change password">
      <CardContent sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="h6" component="h2">
          Change password
        </Typography>
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={set('currentPassword')}
          error={Boolean(show('currentPassword'))}
          helperText={show('currentPassword') || ' '}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          error={Boolean(show('password'))}
          helperText={show('password') || ' '}
        />
        <List dense disablePadding aria-label="Password rules">
          {rule(checklist.minLength, 'At least 8 characters')}
          {rule(checklist.number, 'At least 1 number')}
          {rule(checklist.letter, 'At least 1 letter')}
        </List>
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={set('confirmPassword')}
          error={Boolean(show('confirmPassword'))}
          helperText={show('confirmPassword') || ' '}
        />
        {change.isSuccess && <Alert severity="success">Your password was changed.</Alert>}
        <Box>
          <Button type="submit" variant="contained" disabled={change.isPending}>
            Change password
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
