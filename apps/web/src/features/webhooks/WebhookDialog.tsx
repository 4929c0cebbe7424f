import { useState } from 'react';
import {
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import type { Webhook, WebhookWithSecret } from '@portal/contracts/webhooks';
import { ApiRequestError } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { WEBHOOK_TOPICS } from '@portal/contracts/webhooks';
import { toggleEventType, topicName, webhookFormErrors, type WebhookFormValues } from './display';
import { useCreateWebhook, useUpdateWebhook } from './webhooks-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

/**
 * Add or edit a webhook: its URL, the event types it gets and whether it is enabled. Add and Save stay disabled
 * while the form is invalid; an address the server refuses (a private network, a host not found) shows under the
 * URL. A new webhook's secret is handed to `onCreated` to be shown once.
 */
export function WebhookDialog({
  organizationId,
  webhook,
  onCreated,
  onClose,
}: {
  organizationId: string;
  webhook?: Webhook;
  onCreated(webhook: WebhookWithSecret): void;
  onClose(): void;
}) {
  const [values, setValues] = useState<WebhookFormValues>({
    url: webhook?.url ?? '',
    eventTypes: webhook ? [...webhook.eventTypes] : ['emission-exceedance', 'scrubber-off'],
    enabled: webhook?.enabled ?? true,
  });
  const [touched, setTouched] = useState<{ url?: boolean; eventTypes?: boolean }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const create = useCreateWebhook(organizationId);
  const update = useUpdateWebhook(organizationId);
  const { error, success } = useNotify();
  const errors = webhookFormErrors(values);
  const valid = Object.keys(errors).length === 0;
  const busy = create.isPending || update.isPending;
  const urlError = (touched.url ? errors.url : undefined) ?? serverError ?? undefined;

  const failed = (cause: Error) => {
    if (cause instanceof ApiRequestError && cause.status === 400) {
      setServerError(cause.body?.fields?.url ?? null);
      if (!cause.body?.fields?.url) error(cause.message, cause);
    } else error(undefined, cause);
  };
  const submit = () => {
    setServerError(null);
    if (webhook)
      update.mutate(
        { id: webhook.id, body: values },
        { onSuccess: () => (success(), onClose()), onError: failed },
      );
    else create.mutate(values, { onSuccess: (created) => onCreated(created), onError: failed });
  };

  return (
    <FormDialog
      title={webhook ? 'Edit webhook' : 'Add webhook'}
      onClose={onClose}
      cancelLabel="Close"
      submitLabel={webhook ? 'Save' : 'Add'}
      onSubmit={submit}
      invalid={!valid}
      busy={busy}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label="URL"
          placeholder="https://example.com/portal-events"
          value={values.url}
          onChange={(e) => {
            setServerError(null);
            setValues((v) => ({ ...v, url: e.target.value }));
          }}
          onBlur={() => setTouched((t) => ({ ...t, url: true }))}
          error={Boolean(urlError)}
          helperText={urlError ?? 'Alerts are sent here as signed JSON (POST)'}
          fullWidth
          autoFocus
        />
        <FormControl component="fieldset" error={Boolean(touched.eventTypes && errors.eventTypes)}>
          <FormLabel component="legend">Event types</FormLabel>
          <FormGroup>
            {WEBHOOK_TOPICS.map((type) => (
              <FormControlLabel
                key={type}
                label={topicName(type)}
                control={
                  <Checkbox
                    checked={values.eventTypes.includes(type)}
                    onChange={(e) => {
                      setTouched((t) => ({ ...t, eventTypes: true }));
                      setValues((v) => ({
                        ...v,
                        eventTypes: toggleEventType(v.eventTypes, type, e.target.checked),
                      }));
                    }}
                  />
                }
              />
            ))}
          </FormGroup>
          {touched.eventTypes && errors.eventTypes && <FormHelperText>{errors.eventTypes}</FormHelperText>}
        </FormControl>
        <FormControlLabel
          control={
            <Switch
              checked={values.enabled}
              onChange={(e) => setValues((v) => ({ ...v, enabled: e.target.checked }))}
            />
          }
          label="Enabled"
        />
      </Stack>
    </FormDialog>
  );
}
