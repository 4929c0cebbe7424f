import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, FormControlLabel, Skeleton, Switch, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { AlertSettings } from '@portal/contracts/alerts';
import { validateAlertDefaults } from '@portal/contracts/forms';
import { SettingsCard } from '../../ui/forms/SettingsCard';
import { serverFieldErrors } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { facilitiesQuery } from '../../lib/queries/facilities';
import { AlertSettingsFields } from './AlertSettingsFields';
import { alertDefaultsQuery, useSaveAlertDefaults } from './alerts-api';

/**
 * An organization's alert defaults (its administrator or a SystemAdmin): what alerts its users who chose nothing
 * themselves, and the hours a report-required event may wait for an acknowledgement before the reminder, which also
 * goes to the organization's administrators.
 */
export function OrganizationAlertDefaultsCard({ organizationId }: { organizationId: string }) {
  const defaults = useQuery(alertDefaultsQuery(organizationId));
  const ships = useQuery(facilitiesQuery({ organizationId }));
  const save = useSaveAlertDefaults(organizationId);
  const { success, error } = useNotify();
  const [useDefaults, setUseDefaults] = useState(true);
  const [settings, setSettings] = useState<AlertSettings | null>(null);
  const [reminderHours, setReminderHours] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});

  const data = defaults.data;
  useEffect(() => {
    if (!data) return;
    setUseDefaults(data.isDefault);
    setSettings(data.settings);
    setReminderHours(String(data.reminderHours));
  }, [data]);

  if (defaults.isError) return <Alert severity="error">{defaults.error.message}</Alert>;
  if (!data || !settings) return <Skeleton variant="rounded" height={240} />;

  const errors = { ...validateAlertDefaults({ useDefaults, settings, reminderHours }), ...serverErrors };
  const shown = submitted ? errors : serverErrors;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(validateAlertDefaults({ useDefaults, settings, reminderHours })).length) return;
    const hours = Number(reminderHours.trim());
    save.mutate(
      useDefaults ? { useDefaults: true, reminderHours: hours } : { settings, reminderHours: hours },
      {
        onSuccess: () => {
          success();
          setSubmitted(false);
        },
        onError: (cause) => {
          const fields = serverFieldErrors(cause, 'settings');
          if (fields) setServerErrors(fields);
          error(undefined, cause);
        },
      },
    );
  };

  return (
    <SettingsCard title="Alert defaults" testId="alert-defaults" onSubmit={submit}>
      <Typography variant="body2" color="text.secondary">
        The alerts of the organization&apos;s users who have not chosen their own on their profile.
      </Typography>
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
        label="Use the portal's defaults (malfunctions and reports due, e-mail and in the portal)"
      />
      <AlertSettingsFields
        idPrefix={`defaults-${organizationId}`}
        value={settings}
        onChange={(next) => {
          setSettings(next);
          setServerErrors({});
        }}
        ships={ships.data ?? []}
        allShipsLabel="All ships of the organization"
        errors={useDefaults ? {} : shown}
        disabled={useDefaults}
      />
      <TextField
        label="Reminder after (hours)"
        type="number"
        value={reminderHours}
        onChange={(e) => {
          setReminderHours(e.target.value);
          setServerErrors({});
        }}
        error={Boolean(shown.reminderHours)}
        helperText={
          shown.reminderHours ||
          "A report-required event nobody has acknowledged by then is reminded of, also to the organization's administrators."
        }
        slotProps={{ htmlInput: { min: 1, max: 168, step: 1 } }}
        sx={{ maxWidth: 420 }}
      />
      <Box>
        <Button type="submit" variant="contained" disabled={save.isPending}>
          Save alert defaults
        </Button>
      </Box>
    </SettingsCard>
  );
}
