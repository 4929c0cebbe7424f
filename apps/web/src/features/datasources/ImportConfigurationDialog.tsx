import { useState } from 'react';
import type { Dayjs } from 'dayjs';
import { DialogContentText, FormControl, InputLabel, MenuItem, Select, Stack } from '@mui/material';
import { defaultImportValidFrom } from '@portal/contracts/datasources';
import { useFleet } from '../../lib/fleet-context';
import { useNotify } from '../../lib/notifications';
import { pickerInstant, toPickerValue, UtcDateTimePicker } from '../../ui/dates/pickers';
import { useImportConfiguration } from './datasources-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

/**
 * Import configuration: the data sources (with their sample files), channels and calculations of another ship. The
 * copied calculations apply from Valid from on: by default this ship's earliest data, or 2000.01.01 when it has
 * none yet, so that older data uploaded later gets values too.
 */
export function ImportConfigurationDialog({ facilityId, onClose }: { facilityId: string; onClose(): void }) {
  const { facilities } = useFleet();
  const [source, setSource] = useState('');
  const target = (facilities ?? []).find((f) => f.id === facilityId);
  const [validFrom, setValidFrom] = useState<Dayjs | null>(() =>
    toPickerValue(defaultImportValidFrom(target?.dataTimeStampMin)),
  );
  const importConfiguration = useImportConfiguration(facilityId);
  const notify = useNotify();
  const ships = (facilities ?? []).filter((f) => f.id !== facilityId && f.dataSourceCount > 0);
  const validFromText = pickerInstant(validFrom);
  const submit = () =>
    importConfiguration.mutate(
      { sourceFacilityId: source, validFrom: validFromText },
      {
        onSuccess: () => {
          notify.success();
          onClose();
        },
        onError: (e) => notify.error(undefined, e),
      },
    );
  return (
    <FormDialog
      title="Import configuration"
      onClose={onClose}
      submitLabel="Import"
      onSubmit={submit}
      invalid={!source || !validFromText}
      busy={importConfiguration.isPending}
    >
      <DialogContentText sx={{ mb: 2 }}>
        Copy the data sources with their sample files, the channels and the calculations of another ship.
      </DialogContentText>
      <Stack spacing={2}>
        <FormControl fullWidth>
          <InputLabel id="source-ship-label">Ship</InputLabel>
          <Select
            labelId="source-ship-label"
            label="Ship"
            value={source}
            onChange={(e) => setSource(e.target.value)}
          >
            {ships.map((s) => (
              <MenuItem key={s.id} value={s.id}>
                {s.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <UtcDateTimePicker
          label="Valid from"
          value={validFrom}
          onChange={setValidFrom}
          slotProps={{
            textField: {
              required: true,
              name: 'validFrom',
              error: !validFromText,
              helperText: validFromText
                ? "UTC. The copied calculations apply to this ship's data from then on"
                : 'Valid from is required',
            },
          }}
        />
      </Stack>
    </FormDialog>
  );
}
