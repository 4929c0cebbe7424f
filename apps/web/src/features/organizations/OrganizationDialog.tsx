import { useState } from 'react';
import { FormControlLabel, Stack, Switch, TextField } from '@mui/material';
import type { OrganizationDetail } from '@portal/contracts/organizations';
import { validateOrganization, type OrganizationValues } from '@portal/contracts/forms';
import { ApiRequestError } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { FormDialog } from '../../ui/dialogs/FormDialog';
import { useCreateOrganization, useUpdateOrganization } from './organizations-api';

type Field = keyof OrganizationValues;

/**
 * Add or edit an organization: Name (SystemAdmin only when editing), Contact email, Contact phone number, Priority
 * (SystemAdmin only). Add and Save stay disabled while the form is invalid.
 */
export function OrganizationDialog({
  organization,
  systemAdmin,
  onClose,
}: {
  organization?: OrganizationDetail;
  systemAdmin: boolean;
  onClose(): void;
}) {
  const editing = Boolean(organization);
  const [values, setValues] = useState<OrganizationValues>({
    name: organization?.name ?? '',
    email: organization?.email ?? '',
    phone: organization?.phone ?? '',
    priority: organization?.priority ?? false,
  });
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const create = useCreateOrganization();
  const update = useUpdateOrganization(organization?.id ?? '');
  const { error, success } = useNotify();
  const errors = validateOrganization(values);
  const valid = Object.keys(errors).length === 0;
  const shown = (field: Field) => (touched[field] ? errors[field] : undefined);
  const busy = create.isPending || update.isPending;

  const submit = () => {
    const callbacks = {
      onSuccess: () => {
        success();
        onClose();
      },
      // Fixed defect of the described product: a failed create showed the success notice (docs/decisions/0010).
      onError: (cause: Error) =>
        error(cause instanceof ApiRequestError && cause.status === 409 ? cause.message : undefined, cause),
    };
    if (editing) update.mutate(values, callbacks);
    else create.mutate(values, callbacks);
  };

  const field = (
    name: 'name' | 'email' | 'phone',
    label: string,
    extra: { disabled?: boolean; type?: string } = {},
  ) => (
    <TextField
      label={label}
      value={values[name]}
      onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      onBlur={() => setTouched((t) => ({ ...t, [name]: true }))}
      error={Boolean(shown(name))}
      helperText={shown(name)}
      fullWidth
      {...extra}
    />
  );

  return (
    <FormDialog
      title={editing ? 'Edit organization' : 'Add organization'}
      onClose={onClose}
      cancelLabel="Close"
      submitLabel={editing ? 'Save' : 'Add'}
      onSubmit={submit}
      invalid={!valid}
      busy={busy}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        {field('name', 'Name', { disabled: editing && !systemAdmin })}
        {field('email', 'Contact email', { type: 'email' })}
        {field('phone', 'Contact phone number')}
        {systemAdmin && (
          <FormControlLabel
            control={
              <Switch
                checked={values.priority}
                onChange={(e) => setValues((v) => ({ ...v, priority: e.target.checked }))}
              />
            }
            label="Priority organization"
          />
        )}
      </Stack>
    </FormDialog>
  );
}
