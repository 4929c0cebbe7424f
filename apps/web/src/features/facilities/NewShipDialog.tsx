import { useState } from 'react';
import { FormControl, FormHelperText, InputLabel, MenuItem, Select, Stack, TextField } from '@mui/material';
import { validateNewShip } from '@portal/contracts/forms';
import { useNotify } from '../../lib/notifications';
import { FormDialog } from '../../ui/dialogs/FormDialog';
import { useCreateFacility } from './create-facility-api';
import type { OrganizationChoice } from './organizations-api';

/**
 * New ship (SystemAdmin): organization and name, both required. A message shows once the field was left;
 * Create stays disabled until the form is valid. A failure shows the default error.
 */
export function NewShipDialog({
  organizations,
  onClose,
  onCreated,
}: {
  organizations: OrganizationChoice[];
  onClose(): void;
  onCreated(id: string): void;
}) {
  const [values, setValues] = useState({ organizationId: '', name: '' });
  const [touched, setTouched] = useState({ organizationId: false, name: false });
  const create = useCreateFacility();
  const { error, success } = useNotify();
  const errors = validateNewShip(values);
  const valid = Object.keys(errors).length === 0;
  const shown = (field: 'organizationId' | 'name') => (touched[field] ? errors[field] : undefined);

  const submit = () => {
    create.mutate(values, {
      onSuccess: ({ id }) => {
        success();
        onCreated(id);
      },
      onError: (cause) => error(undefined, cause),
    });
  };

  return (
    <FormDialog
      title="New ship"
      onClose={onClose}
      submitLabel="Create"
      onSubmit={submit}
      invalid={!valid}
      busy={create.isPending}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <FormControl fullWidth error={Boolean(shown('organizationId'))}>
          <InputLabel id="new-ship-organization">Organization</InputLabel>
          <Select
            labelId="new-ship-organization"
            label="Organization"
            value={values.organizationId}
            onChange={(e) => setValues((v) => ({ ...v, organizationId: e.target.value }))}
            onClose={() => setTouched((t) => ({ ...t, organizationId: true }))}
            onBlur={() => setTouched((t) => ({ ...t, organizationId: true }))}
          >
            {organizations.map((o) => (
              <MenuItem key={o.id} value={o.id}>
                {o.name}
              </MenuItem>
            ))}
          </Select>
          {shown('organizationId') && <FormHelperText>{shown('organizationId')}</FormHelperText>}
        </FormControl>
        <TextField
          label="Ship name"
          value={values.name}
          onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))}
          onBlur={() => setTouched((t) => ({ ...t, name: true }))}
          error={Boolean(shown('name'))}
          helperText={shown('name')}
          fullWidth
        />
      </Stack>
    </FormDialog>
  );
}
