import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Autocomplete, Box, Button, Skeleton, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { thresholdText, type DataHealthThresholdEntry } from '@portal/contracts/data-health';
import {
  dataHealthThresholdBody,
  dataHealthThresholdFormValues,
  validateDataHealthThreshold,
  type DataHealthThresholdFormValues,
} from '@portal/contracts/forms';
import { SettingsCard } from '../../ui/forms/SettingsCard';
import { useNotify } from '../../lib/notifications';
import { dataHealthThresholdsQuery, useSaveDataHealthThresholds } from './data-health-api';

const BOXES: { key: keyof DataHealthThresholdFormValues; label: string; help: string }[] = [
  { key: 'min', label: 'Lowest value', help: 'A value below it is out of range. Empty: no bound.' },
  { key: 'max', label: 'Highest value', help: 'A value above it is out of range. Empty: no bound.' },
  {
    key: 'staleHours',
    label: 'Stale after (h)',
    help: 'No value for this long while the ship has data. Empty: not checked.',
  },
  {
    key: 'flatLineHours',
    label: 'Flat-line after (h)',
    help: 'The same value for this long while the engine runs. Empty: not checked.',
  },
];

/** The field shown first: the first with the organization's own thresholds, else SO2_PPM. */
const firstField = (entries: readonly DataHealthThresholdEntry[]) =>
  (entries.find((e) => !e.isDefault) ?? entries.find((e) => e.fieldName === 'SO2_PPM') ?? entries[0])
    ?.fieldName ?? null;

/**
 * An organization's data health thresholds (its administrator or a SystemAdmin), one measurement field at a time:
 * when a mapped channel of its ships is flagged stale, flat-lined or out of range on the data health screen and as
 * a sensor fault event (docs/decisions/0071).
 */
export function DataHealthThresholdsCard({ organizationId }: { organizationId: string }) {
  const thresholds = useQuery(dataHealthThresholdsQuery(organizationId));
  const save = useSaveDataHealthThresholds(organizationId);
  const { success, error } = useNotify();
  const [fieldName, setFieldName] = useState<string | null>(null);
  const [values, setValues] = useState<DataHealthThresholdFormValues | null>(null);
  const [submitted, setSubmitted] = useState(false);

  const entries = thresholds.data;
  const entry = entries?.find((e) => e.fieldName === fieldName) ?? null;
  useEffect(() => {
    if (entries && fieldName === null) setFieldName(firstField(entries));
  }, [entries, fieldName]);
  useEffect(() => {
    setValues(entry ? dataHealthThresholdFormValues(entry) : null);
    setSubmitted(false);
  }, [entry]);

  if (thresholds.isError) return <Alert severity="error">{thresholds.error.message}</Alert>;
  if (!entries) return <Skeleton variant="rounded" height={280} sx={{ mt: 3 }} />;

  const own = entries.filter((e) => !e.isDefault).map((e) => e.fieldName);
  const errors = values ? validateDataHealthThreshold(values) : {};
  const shown = submitted ? errors : {};
  const send = (body: Parameters<typeof save.mutate>[0]) =>
    save.mutate(body, {
      onSuccess: () => {
        success();
        setSubmitted(false);
      },
      onError: (cause) => error(undefined, cause),
    });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!values || !fieldName || Object.keys(errors).length) return;
    send({ thresholds: [dataHealthThresholdBody(fieldName, values)] });
  };
  const useDefault = () => {
    if (!entry) return;
    const { isDefault: _, ...threshold } = entry;
    send({ thresholds: [{ ...threshold, useDefault: true }] });
  };

  return (
    <SettingsCard title="Data health thresholds" testId="data-health-thresholds" onSubmit={submit}>
      <Typography variant="body2" color="text.secondary">
        When a mapped channel of the organization&apos;s ships is flagged stale, flat-lined or out of range,
        on the data health screen and as a sensor fault event.{' '}
        {own.length
          ? `The organization's own thresholds: ${own.join(', ')}.`
          : "Every field uses the portal's defaults."}
      </Typography>
      <Autocomplete
        options={entries.map((e) => e.fieldName)}
        value={fieldName}
        onChange={(_, next) => next && setFieldName(next)}
        disableClearable={fieldName !== null}
        renderInput={(params) => <TextField {...params} label="Measurement field" />}
        sx={{ maxWidth: 420 }}
      />
      {entry && values && (
        <>
          <Typography variant="body2" data-testid="data-health-threshold-in-force">
            {thresholdText(entry)} ({entry.isDefault ? "the portal's default" : "the organization's own"})
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            {BOXES.map(({ key, label, help }) => (
              <TextField
                key={key}
                label={label}
                type="number"
                value={values[key]}
                onChange={(e) => setValues({ ...values, [key]: e.target.value })}
                error={Boolean(shown[key])}
                helperText={shown[key] || help}
              />
            ))}
          </Box>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            <Button type="submit" variant="contained" disabled={save.isPending}>
              Save thresholds
            </Button>
            <Button variant="outlined" onClick={useDefault} disabled={save.isPending || entry.isDefault}>
              Use the default
            </Button>
          </Stack>
        </>
      )}
    </SettingsCard>
  );
}
