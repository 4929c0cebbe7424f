import { useState } from 'react';
import { useParams } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Chip,
  FormControlLabel,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { formatDateTime, MESSAGES } from '@portal/contracts/rules';
import type { Webhook, WebhookWithSecret } from '@portal/contracts/webhooks';
import { useNotify } from '../../lib/notifications';
import { ConfirmDialog } from '../../ui/dialogs/ConfirmDialog';
import { DeliveryLog } from './DeliveryLog';
import { SecretDialog } from './SecretDialog';
import { WebhookDialog } from './WebhookDialog';
import { eventTypesText } from './display';
import {
  useDeleteWebhook,
  useRotateSecret,
  useSendTest,
  useUpdateWebhook,
  webhooksQuery,
} from './webhooks-api';

type Confirming = { kind: 'delete' | 'rotate'; webhook: Webhook };

/**
 * An organization's webhooks (/admin/{organizationId}/webhooks; its UserAdmins and SystemAdmins): each with its URL,
 * event types, whether it is enabled, its secret's last characters, actions (Send test, Edit, Rotate secret, Delete)
 * and its delivery log. docs/webhooks.md says what a receiver gets and how it checks the signature.
 */
export default function WebhooksPage() {
  const organizationId = useParams().organizationId!;
  const webhooks = useQuery(webhooksQuery(organizationId));
  const update = useUpdateWebhook(organizationId);
  const remove = useDeleteWebhook(organizationId);
  const rotate = useRotateSecret(organizationId);
  const sendTest = useSendTest(organizationId);
  const { error, success, notify } = useNotify();
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);

  const confirm = () => {
    if (!confirming) return;
    const { webhook } = confirming;
    if (confirming.kind === 'delete')
      remove.mutate(webhook.id, {
        onSuccess: () => (success(), setConfirming(null)),
        onError: (cause) => (error(undefined, cause), setConfirming(null)),
      });
    else
      rotate.mutate(webhook.id, {
        onSuccess: (rotated) => (setConfirming(null), setSecret(rotated)),
        onError: (cause) => (error(undefined, cause), setConfirming(null)),
      });
  };

  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ mb: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          Webhooks
        </Typography>
        <Button variant="contained" onClick={() => setEditing('new')}>
          Add webhook
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        A webhook sends the alerts of the organization's ships to another system: a signed JSON POST when an
        event opens, is classified up, needs a reminder or ends. Failed deliveries are tried again for 24
        hours.
      </Typography>
      {webhooks.isError && <Alert severity="error">{webhooks.error.message ?? MESSAGES.DEFAULT_ERROR}</Alert>}
      {webhooks.isPending && (
        <Stack spacing={1}>
          {[0, 1].map((i) => (
            <Skeleton key={i} variant="rounded" height={120} />
          ))}
        </Stack>
      )}
      {webhooks.data?.length === 0 && (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography>No webhooks yet</Typography>
        </Paper>
      )}
      <Stack spacing={2}>
        {webhooks.data?.map((webhook) => (
          <Paper key={webhook.id} variant="outlined" sx={{ p: 2 }} data-testid="webhook">
            <Stack
              direction={{ xs: 'column', md: 'row' }}
              spacing={1}
              sx={{ alignItems: { md: 'center' }, mb: 1 }}
            >
              <Typography variant="subtitle1" component="h3" sx={{ flex: 1, overflowWrap: 'anywhere' }}>
                {webhook.url}
              </Typography>
              <Chip
                size="small"
                label={webhook.enabled ? 'Enabled' : 'Disabled'}
                color={webhook.enabled ? 'success' : 'default'}
                variant="outlined"
                sx={{ alignSelf: { xs: 'flex-start', md: 'center' } }}
              />
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {eventTypesText(webhook.eventTypes)}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              Secret ending in {webhook.secretHint}, made {formatDateTime(webhook.secretRotatedOn)} UTC
            </Typography>
            <Stack
              direction="row"
              spacing={1}
              sx={{ flexWrap: 'wrap', alignItems: 'center', rowGap: 1, mb: 1 }}
            >
              <FormControlLabel
                label="Enabled"
                control={
                  <Switch
                    checked={webhook.enabled}
                    disabled={update.isPending}
                    onChange={(e) =>
                      update.mutate(
                        {
                          id: webhook.id,
                          body: {
                            url: webhook.url,
                            eventTypes: webhook.eventTypes,
                            enabled: e.target.checked,
                          },
                        },
                        { onError: (cause) => error(undefined, cause) },
                      )
                    }
                    slotProps={{ input: { 'aria-label': `Enabled: ${webhook.url}` } }}
                  />
                }
              />
              <Button
                variant="outlined"
                size="small"
                disabled={sendTest.isPending}
                onClick={() =>
                  sendTest.mutate(webhook.id, {
                    onSuccess: () => notify('Test delivery queued', 'success'),
                    onError: (cause) => error(undefined, cause),
                  })
                }
              >
                Send test
              </Button>
              <Button variant="outlined" size="small" onClick={() => setEditing(webhook)}>
                Edit
              </Button>
              <Button
                variant="outlined"
                size="small"
                onClick={() => setConfirming({ kind: 'rotate', webhook })}
              >
                Rotate secret
              </Button>
              <Button
                variant="outlined"
                size="small"
                color="error"
                onClick={() => setConfirming({ kind: 'delete', webhook })}
              >
                Delete
              </Button>
            </Stack>
            <DeliveryLog
              organizationId={organizationId}
              webhookId={webhook.id}
              label={`Deliveries to ${webhook.url}`}
            />
          </Paper>
        ))}
      </Stack>

      {editing && (
        <WebhookDialog
          organizationId={organizationId}
          webhook={editing === 'new' ? undefined : editing}
          onCreated={(created) => (setEditing(null), setSecret(created))}
          onClose={() => setEditing(null)}
        />
      )}
      {secret && <SecretDialog secret={secret.secret} url={secret.url} onClose={() => setSecret(null)} />}
      {confirming && (
        <ConfirmDialog
          title={
            confirming.kind === 'delete'
              ? `Are you sure you want to delete the webhook to ${confirming.webhook.url}?`
              : 'Are you sure you want to rotate the secret?'
          }
          text={
            confirming.kind === 'delete'
              ? 'No more alerts are sent to it, and its delivery log is deleted as well.'
              : 'Deliveries from now on are signed with a new secret: the receiver must be given it, or it will refuse them.'
          }
          confirmLabel={confirming.kind === 'delete' ? 'Delete' : 'Rotate secret'}
          busy={remove.isPending || rotate.isPending}
          onConfirm={confirm}
          onClose={() => setConfirming(null)}
        />
      )}
    </Box>
  );
}
