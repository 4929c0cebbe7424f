import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  FormControlLabel,
  Skeleton,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { AlertSettings, AlertSubscription } from '@portal/contracts/alerts';
import { validateAlertSubscription } from '@portal/contracts/forms';
import { canManageAllOrganizations, deliveryFailureText, formatDateTime } from '@portal/contracts/rules';
import { serverFieldErrors } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { facilitiesQuery } from '../../lib/queries/facilities';
import { useSession } from '../../lib/session';
import { AlertSettingsFields } from './AlertSettingsFields';
import { alertSubscriptionQuery, organizationChoicesQuery, useSaveAlertSubscription } from './alerts-api';

const SOURCE_TEXT: Record<AlertSubscription['source'], string> = {
  own: 'Your own settings.',
  organization: "Your organization's defaults, set by its administrator.",
  default: "The portal's defaults: malfunctions and reports due of your ships.",
};

/** The profile's Alerts: which events of which ships alert the user, on which channels, and what failed. */
export function AlertSubscriptionCard() {
  const subscription = useQuery(alertSubscriptionQuery());
  const ships = useQuery(facilitiesQuery());
  const { profile } = useSession();
  const systemAdmin = canManageAllOrganizations(profile?.roles ?? []);
  const organizations = useQuery({ ...organizationChoicesQuery(), enabled: systemAdmin });
  const save = useSaveAlertSubscription();
  const { success, error } = useNotify();
  const [email, setEmail] = useState('');
  const [useDefaults, setUseDefaults] = useState(true);
  const [settings, setSettings] = useState<AlertSettings | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});

  const data = subscription.data;
  useEffect(() => {
    if (!data) return;
    setEmail(data.email ?? '');
    setUseDefaults(data.source !== 'own');
    setSettings(data.settings);
  }, [data]);

  if (subscription.isError) return <Alert severity="error">{subscription.error.message}</Alert>;
  if (!data || !settings) return <Skeleton variant="rounded" height={320} />;

  const errors = { ...validateAlertSubscription({ email, useDefaults, settings }), ...serverErrors };
  const shown = submitted ? errors : { ...(email ? { email: errors.email } : {}), ...serverErrors };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(validateAlertSubscription({ email, useDefaults, settings })).length) return;
    const address = email.trim() || null;
    save.mutate(useDefaults ? { email: address, useDefaults: true } : { email: address, settings }, {
      onSuccess: () => {
        success();
        setSubmitted(false);
      },
      onError: (cause) => {
        const fields = serverFieldErrors(cause, 'settings');
        if (fields) setServerErrors(fields);
        error(undefined, cause);
      },
    });
  };

  return (
    <Card component="form" onSubmit={submit} noValidate aria-label="Alerts" data-testid="alert-subscription">
      <CardContent sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="h6" component="h2">
          Alerts
        </Typography>
        <Typography variant="body2" color="text.secondary">
          When an event of your ships opens, is classified up, waits for an acknowledgement or ends, the
          portal tells you in the bell and by e-mail. In force now: {SOURCE_TEXT[data.source]}
        </Typography>
        {data.failures.map((f) => (
          <Alert severity="error" key={`${f.failedOn}${f.address}`} data-testid="alert-delivery-failure">
            {deliveryFailureText(f)} ({formatDateTime(f.failedOn)})
          </Alert>
        ))}
        <TextField
          label="E-mail address for alerts"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setServerErrors({});
          }}
          error={Boolean(shown.email)}
          helperText={shown.email || ' '}
        />
        <FormControlLabel
          control={
            <Switch
              checked={useDefaults}
              onChange={(e) => {
                setUseDefaults(e.target.checked);
                setServerErrors({});
              }}
            />
          }
          label="Use my organization's defaults"
        />
        <AlertSettingsFields
          idPrefix="my-alerts"
          value={settings}
          onChange={(next) => {
            setSettings(next);
            setServerErrors({});
          }}
          ships={ships.data ?? []}
          organizations={systemAdmin ? (organizations.data ?? []) : undefined}
          errors={useDefaults ? {} : shown}
          disabled={useDefaults}
        />
        <Box>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Button type="submit" variant="contained" disabled={save.isPending}>
              Save alerts
            </Button>
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}
