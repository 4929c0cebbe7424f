import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, CreatedApiKey } from '@portal/contracts/api-keys';
import type { CreateApiKeyBody } from '@portal/contracts/forms';
import { apiRequest } from '../../lib/api';
import { apiKeyKeys } from './keys';

const base = (organizationId: string) => `organizations/${encodeURIComponent(organizationId)}/api-keys`;

/** GET organizations/{id}/api-keys: the keys not revoked, without their secrets. */
export const apiKeysQuery = (organizationId: string) =>
  queryOptions({
    queryKey: apiKeyKeys.organization(organizationId),
    queryFn: ({ signal }) => apiRequest<ApiKey[]>(base(organizationId), { signal }),
  });

/** POST organizations/{id}/api-keys: the new key with its secret, shown once. */
export function useCreateApiKey(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) =>
      apiRequest<CreatedApiKey>(base(organizationId), { method: 'POST', body }),
    onSettled: () => client.invalidateQueries({ queryKey: apiKeyKeys.organization(organizationId) }),
  });
}

/** DELETE organizations/{id}/api-keys/{keyId}: revoked at once. */
export function useRevokeApiKey(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      apiRequest(`${base(organizationId)}/${encodeURIComponent(keyId)}`, {
        method: 'DELETE',
        responseType: 'none',
      }),
    onSettled: () => client.invalidateQueries({ queryKey: apiKeyKeys.organization(organizationId) }),
  });
}
