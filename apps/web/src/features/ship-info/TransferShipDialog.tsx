import { useState } from 'react';
import { Alert, FormControl, InputLabel, MenuItem, Select, Stack } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { Facility } from '@portal/contracts/facilities';
import { transferSuccessText, transferTargets } from '@portal/contracts/forms';
import { useNotify } from '../../lib/notifications';
import { hasSecondaryOrganizationsQuery, organizationsQuery, useTransferShip } from './ship-info-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

/** Transfer a ship to another organization: irreversible; the current owner and secondary organizations lose it. */
export function TransferShipDialog({ ship, onClose }: { ship: Facility; onClose(): void }) {
  const [target, setTarget] = useState('');
  const organizations = useQuery(organizationsQuery());
  const secondary = useQuery(hasSecondaryOrganizationsQuery(ship.id));
  const transfer = useTransferShip(ship.id);
  const { error, success } = useNotify();
  const targets = transferTargets(organizations.data ?? [], ship.primaryOrganizationId);

  const confirm = () =>
    transfer.mutate(target, {
      onSuccess: (organization) => {
        success(transferSuccessText(organization.name));
        onClose();
      },
      onError: (cause) => error(undefined, cause),
    });

  return (
    <FormDialog
      title="Transfer ship"
      onClose={onClose}
      submitLabel="Confirm transfer"
      submitColor="warning"
      onSubmit={confirm}
      invalid={!target}
      busy={transfer.isPending}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Alert severity="warning">
          Transferring {ship.name} cannot be undone. {ship.primaryOrganizationName} and its users lose access
          to the ship.
        </Alert>
        {secondary.data && (
          <Alert severity="info">
            The ship is shared with other organizations. They will lose access to it too.
          </Alert>
        )}
        <FormControl fullWidth>
          <InputLabel id="transfer-target">Organization</InputLabel>
          <Select
            labelId="transfer-target"
            label="Organization"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
          >
            {targets.map((o) => (
              <MenuItem key={o.id} value={o.id}>
                {o.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Stack>
    </FormDialog>
  );
}
