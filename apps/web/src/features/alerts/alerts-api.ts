import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AlertSubscription,
  AlertSubscriptionBody,
  OrganizationAlertDefaults,
  OrganizationAlertDefaultsBody,
  OutboxList,
  OutboxResendBody,
  OutboxResendResult,
} from '@portal/contracts/alerts';
import type { OrganizationListItem } from '@portal/contracts/organizations';
import { apiRequest } from '../../lib/api';
import { organizationKeys } from '../../lib/queries/keys';
import { alertKeys } from './keys';

/** GET organizations: a SystemAdmin's choice of ships by organization (the organizations list's own query). */
export const organizationChoicesQuery = () =>
  queryOptions({
    queryKey: organizationKeys.list(),
    queryFn: ({ signal }) => apiRequest<OrganizationListItem[]>('organizations', { signal }),
  });

/** GET profile/alert-subscription: the caller's alerts in force, the address and e-mails that failed. */
export const alertSubscriptionQuery = () =>
  queryOptions({
    queryKey: alertKeys.subscription(),
    queryFn: ({ signal }) => apiRequest<AlertSubscription>('profile/alert-subscription', { signal }),
  });

/** PUT profile/alert-subscription. */
export function useSaveAlertSubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AlertSubscriptionBody) =>
      apiRequest<AlertSubscription>('profile/alert-subscription', { method: 'PUT', body }),
    onSuccess: (data) => client.setQueryData(alertKeys.subscription(), data),
  });
}

/** GET organizations/{id}/alert-defaults. */
export const alertDefaultsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: alertKeys.defaults(organizationId),
    queryFn: ({ signal }) =>
      apiRequest<OrganizationAlertDefaults>(
        `organizations/${encodeURIComponent(organizationId)}/alert-defaults`,
        { signal },
      ),
  });

/** PUT organizations/{id}/alert-defaults; the caller's own subscription may follow them, so it is read again. */
export function useSaveAlertDefaults(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OrganizationAlertDefaultsBody) =>
      apiRequest<OrganizationAlertDefaults>(
        `organizations/${encodeURIComponent(organizationId)}/alert-defaults`,
        { method: 'PUT', body },
      ),
    onSuccess: (data) => {
      client.setQueryData(alertKeys.defaults(organizationId), data);
      void client.invalidateQueries({ queryKey: alertKeys.subscription() });
    },
  });
}

/** GET admin/outbox: the e-mails the portal composed, newest first (SystemAdmin). */
export const outboxQuery = (params: { limit: number; offset: number }) =>
  queryOptions({
    queryKey: alertKeys.outbox(params),
    queryFn: ({ signal }) => apiRequest<OutboxList>('admin/outbox', { query: params, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });

/** POST admin/outbox/resend: failed e-mails sent again (some, or all); the outbox is read again. */
export function useResendEmails() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OutboxResendBody) =>
      apiRequest<OutboxResendResult>('admin/outbox/resend', { method: 'POST', body }),
    onSettled: () => client.invalidateQueries({ queryKey: alertKeys.outboxes() }),
  });
}
