import { useState } from 'react';
import {
  Box,
  Checkbox,
  DialogContentText,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Stack,
} from '@mui/material';
import {
  VALUE_DELETION_MESSAGES,
  valueDeletionErrors,
  valueDeletionRange,
  type ValueDeletionForm,
} from '@portal/contracts/forms';
import { formatDateOnly, type Period } from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { pickerDayText, toPickerValue, UtcDatePicker } from '../../ui/dates/pickers';
import { useDeleteValues } from './measurement-fields-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

/**
 * Delete values: a ship's calculated values over whole UTC days (from the drawer's period by default), the
 * measurement field values, the report values or both, after a warning that they go for good. The uploaded files
 * stay, so running them again on the files screen calculates the values anew.
 */
export function DeleteValuesDialog({
  facilityId,
  shipName,
  period,
  onClose,
}: {
  facilityId: string;
  shipName: string;
  period: Period;
  onClose(): void;
}) {
  const [form, setForm] = useState<ValueDeletionForm>(() => ({
    fromDate: formatDateOnly(period.from),
    toDate: formatDateOnly(period.to),
    measurementValues: true,
    reportValues: true,
  }));
  const set = (patch: Partial<ValueDeletionForm>) => setForm((f) => ({ ...f, ...patch }));
  const errors = valueDeletionErrors(form);
  const range = valueDeletionRange(form);
  const remove = useDeleteValues();
  const notify = useNotify();
  const day = (text: string) => (text ? toPickerValue(`${text}T00:00:00Z`) : null);

  const submit = () => {
    if (!range) return;
    remove.mutate(
      { facilityId, ...range, measurementValues: form.measurementValues, reportValues: form.reportValues },
      {
        onSuccess: () => {
          notify.success(VALUE_DELETION_MESSAGES.deleted);
          onClose();
        },
        onError: (e) => notify.error(undefined, e),
      },
    );
  };

  return (
    <FormDialog
      title={`Delete values of ${shipName}`}
      onClose={onClose}
      submitLabel="Delete values"
      submitColor="error"
      onSubmit={submit}
      invalid={!range}
      busy={remove.isPending}
      actionsSx={{ flexWrap: 'wrap', gap: 1 }}
      data-testid="delete-values-dialog"
    >
      <DialogContentText sx={{ mb: 2 }}>
        The values calculated for {shipName} on these days (UTC) will be deleted for good. The uploaded files
        stay: run them on the files screen to calculate the values again.
      </DialogContentText>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, pt: 1 }}>
        <UtcDatePicker
          label="From"
          value={day(form.fromDate)}
          onChange={(value) => set({ fromDate: pickerDayText(value) ?? '' })}
          slotProps={{
            textField: { error: !!errors.fromDate, helperText: errors.fromDate, fullWidth: true },
          }}
        />
        <UtcDatePicker
          label="To"
          value={day(form.toDate)}
          onChange={(value) => set({ toDate: pickerDayText(value) ?? '' })}
          slotProps={{ textField: { error: !!errors.toDate, helperText: errors.toDate, fullWidth: true } }}
        />
      </Stack>
      <FormControl error={!!errors.values} component="fieldset" variant="standard">
        <FormLabel component="legend">Values to delete</FormLabel>
        <FormGroup>
          <FormControlLabel
            control={
              <Checkbox
                checked={form.measurementValues}
                onChange={(e) => set({ measurementValues: e.target.checked })}
              />
            }
            label="Measurement field values"
          />
          <FormControlLabel
            control={
              <Checkbox
                checked={form.reportValues}
                onChange={(e) => set({ reportValues: e.target.checked })}
              />
            }
            label="Report values (the dashboards' figures)"
          />
        </FormGroup>
        {errors.values && <FormHelperText>{errors.values}</FormHelperText>}
      </FormControl>
      {range && (
        <Box sx={{ mt: 2 }}>
          <DialogContentText variant="body2" data-testid="delete-values-summary">
            {form.fromDate === form.toDate ? form.fromDate : `${form.fromDate} to ${form.toDate}`}:{' '}
            {[form.measurementValues && 'measurement field values', form.reportValues && 'report values']
              .filter(Boolean)
              .join(' and ')}
            .
          </DialogContentText>
        </Box>
      )}
    </FormDialog>
  );
}
