import { useState } from 'react';
import type { Dayjs } from 'dayjs';
import {
  DialogContentText,
  FormControl,
  FormHelperText,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
} from '@mui/material';
import {
  RECORD_BOOK_ENTRY_KINDS,
  RECORD_BOOK_KIND_NAMES,
  type RecordBookEntryView,
} from '@portal/contracts/events';
import {
  asksFuelSulfur,
  recordBookEntryBody,
  validateRecordBookEntry,
  type RecordBookEntryFormValues,
} from '@portal/contracts/forms';
import { formatDateTime } from '@portal/contracts/rules';
import { FUEL_TYPES, FUEL_TYPE_NAMES } from '@portal/contracts/rules/carbon';
import { useNotify } from '../../lib/notifications';
import { pickerInstant, toPickerValue, UtcDateTimePicker } from '../../ui/dates/pickers';
import { failureMessage, useAddRecordBookEntry } from './events-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

type Field = keyof RecordBookEntryFormValues;

/**
 * A person's entry in a ship's record book (maintenance, calibration, fuel change-over, bunkering, a note), or the
 * correction of an entry: a new entry that names the one it corrects, which stays as it was.
 */
export function RecordBookEntryDialog({
  facilityId,
  correcting,
  onClose,
}: {
  facilityId: string;
  /** The entry to correct; a new entry when absent. */
  correcting?: RecordBookEntryView;
  onClose(): void;
}) {
  const add = useAddRecordBookEntry(facilityId);
  const notify = useNotify();
  const [values, setValues] = useState<RecordBookEntryFormValues>(() => ({
    kind: correcting ? 'correction' : '',
    occurredOn: correcting ? correcting.occurredOn : new Date().toISOString(),
    text: correcting ? correcting.text : '',
    latitude: correcting?.latitude?.toString() ?? '',
    longitude: correcting?.longitude?.toString() ?? '',
    correctsId: correcting?.id ?? null,
    fuelSulfurPct: correcting?.fuelSulfurPct?.toString() ?? '',
    fuelType: correcting?.fuelType ?? '',
  }));
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const errors = validateRecordBookEntry(values);
  const shown = (f: Field) => (touched[f] ? errors[f] : undefined);
  const set = (patch: Partial<RecordBookEntryFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const touch = (f: Field) => () => setTouched((t) => ({ ...t, [f]: true }));

  // A correction that recorded a sulfur content or a fuel stands for the change-over it corrected.
  const asksFuel = asksFuelSulfur(
    values.kind,
    correcting?.fuelSulfurPct != null || correcting?.fuelType != null ? 'fuel-change-over' : correcting?.kind,
  );

  const submit = () => {
    setTouched({
      kind: true,
      occurredOn: true,
      text: true,
      latitude: true,
      longitude: true,
      fuelSulfurPct: true,
      fuelType: true,
    });
    if (Object.keys(errors).length) return;
    add.mutate(recordBookEntryBody(values), {
      onSuccess: () => {
        notify.success();
        onClose();
      },
      onError: (error) => notify.error(failureMessage(error), error),
    });
  };

  return (
    <FormDialog
      title={correcting ? `Correct entry No. ${correcting.sequence}` : 'New entry'}
      onClose={onClose}
      submitLabel={correcting ? 'Save correction' : 'Add entry'}
      onSubmit={submit}
      busy={add.isPending}
    >
      {correcting && (
        <DialogContentText sx={{ mb: 2, overflowWrap: 'anywhere' }}>
          The entry of {formatDateTime(correcting.occurredOn)} UTC stays in the book as it is; the correction
          is a new entry that refers to it.
        </DialogContentText>
      )}
      <Stack spacing={2} sx={{ pt: 1 }}>
        {!correcting && (
          <FormControl fullWidth required error={Boolean(shown('kind'))}>
            <InputLabel id="entry-kind-label">Kind</InputLabel>
            <Select
              labelId="entry-kind-label"
              label="Kind"
              value={values.kind}
              onChange={(e) => set({ kind: e.target.value })}
              onClose={touch('kind')}
              data-testid="entry-kind"
            >
              {RECORD_BOOK_ENTRY_KINDS.map((k) => (
                <MenuItem key={k} value={k}>
                  {RECORD_BOOK_KIND_NAMES[k]}
                </MenuItem>
              ))}
            </Select>
            {shown('kind') && <FormHelperText>{shown('kind')}</FormHelperText>}
          </FormControl>
        )}
        <UtcDateTimePicker
          label="Time (UTC)"
          value={values.occurredOn ? toPickerValue(values.occurredOn) : null}
          onChange={(v: Dayjs | null) => {
            set({ occurredOn: pickerInstant(v) });
            touch('occurredOn')();
          }}
          slotProps={{
            textField: {
              required: true,
              fullWidth: true,
              error: Boolean(shown('occurredOn')),
              helperText: shown('occurredOn'),
              onBlur: touch('occurredOn'),
            },
          }}
        />
        <TextField
          label={correcting ? 'Corrected text' : 'Text'}
          required
          value={values.text}
          onChange={(e) => set({ text: e.target.value })}
          onBlur={touch('text')}
          error={Boolean(shown('text'))}
          helperText={shown('text')}
          multiline
          minRows={3}
          fullWidth
          slotProps={{ htmlInput: { 'data-testid': 'entry-text' } }}
        />
        {asksFuel && (
          <TextField
            select
            label="Fuel in use from then on"
            value={values.fuelType}
            onChange={(e) => set({ fuelType: e.target.value })}
            error={Boolean(shown('fuelType'))}
            helperText={
              shown('fuelType') ??
              "The carbon ledger's fuel type for the fuel flows that take it from the change-overs"
            }
            fullWidth
            slotProps={{ select: { onClose: touch('fuelType') } }}
          >
            <MenuItem value="">
              <em>Not said</em>
            </MenuItem>
            {FUEL_TYPES.map((f) => (
              <MenuItem key={f} value={f}>
                {FUEL_TYPE_NAMES[f]}
              </MenuItem>
            ))}
          </TextField>
        )}
        {asksFuel && (
          <TextField
            label="Fuel sulfur from then on (% m/m)"
            required={values.kind === 'fuel-change-over'}
            value={values.fuelSulfurPct}
            onChange={(e) => set({ fuelSulfurPct: e.target.value })}
            onBlur={touch('fuelSulfurPct')}
            error={Boolean(shown('fuelSulfurPct'))}
            helperText={
              shown('fuelSulfurPct') ??
              (correcting
                ? 'Empty if the change-over did not happen'
                : 'Within 0.10 % in an ECA (0.50 % outside), the scrubber is not needed from this time on')
            }
            fullWidth
            slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'entry-fuel-sulfur' } }}
          />
        )}
        <Stack direction="row" spacing={2}>
          <TextField
            label="Latitude"
            value={values.latitude}
            onChange={(e) => set({ latitude: e.target.value })}
            onBlur={touch('latitude')}
            error={Boolean(shown('latitude'))}
            helperText={shown('latitude') ?? 'Decimal degrees, north positive'}
            fullWidth
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
          <TextField
            label="Longitude"
            value={values.longitude}
            onChange={(e) => set({ longitude: e.target.value })}
            onBlur={touch('longitude')}
            error={Boolean(shown('longitude'))}
            helperText={shown('longitude') ?? 'Decimal degrees, east positive'}
            fullWidth
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
        </Stack>
      </Stack>
    </FormDialog>
  );
}
