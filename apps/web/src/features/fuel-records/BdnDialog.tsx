import { useState } from 'react';
import type { Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import {
  Autocomplete,
  Button,
  FormControl,
  FormHelperText,
  InputAdornment,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
} from '@mui/material';
import type { Bdn } from '@portal/contracts/carbon';
import type { Port } from '@portal/contracts/ports';
import { FUEL_TYPE_NAMES } from '@portal/contracts/rules/carbon';
import { ApiRequestError, serverFieldErrors } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { ConfirmDialog } from '../../ui/dialogs/ConfirmDialog';
import { FormDialog } from '../../ui/dialogs/FormDialog';
import { pickerInstant, toPickerValue, UtcDateTimePicker } from '../../ui/dates/pickers';
import { portSearchQuery, useRemoveBdn, useSaveBdn } from './fuel-records-api';
import {
  bdnFormOf,
  checkBdnForm,
  emptyBdnForm,
  FUEL_TYPE_CHOICES,
  notePortText,
  portLabel,
  type BdnField,
  type BdnFormValues,
} from './rules';

const ALL_TOUCHED: Record<BdnField, boolean> = {
  deliveredAt: true,
  portId: true,
  portName: true,
  fuelType: true,
  massTonnes: true,
  sulfurPercent: true,
  lcvMjPerKg: true,
  densityKgM3: true,
  bdnNumber: true,
};

/**
 * A bunker delivery note (MARPOL Annex VI regulation 18): entered, changed or withdrawn. The record book keeps
 * each: the note as a bunkering entry, a change or a withdrawal as a correction that names it. The fields show
 * what the API would refuse, and what it refused.
 */
export function BdnDialog({
  facilityId,
  note,
  onClose,
}: {
  facilityId: string;
  /** The note to change; a new one when absent. */
  note?: Bdn;
  onClose(): void;
}) {
  const save = useSaveBdn(facilityId);
  const remove = useRemoveBdn(facilityId);
  const notify = useNotify();
  const [values, setValues] = useState<BdnFormValues>(() => (note ? bdnFormOf(note) : emptyBdnForm()));
  const [portInput, setPortInput] = useState(() => (note ? notePortText(note) : ''));
  const [touched, setTouched] = useState<Partial<Record<BdnField, boolean>>>({});
  const [server, setServer] = useState<{ fields: Partial<Record<string, string>>; message: string | null }>({
    fields: {},
    message: null,
  });
  const [confirming, setConfirming] = useState(false);
  const ports = useQuery(portSearchQuery(values.portId ? '' : portInput.trim()));
  const { errors, body } = checkBdnForm(values);
  const shown = (f: BdnField) => (touched[f] ? errors[f] : undefined) ?? server.fields[f];
  const set = (patch: Partial<BdnFormValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    // A field changed: the server's word on it is old.
    setServer((s) => ({
      message: null,
      fields: Object.fromEntries(Object.entries(s.fields).filter(([k]) => !(k in patch))),
    }));
  };
  const touch = (f: BdnField) => () => setTouched((t) => ({ ...t, [f]: true }));

  const refused = (cause: unknown) => {
    const fields = serverFieldErrors(cause);
    if (fields) setServer({ fields, message: null });
    else if (cause instanceof ApiRequestError && cause.status < 500 && cause.body?.message)
      setServer({ fields: {}, message: cause.body.message });
    else notify.error(undefined, cause);
  };
  const submit = () => {
    setTouched(ALL_TOUCHED);
    if (!body) return;
    save.mutate(
      { id: note?.id, body },
      {
        onSuccess: () => {
          notify.success();
          onClose();
        },
        onError: refused,
      },
    );
  };

  const number = (field: BdnField, label: string, unit: string, required = false) => (
    <TextField
      label={label}
      required={required}
      value={values[field] ?? ''}
      onChange={(e) => set({ [field]: e.target.value })}
      onBlur={touch(field)}
      error={Boolean(shown(field))}
      helperText={shown(field)}
      fullWidth
      slotProps={{
        htmlInput: { inputMode: 'decimal', 'data-testid': `bdn-${field}` },
        input: { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> },
      }}
    />
  );

  const portOptions = ports.data?.items ?? [];
  return (
    <FormDialog
      title={note ? 'Bunker delivery note' : 'New bunker delivery note'}
      onClose={onClose}
      submitLabel={note ? 'Save' : 'Add note'}
      onSubmit={submit}
      busy={save.isPending || remove.isPending}
      error={server.message}
      data-testid="bdn-dialog"
      actionsSx={{ flexWrap: 'wrap', gap: 1 }}
      startActions={
        note && (
          <Button
            color="error"
            disabled={save.isPending || remove.isPending}
            onClick={() => setConfirming(true)}
            sx={{ mr: 'auto' }}
          >
            Delete
          </Button>
        )
      }
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <UtcDateTimePicker
          label="Delivered (UTC)"
          value={values.deliveredAt ? toPickerValue(values.deliveredAt) : null}
          onChange={(v: Dayjs | null) => {
            set({ deliveredAt: pickerInstant(v) });
            touch('deliveredAt')();
          }}
          slotProps={{
            textField: {
              required: true,
              fullWidth: true,
              error: Boolean(shown('deliveredAt')),
              helperText: shown('deliveredAt'),
              onBlur: touch('deliveredAt'),
            },
          }}
        />
        <Autocomplete<Port, false, false, true>
          freeSolo
          options={portOptions}
          filterOptions={(o) => o}
          getOptionLabel={(o) => (typeof o === 'string' ? o : portLabel(o))}
          getOptionKey={(o) => (typeof o === 'string' ? o : `${o.locode ?? ''}:${o.name}:${o.country}`)}
          inputValue={portInput}
          loading={ports.isFetching}
          onInputChange={(_e, value, reason) => {
            if (reason !== 'input' && reason !== 'clear') return;
            setPortInput(value);
            set({ portId: null, portName: value });
          }}
          onChange={(_e, value) => {
            if (value && typeof value !== 'string') {
              setPortInput(portLabel(value));
              // A port without a UN/LOCODE (an organization's own) is named, not referred to.
              set({ portId: value.locode, portName: value.name });
            }
          }}
          noOptionsText={
            portInput.trim().length < 2 ? 'Type 2 letters of the name or the UN/LOCODE' : 'No port found'
          }
          renderInput={(params) => (
            <TextField
              {...params}
              label="Port"
              onBlur={touch('portName')}
              error={Boolean(shown('portName') ?? shown('portId'))}
              helperText={
                shown('portName') ??
                shown('portId') ??
                'Search the port list, or type the port as the note gives it'
              }
              slotProps={{
                ...params.slotProps,
                htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'bdn-port' },
              }}
            />
          )}
        />
        <FormControl fullWidth required error={Boolean(shown('fuelType'))}>
          <InputLabel id="bdn-fuel-label">Fuel type</InputLabel>
          <Select
            labelId="bdn-fuel-label"
            label="Fuel type"
            value={values.fuelType}
            onChange={(e) => set({ fuelType: e.target.value as BdnFormValues['fuelType'] })}
            onClose={touch('fuelType')}
            data-testid="bdn-fuelType"
          >
            {FUEL_TYPE_CHOICES.map((f) => (
              <MenuItem key={f} value={f}>
                {FUEL_TYPE_NAMES[f]}
              </MenuItem>
            ))}
          </Select>
          {shown('fuelType') && <FormHelperText>{shown('fuelType')}</FormHelperText>}
        </FormControl>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {number('massTonnes', 'Mass', 't', true)}
          {number('sulfurPercent', 'Sulfur', '% m/m', true)}
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {number('lcvMjPerKg', 'LCV', 'MJ/kg')}
          {number('densityKgM3', 'Density at 15 °C', 'kg/m³')}
        </Stack>
        <TextField
          label="Note number"
          value={values.bdnNumber}
          onChange={(e) => set({ bdnNumber: e.target.value })}
          onBlur={touch('bdnNumber')}
          error={Boolean(shown('bdnNumber'))}
          helperText={shown('bdnNumber')}
          fullWidth
          slotProps={{ htmlInput: { 'data-testid': 'bdn-bdnNumber' } }}
        />
      </Stack>
      {confirming && note && (
        <ConfirmDialog
          title="Delete this bunker delivery note?"
          text="The note no longer counts in the reconciliation. The record book keeps it, with a correction that says it was withdrawn."
          confirmLabel="Delete"
          busy={remove.isPending}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(note.id, {
              onSuccess: () => {
                notify.success();
                onClose();
              },
              onError: (cause) => {
                setConfirming(false);
                notify.error(undefined, cause);
              },
            })
          }
        />
      )}
    </FormDialog>
  );
}
