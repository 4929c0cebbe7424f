import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  webhookBodySchema,
  type Webhook,
  type WebhookBody,
  type WebhookDelivery,
  type WebhookWithSecret,
} from '@portal/contracts/webhooks';
import { apiRequest } from '../../lib/api';
import { webhookKeys } from './keys';

const base = (organizationId: string) => `organizations/${encodeURIComponent(organizationId)}/webhooks`;
const one = (organizationId: string, webhookId: string) =>
  `${base(organizationId)}/${encodeURIComponent(webhookId)}`;

/** GET organizations/{id}/webhooks. */
export const webhooksQuery = (organizationId: string) =>
  queryOptions({
    queryKey: webhookKeys.list(organizationId),
    queryFn: ({ signal }) => apiRequest<Webhook[]>(base(organizationId), { signal }),
  });

/**
 * GET organizations/{id}/webhooks/{webhookId}/deliveries: the delivery log, polled every few seconds while a
 * delivery waits for its next try.
 */
export const deliveriesQuery = (organizationId: string, webhookId: string) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(organizationId, webhookId),
    queryFn: ({ signal }) =>
      apiRequest<WebhookDelivery[]>(`${one(organizationId, webhookId)}/deliveries`, { signal }),
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending') ? 2000 : false),
  });

function useRefresh(organizationId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: [...webhookKeys.all, organizationId] });
}

/** POST organizations/{id}/webhooks: the answer holds the secret, shown once. */
export function useCreateWebhook(organizationId: string) {
  const refresh = useRefresh(organizationId);
  return useMutation({
    mutationFn: (body: WebhookBody) =>
      apiRequest<WebhookWithSecret>(base(organizationId), {
        method: 'POST',
        body: webhookBodySchema.parse(body),
      }),
    onSuccess: refresh,
  });
}

/** PUT organizations/{id}/webhooks/{webhookId}. */
export function useUpdateWebhook(organizationId: string) {
  const refresh = useRefresh(organizationId);
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: WebhookBody }) =>
      apiRequest<Webhook>(one(organizationId, id), { method: 'PUT', body: webhookBodySchema.parse(body) }),
    onSuccess: refresh,
  });
}

/** DELETE organizations/{id}/webhooks/{webhookId}. */
export function useDeleteWebhook(organizationId: string) {
  const refresh = useRefresh(organizationId);
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(one(organizationId, id), { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

/** POST …/rotate-secret: the new secret, shown once. */
export function useRotateSecret(organizationId: string) {
  const refresh = useRefresh(organizationId);
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<WebhookWithSecret>(`${one(organizationId, id)}/rotate-secret`, { method: 'POST' }),
    onSuccess: refresh,
  });
}

/** POST …/test: a test delivery, then the log refreshes (and polls while it is pending). */
export function useSendTest(organizationId: string) {
  const refresh = useRefresh(organizationId);
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<WebhookDelivery>(`${one(organizationId, id)}/test`, { method: 'POST' }),
    onSuccess: refresh,
  });
}
