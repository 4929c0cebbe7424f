import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, FormControlLabel, Skeleton, Switch, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { EventRuleThreshold } from '@portal/contracts/events';
import {
  eventRulesBody,
  eventRulesFormValues,
  validateEventRules,
  type EventRulesFormValues,
} from '@portal/contracts/forms';
import { SettingsCard } from '../../ui/forms/SettingsCard';
import { serverFieldErrors } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { eventRulesQuery, useSaveEventRules } from './events-api';

/** The thresholds the form shows (the sample step stays as stored: it follows the calculations' targets). */
const FIELDS: Record<Exclude<EventRuleThreshold, 'stepSeconds'>, { label: string; help: string }> = {
  transientMinutes: {
    label: 'Transient when shorter than (min)',
    help: "An exceedance or scrubber stop this short is the scrubber's dynamic response; a longer one is a malfunction (Circ.883: 15 min).",
  },
  reportMinutes: {
    label: 'Report a malfunction longer than (min)',
    help: 'It must be reported to the flag State and the port State (Circ.883: more than one hour).',
  },
  repeatedCount: {
    label: 'Repeated from the transient number',
    help: 'The transient that is this many within the window, and every later one, is repeated: a malfunction (3).',
  },
  repeatedWindowHours: {
    label: 'Repeated within (h)',
    help: 'The window the transients are counted in (24 h).',
  },
  joinSamples: {
    label: 'Samples a break may miss',
    help: 'A break of at most this many samples does not split an episode (2).',
  },
  dataGapMinutes: {
    label: 'Data gap after (min)',
    help: 'No sample for longer than this between two samples is a data gap (60 min).',
  },
  washwaterExcursionMinutes: {
    label: 'Excursion up to (min)',
    help: 'The longest a PAH or turbidity excursion may last (15 min).',
  },
  washwaterExcursionWindowHours: {
    label: 'Once in any (h)',
    help: 'One excursion per criterion in this many hours (12 h).',
  },
  pahExcursionPercent: {
    label: 'PAH up to (% above the limit)',
    help: 'The guidelines allow 100 %.',
  },
  turbidityExcursionPercent: {
    label: 'Turbidity up to (% above the limit)',
    help: 'The guidelines allow 20 %.',
  },
};

const EPISODE_FIELDS = [
  'transientMinutes',
  'reportMinutes',
  'repeatedCount',
  'repeatedWindowHours',
  'joinSamples',
  'dataGapMinutes',
] as const;
const EXCURSION_FIELDS = [
  'washwaterExcursionMinutes',
  'washwaterExcursionWindowHours',
  'pahExcursionPercent',
  'turbidityExcursionPercent',
] as const;

/**
 * An organization's event rules (its administrator or a SystemAdmin): the thresholds its ships' compliance events
 * are derived and classified with (docs/decisions/0080), and the washwater excursion allowance, off by default.
 */
export function OrganizationEventRulesCard({ organizationId }: { organizationId: string }) {
  const rules = useQuery(eventRulesQuery(organizationId));
  const save = useSaveEventRules(organizationId);
  const { success, error } = useNotify();
  const [values, setValues] = useState<EventRulesFormValues | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<string, string>>>({});

  const data = rules.data;
  useEffect(() => {
    if (data) setValues(eventRulesFormValues(data));
  }, [data]);

  if (rules.isError) return <Alert severity="error">{rules.error.message}</Alert>;
  if (!data || !values) return <Skeleton variant="rounded" height={320} sx={{ mt: 3 }} />;

  const errors: Partial<Record<string, string>> = { ...validateEventRules(values), ...serverErrors };
  const shown = submitted ? errors : serverErrors;
  const change = (next: Partial<EventRulesFormValues>) => {
    setValues({ ...values, ...next });
    setServerErrors({});
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(validateEventRules(values)).length) return;
    save.mutate(eventRulesBody(values), {
      onSuccess: () => {
        success();
        setSubmitted(false);
      },
      onError: (cause) => {
        const fields = serverFieldErrors(cause, 'rules');
        if (fields) setServerErrors(fields);
        error(undefined, cause);
      },
    });
  };
  const field = (key: keyof typeof FIELDS, disabled: boolean) => (
    <TextField
      key={key}
      id={`event-rules-${organizationId}-${key}`}
      label={FIELDS[key].label}
      type="number"
      value={values[key]}
      onChange={(e) => change({ [key]: e.target.value })}
      disabled={disabled}
      error={!disabled && Boolean(shown[key])}
      helperText={(!disabled && shown[key]) || FIELDS[key].help}
    />
  );
  const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } } as const;

  return (
    <SettingsCard title="Event rules" testId="event-rules" onSubmit={submit}>
      <Typography variant="body2" color="text.secondary">
        How the compliance events of the organization&apos;s ships are classified. New rules apply to the data
        executed from then on: recalculate a period to apply them to its events.
      </Typography>
      <FormControlLabel
        control={
          <Switch checked={values.useDefaults} onChange={(e) => change({ useDefaults: e.target.checked })} />
        }
        label="Use the portal's defaults (Circ.883 and the EGCS Guidelines, no washwater excursions)"
      />
      <Box sx={grid}>{EPISODE_FIELDS.map((key) => field(key, values.useDefaults))}</Box>
      <Typography variant="subtitle2" component="h3">
        Washwater excursions
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={values.washwaterExcursions}
            onChange={(e) => change({ washwaterExcursions: e.target.checked })}
            disabled={values.useDefaults}
          />
        }
        label="Allow the guidelines' short PAH and turbidity excursions (not an exceedance)"
      />
      <Box sx={grid}>
        {EXCURSION_FIELDS.map((key) => field(key, values.useDefaults || !values.washwaterExcursions))}
      </Box>
      <Box>
        <Button type="submit" variant="contained" disabled={save.isPending}>
          Save event rules
        </Button>
      </Box>
    </SettingsCard>
  );
}
