import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  IconButton,
  Link,
  Paper,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import { useQuery } from '@tanstack/react-query';
import type { ApiKey } from '@portal/contracts/api-keys';
import { API_KEY_TEXTS, apiKeyRow, MESSAGES, revokeApiKeyTitle } from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { visuallyHidden } from '../../ui/a11y/visually-hidden';
import { ConfirmDialog } from '../../ui/dialogs/ConfirmDialog';
import { apiKeysQuery, useRevokeApiKey } from './api-keys-api';
import { CreateApiKeyDialog } from './CreateApiKeyDialog';

/**
 * An organization's API keys on its administration page (its UserAdmin, or a SystemAdmin): name, scopes, made by
 * and on, expiry and last use; New API key (the secret shown once) and Revoke, after a confirmation.
 */
export function ApiKeysSection({ organizationId }: { organizationId: string }) {
  const keys = useQuery(apiKeysQuery(organizationId));
  const revoke = useRevokeApiKey(organizationId);
  const { error, success } = useNotify();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const now = Date.now();

  const confirmRevoke = () => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => (success(`The API key ${revoking.name} was revoked`), setRevoking(null)),
      onError: (cause) => (error(undefined, cause), setRevoking(null)),
    });
  };

  return (
    <Box component="section" aria-labelledby="api-keys-heading" sx={{ mt: 3 }} data-testid="api-keys">
      <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h3" id="api-keys-heading" sx={{ flex: 1 }}>
          API keys
        </Typography>
        <Button variant="outlined" onClick={() => setCreating(true)}>
          New API key
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Your integrations (a BI tool reading KPIs, the onboard uploader sending files) use a key instead of a
        sign-in. It acts for your organization, within its scopes. How to send it:{' '}
        <Link href="/api/docs" target="_blank" rel="noopener">
          API documentation
        </Link>
        .
      </Typography>
      {keys.isError ? (
        <Alert severity="error">{keys.error.message || MESSAGES.DEFAULT_ERROR}</Alert>
      ) : !keys.data ? (
        <Skeleton variant="rounded" height={48} />
      ) : keys.data.length === 0 ? (
        // Text, not an empty table: on a phone the table scrolls, and a scrolling region needs something to focus.
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="body2">{API_KEY_TEXTS.none}</Typography>
        </Paper>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-labelledby="api-keys-heading">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Scopes</TableCell>
                <TableCell>Created</TableCell>
                <TableCell>Expires</TableCell>
                <TableCell>Last used</TableCell>
                <TableCell align="right">
                  <Box component="span" sx={visuallyHidden}>
                    Actions
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {keys.data.map((key) => {
                const row = apiKeyRow(key, now);
                return (
                  <TableRow key={key.id} hover data-testid="api-key-row">
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{key.name}</TableCell>
                    <TableCell>{row.scopes}</TableCell>
                    <TableCell>{row.created}</TableCell>
                    <TableCell sx={row.expired ? { color: 'error.main' } : undefined}>
                      {row.expires}
                    </TableCell>
                    <TableCell>{row.lastUsed}</TableCell>
                    <TableCell align="right">
                      <Tooltip title="Revoke">
                        <IconButton
                          size="small"
                          aria-label={`Revoke ${key.name}`}
                          onClick={() => setRevoking(key)}
                        >
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {creating && <CreateApiKeyDialog organizationId={organizationId} onClose={() => setCreating(false)} />}
      {revoking && (
        <ConfirmDialog
          title={revokeApiKeyTitle(revoking.name)}
          text={API_KEY_TEXTS.revokeText}
          confirmLabel="Revoke"
          busy={revoke.isPending}
          onConfirm={confirmRevoke}
          onClose={() => setRevoking(null)}
        />
      )}
    </Box>
  );
}
