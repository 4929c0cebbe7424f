import { useState } from 'react';
import { InputAdornment, Stack, TextField, Typography } from '@mui/material';
import type { FuelPrice } from '@portal/contracts/cost-cockpit';
import { useNotify } from '../../lib/notifications';
import { FormDialog } from '../../ui/dialogs/FormDialog';
import { failureMessage, useEnterFuelPrice } from './cockpit-api';
import { priceBody, type PriceFormValues } from './display';

/** "Fuel prices": the HSFO and VLSFO prices of a day, € per tonne, which the scrubber's economics use. Audited. */
export function FuelPriceDialog({
  organizationId,
  current,
  today,
  onClose,
}: {
  organizationId: string;
  current: FuelPrice | null;
  today: string;
  onClose(): void;
}) {
  const notify = useNotify();
  const enter = useEnterFuelPrice(organizationId);
  const [values, setValues] = useState<PriceFormValues>({
    on: today,
    hsfo: current ? String(current.hsfoEurPerTonne) : '',
    vlsfo: current ? String(current.vlsfoEurPerTonne) : '',
  });
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string>();
  const result = priceBody(values);
  const errorOf = (field: keyof PriceFormValues) => (touched ? result.errors?.[field] : undefined);
  const change = (field: keyof PriceFormValues, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched(true);
  };
  const submit = () => {
    if (!result.body) return;
    setError(undefined);
    enter.mutate(result.body, {
      onSuccess: () => {
        notify.success();
        onClose();
      },
      onError: (failure) => {
        setError(failureMessage(failure));
        if (!failureMessage(failure)) notify.error(undefined, failure);
      },
    });
  };
  const euroPerTonne = { input: { endAdornment: <InputAdornment position="end">€/t</InputAdornment> } };
  return (
    <FormDialog
      title="Fuel prices"
      onClose={onClose}
      submitLabel="Save"
      onSubmit={submit}
      invalid={!result.body}
      busy={enter.isPending}
      error={error}
      data-testid="fuel-price-dialog"
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        The scrubber saves the spread between the two on every tonne of HSFO it lets the ship burn. Prices
        entered again for the same day replace them.
      </Typography>
      <Stack spacing={2}>
        <TextField
          label="Prices of"
          type="date"
          value={values.on}
          onChange={(event) => change('on', event.target.value)}
          error={Boolean(errorOf('on'))}
          helperText={errorOf('on') ?? 'The day the prices are of'}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'price-on' } }}
          fullWidth
        />
        <TextField
          label="HSFO"
          value={values.hsfo}
          onChange={(event) => change('hsfo', event.target.value)}
          error={Boolean(errorOf('hsfo'))}
          helperText={errorOf('hsfo') ?? 'High-sulphur fuel oil'}
          slotProps={{ ...euroPerTonne, htmlInput: { inputMode: 'decimal', 'data-testid': 'price-hsfo' } }}
          fullWidth
        />
        <TextField
          label="VLSFO"
          value={values.vlsfo}
          onChange={(event) => change('vlsfo', event.target.value)}
          error={Boolean(errorOf('vlsfo'))}
          helperText={errorOf('vlsfo') ?? 'Very-low-sulphur fuel oil'}
          slotProps={{ ...euroPerTonne, htmlInput: { inputMode: 'decimal', 'data-testid': 'price-vlsfo' } }}
          fullWidth
        />
      </Stack>
    </FormDialog>
  );
}
