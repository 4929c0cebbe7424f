import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardActions,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { Facility } from '@portal/contracts/facilities';
import { canProvision, provisionFileName } from '@portal/contracts/forms';
import { DIALOG_WIDTHS, formatDateTime, MESSAGES } from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { saveBlob } from '../../ui/files/save-blob';
import { downloadPackage, uploadCredentialsQuery, useProvision, useRevokeCredential } from './ship-info-api';

/**
 * Automate file upload: Provision creates an upload credential for this ship and downloads the uploader package with
 * it; the token is shown once. Credentials can be revoked; a revoked one is refused at once.
 */
export function AutomateUploadCard({ ship }: { ship: Facility }) {
  const credentials = useQuery(uploadCredentialsQuery(ship.id));
  const provision = useProvision(ship.id);
  const revoke = useRevokeCredential(ship.id);
  const { error, success } = useNotify();
  const [token, setToken] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const active = (credentials.data ?? []).filter((c) => !c.revokedOn);

  const run = async () => {
    setBusy(true);
    try {
      const credential = await provision.mutateAsync();
      setToken(credential.token);
      saveBlob(await downloadPackage(ship.id, credential.token), provisionFileName(ship.name));
    } catch (cause) {
      error(MESSAGES.PSDU_BUILD_ERROR, cause);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2">
          Automate file upload
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Provision downloads an uploader for the ship's computer: it watches a folder and uploads new logger
          files to this ship by itself.
        </Typography>
        {active.length > 0 && (
          <List dense aria-label="Upload credentials">
            {active.map((c) => (
              <ListItem
                key={c.id}
                disableGutters
                secondaryAction={
                  <Button
                    size="small"
                    color="error"
                    onClick={() =>
                      revoke.mutate(c.id, {
                        onSuccess: () => success(),
                        onError: (cause) => error(undefined, cause),
                      })
                    }
                  >
                    Revoke
                  </Button>
                }
              >
                <ListItemText
                  primary={`Provisioned ${formatDateTime(c.createdOn)}`}
                  secondary={c.lastUsedOn ? `Last upload ${formatDateTime(c.lastUsedOn)}` : 'Not used yet'}
                />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
      <CardActions>
        <Button variant="contained" disabled={!canProvision(ship.name) || busy} onClick={() => void run()}>
          Provision
        </Button>
      </CardActions>
      {token && (
        <Dialog
          open
          onClose={() => setToken(null)}
          fullWidth
          maxWidth={false}
          slotProps={{ paper: { sx: { maxWidth: DIALOG_WIDTHS.wide } } }}
        >
          <DialogTitle>Upload token</DialogTitle>
          <DialogContent>
            <Alert severity="info" sx={{ mb: 2 }}>
              The package's config.json holds this token. It is shown only now; keep it secret. Revoke it here
              if it leaks.
            </Alert>
            <Typography sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }} data-testid="upload-token">
              {token}
            </Typography>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => void navigator.clipboard?.writeText(token)}>Copy</Button>
            <Button variant="contained" onClick={() => setToken(null)}>
              Close
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </Card>
  );
}
