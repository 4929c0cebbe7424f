import { useState } from 'react';
import {
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  InputAdornment,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { Voyage } from '@portal/contracts/carbon';
import { serverFieldErrors } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { FormDialog } from '../../ui/dialogs/FormDialog';
import { failureMessage, useSaveCargo } from './carbon-api';
import { cargoBody, cargoFormValues, voyageTitle, type CargoFormValues } from './display';

type Field = keyof CargoFormValues;
const SERVER_FIELDS: Record<string, Field> = { laden: 'condition', cargoTonnes: 'cargoTonnes', teu: 'teu' };

/**
 * "Cargo of the voyage": laden or in ballast, the tonnes and the TEU carried (either may stay empty). The IMO DCS
 * report reads its laden distance and transport work from it. The form says what is wrong with the API's own words
 * (voyageCargoInputSchema); a refusal of the server shows under its field.
 */
export function CargoDialog({ voyage, onClose }: { voyage: Voyage; onClose(): void }) {
  const notify = useNotify();
  const save = useSaveCargo(voyage.id);
  const [values, setValues] = useState<CargoFormValues>(() => cargoFormValues(voyage.cargo));
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [server, setServer] = useState<{ fields: Partial<Record<Field, string>>; message?: string }>({
    fields: {},
  });
  const result = cargoBody(values);
  const errorOf = (field: Field) =>
    server.fields[field] ?? (touched[field] ? result.errors?.[field] : undefined);
  const change = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
    setServer((s) => ({ ...s, fields: { ...s.fields, [field]: undefined } }));
  };

  const submit = () => {
    if (!result.body) return;
    setServer({ fields: {} });
    save.mutate(result.body, {
      onSuccess: () => {
        notify.success();
        onClose();
      },
      onError: (failure) => {
        const fields = serverFieldErrors(failure) ?? {};
        const mapped: Partial<Record<Field, string>> = {};
        for (const [key, message] of Object.entries(fields)) {
          const field = SERVER_FIELDS[key];
          if (field) mapped[field] = message;
        }
        setServer({ fields: mapped, message: failureMessage(failure) });
        if (!failureMessage(failure)) notify.error(undefined, failure);
      },
    });
  };

  return (
    <FormDialog
      title="Cargo of the voyage"
      onClose={onClose}
      submitLabel="Save"
      onSubmit={submit}
      invalid={!result.body}
      busy={save.isPending}
      error={server.message}
      data-testid="cargo-dialog"
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {voyageTitle(voyage)}. The IMO DCS report takes its laden distance and transport work from the cargo.
      </Typography>
      <Stack spacing={2}>
        <FormControl error={Boolean(errorOf('condition'))}>
          <FormLabel id="cargo-condition">Condition</FormLabel>
          <RadioGroup
            row
            aria-labelledby="cargo-condition"
            value={values.condition}
            onChange={(event) => change('condition', event.target.value)}
          >
            <FormControlLabel value="laden" control={<Radio />} label="Laden" />
            <FormControlLabel value="ballast" control={<Radio />} label="In ballast" />
          </RadioGroup>
          <FormHelperText>{errorOf('condition') ?? 'How the ship sailed this voyage'}</FormHelperText>
        </FormControl>
        <TextField
          label="Cargo"
          value={values.cargoTonnes}
          onChange={(event) => change('cargoTonnes', event.target.value)}
          error={Boolean(errorOf('cargoTonnes'))}
          helperText={errorOf('cargoTonnes') ?? 'Tonnes carried; empty when not known'}
          slotProps={{
            htmlInput: { inputMode: 'decimal', 'data-testid': 'cargo-tonnes' },
            input: { endAdornment: <InputAdornment position="end">t</InputAdornment> },
          }}
          fullWidth
        />
        <TextField
          label="TEU"
          value={values.teu}
          onChange={(event) => change('teu', event.target.value)}
          error={Boolean(errorOf('teu'))}
          helperText={errorOf('teu') ?? 'Containers carried (a container ship); empty when not known'}
          slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'cargo-teu' } }}
          fullWidth
        />
      </Stack>
    </FormDialog>
  );
}
