import { useState } from 'react';
import { Alert, Button, Stack, TextField, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { validateLinkKey } from '@portal/contracts/forms';
import { ApiRequestError } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { useLinkOrganization } from './access-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

/** The own link key with Copy, how linking works, and another organization's key to link to. */
export function LinkOrganizationDialog({
  organizationId,
  ownKey,
  onClose,
}: {
  organizationId: string;
  ownKey: string;
  onClose(): void;
}) {
  const [linkKey, setLinkKey] = useState('');
  const [touched, setTouched] = useState(false);
  const link = useLinkOrganization(organizationId);
  const { error, success, notify } = useNotify();
  const errors = validateLinkKey({ linkKey });
  const shown = touched ? errors.linkKey : undefined;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(ownKey);
      notify('Link key copied', 'info');
    } catch (cause) {
      error(undefined, cause);
    }
  };
  const confirm = () =>
    link.mutate(linkKey, {
      onSuccess: (other) => {
        success(`Linked to ${other.name}`);
        onClose();
      },
      onError: (cause) =>
        error(cause instanceof ApiRequestError && cause.status < 500 ? cause.message : undefined, cause),
    });

  return (
    <FormDialog
      title="Link organization"
      onClose={onClose}
      cancelLabel="Close"
      submitLabel="Confirm link"
      onSubmit={confirm}
      invalid={Boolean(errors.linkKey)}
      busy={link.isPending}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography>Your link key:</Typography>
          <Typography sx={{ fontFamily: 'monospace', fontSize: '1.25rem' }} data-testid="own-link-key">
            {ownKey}
          </Typography>
          <Button size="small" startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
            Copy
          </Button>
        </Stack>
        <Alert severity="info">
          To get access to another organization's ships, enter that organization's link key below; its
          administrator then chooses which ships you see, and you choose which of your users see them. To give
          another organization access to your ships, give it your link key.
        </Alert>
        <TextField
          label="Link key of the other organization"
          value={linkKey}
          onChange={(e) => setLinkKey(e.target.value)}
          onBlur={() => setTouched(true)}
          error={Boolean(shown)}
          helperText={shown}
          autoComplete="off"
          fullWidth
        />
      </Stack>
    </FormDialog>
  );
}
