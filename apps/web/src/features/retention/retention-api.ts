import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Retention, RetentionBody, StorageMonths } from '@portal/contracts/retention';
import { apiRequest } from '../../lib/api';
import { retentionKeys } from './keys';

const base = (organizationId: string) => `organizations/${encodeURIComponent(organizationId)}/retention`;

/** GET organizations/{id}/retention: months kept online and what happens to older data. */
export const retentionQuery = (organizationId: string) =>
  queryOptions({
    queryKey: retentionKeys.organization(organizationId),
    queryFn: ({ signal }) => apiRequest<Retention>(base(organizationId), { signal }),
  });

/** PUT organizations/{id}/retention: audited on the server. */
export function useSaveRetention(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RetentionBody) => apiRequest<Retention>(base(organizationId), { method: 'PUT', body }),
    onSettled: () => client.invalidateQueries({ queryKey: retentionKeys.organization(organizationId) }),
  });
}

/** GET storage/months (SystemAdmin): the months online, the archived months, and before which month data may go. */
export const storageMonthsQuery = () =>
  queryOptions({
    queryKey: retentionKeys.storageMonths(),
    queryFn: ({ signal }) => apiRequest<StorageMonths>('storage/months', { signal }),
  });

/** POST storage/months/{month}/restore (SystemAdmin): audited on the server; the dashboards' answers follow. */
export function useRestoreMonth() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (month: string) =>
      apiRequest<{ tables: string[] }>(`storage/months/${encodeURIComponent(month)}/restore`, {
        method: 'POST',
      }),
    onSettled: () => client.invalidateQueries(),
  });
}
