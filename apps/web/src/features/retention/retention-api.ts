import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Retention, RetentionBody } from '@portal/contracts/retention';
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
