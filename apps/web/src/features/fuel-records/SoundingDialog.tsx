import { useState } from 'react';
import type { Dayjs } from 'dayjs';
import {
  FormControl,
  FormHelperText,
  InputAdornment,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
} from '@mui/material';
import { FUEL_TYPE_NAMES } from '@portal/contracts/rules/carbon';
import { ApiRequestError, serverFieldErrors } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { FormDialog } from '../../ui/dialogs/FormDialog';
import { pickerInstant, toPickerValue, UtcDateTimePicker } from '../../ui/dates/pickers';
import { useAddSounding } from './fuel-records-api';
import { checkSoundingForm, FUEL_TYPE_CHOICES, type SoundingField, type SoundingFormValues } from './rules';

/** A tank sounding: the fuel of one type remaining on board at a time, as measured. */
export function SoundingDialog({ facilityId, onClose }: { facilityId: string; onClose(): void }) {
  const add = useAddSounding(facilityId);
  const notify = useNotify();
  const [values, setValues] = useState<SoundingFormValues>(() => ({
    at: new Date().toISOString(),
    fuelType: '',
    robTonnes: '',
  }));
  const [touched, setTouched] = useState<Partial<Record<SoundingField, boolean>>>({});
  const [server, setServer] = useState<{ fields: Partial<Record<string, string>>; message: string | null }>({
    fields: {},
    message: null,
  });
  const { errors, body } = checkSoundingForm(values);
  const shown = (f: SoundingField) => (touched[f] ? errors[f] : undefined) ?? server.fields[f];
  const set = (patch: Partial<SoundingFormValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setServer({ fields: {}, message: null });
  };
  const touch = (f: SoundingField) => () => setTouched((t) => ({ ...t, [f]: true }));
  const submit = () => {
    setTouched({ at: true, fuelType: true, robTonnes: true });
    if (!body) return;
    add.mutate(body, {
      onSuccess: () => {
        notify.success();
        onClose();
      },
      onError: (cause) => {
        const fields = serverFieldErrors(cause);
        if (fields) setServer({ fields, message: null });
        else if (cause instanceof ApiRequestError && cause.status < 500 && cause.body?.message)
          setServer({ fields: {}, message: cause.body.message });
        else notify.error(undefined, cause);
      },
    });
  };
  return (
    <FormDialog
      title="New tank sounding"
      onClose={onClose}
      submitLabel="Add sounding"
      onSubmit={submit}
      busy={add.isPending}
      error={server.message}
      data-testid="sounding-dialog"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <UtcDateTimePicker
          label="Sounded (UTC)"
          value={values.at ? toPickerValue(values.at) : null}
          onChange={(v: Dayjs | null) => {
            set({ at: pickerInstant(v) });
            touch('at')();
          }}
          slotProps={{
            textField: {
              required: true,
              fullWidth: true,
              error: Boolean(shown('at')),
              helperText: shown('at'),
              onBlur: touch('at'),
            },
          }}
        />
        <FormControl fullWidth required error={Boolean(shown('fuelType'))}>
          <InputLabel id="sounding-fuel-label">Fuel type</InputLabel>
          <Select
            labelId="sounding-fuel-label"
            label="Fuel type"
            value={values.fuelType}
            onChange={(e) => set({ fuelType: e.target.value as SoundingFormValues['fuelType'] })}
            onClose={touch('fuelType')}
            data-testid="sounding-fuelType"
          >
            {FUEL_TYPE_CHOICES.map((f) => (
              <MenuItem key={f} value={f}>
                {FUEL_TYPE_NAMES[f]}
              </MenuItem>
            ))}
          </Select>
          {shown('fuelType') && <FormHelperText>{shown('fuelType')}</FormHelperText>}
        </FormControl>
        <TextField
          label="Remaining on board"
          required
          value={values.robTonnes}
          onChange={(e) => set({ robTonnes: e.target.value })}
          onBlur={touch('robTonnes')}
          error={Boolean(shown('robTonnes'))}
          helperText={shown('robTonnes')}
          fullWidth
          slotProps={{
            htmlInput: { inputMode: 'decimal', 'data-testid': 'sounding-robTonnes' },
            input: { endAdornment: <InputAdornment position="end">t</InputAdornment> },
          }}
        />
      </Stack>
    </FormDialog>
  );
}
