import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Facility } from '@portal/contracts/facilities';
import type { OrganizationListItem, OrganizationRef } from '@portal/contracts/organizations';
import type { ProvisionedCredential, UploadCredential } from '@portal/contracts/ship-info';
import { UPLOAD_TOKEN_HEADER } from '@portal/contracts/ship-info';
import { shipInfoSchema, type ShipInfoValues } from '@portal/contracts/forms';
import { apiRequest, ApiRequestError } from '../../lib/api';
import { redirectToLogin, userManager } from '../../lib/auth';
import { portalSettings } from '../../lib/settings';
import { facilityKeys, organizationKeys } from '../../lib/queries/keys';

export { shipInfoSchema };
const e = encodeURIComponent;

/** GET facilities/{id}/facility. */
export const shipQuery = (id: string) =>
  queryOptions({
    queryKey: facilityKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<Facility>(`facilities/${e(id)}/facility`, { signal }),
  });

/** PUT facilities/{id}/facility. */
export function useSaveShip(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: unknown) =>
      apiRequest<Facility>(`facilities/${e(id)}/facility`, {
        method: 'PUT',
        body: shipInfoSchema.parse(values) satisfies ShipInfoValues,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: facilityKeys.all }),
  });
}

/** GET organizations (the transfer targets). */
export const organizationsQuery = () =>
  queryOptions({
    queryKey: organizationKeys.list(),
    queryFn: ({ signal }) => apiRequest<OrganizationListItem[]>('organizations', { signal }),
  });

/** GET organizations/facilities/{facilityId}/has-secondary-organizations. */
export const hasSecondaryOrganizationsQuery = (facilityId: string) =>
  queryOptions({
    queryKey: facilityKeys.hasSecondaryOrganizations(facilityId),
    queryFn: ({ signal }) =>
      apiRequest<boolean>(`organizations/facilities/${e(facilityId)}/has-secondary-organizations`, {
        signal,
      }),
  });

/** POST organizations/{orgId}/{facilityId}/migrate-facility. */
export function useTransferShip(facilityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (targetOrganizationId: string) =>
      apiRequest<OrganizationRef>(
        `organizations/${e(targetOrganizationId)}/${e(facilityId)}/migrate-facility`,
        { method: 'POST' },
      ),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: facilityKeys.all }),
        client.invalidateQueries({ queryKey: organizationKeys.all }),
      ]),
  });
}

/** GET, POST and DELETE facilities/{id}/upload-credentials. */
export const uploadCredentialsQuery = (facilityId: string) =>
  queryOptions({
    queryKey: facilityKeys.uploadCredentials(facilityId),
    queryFn: ({ signal }) =>
      apiRequest<UploadCredential[]>(`facilities/${e(facilityId)}/upload-credentials`, { signal }),
  });

export function useProvision(facilityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest<ProvisionedCredential>(`facilities/${e(facilityId)}/upload-credentials`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: facilityKeys.uploadCredentials(facilityId) }),
  });
}

export function useRevokeCredential(facilityId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (credentialId: string) =>
      apiRequest(`facilities/${e(facilityId)}/upload-credentials/${e(credentialId)}`, {
        method: 'DELETE',
        responseType: 'none',
      }),
    onSettled: () => client.invalidateQueries({ queryKey: facilityKeys.uploadCredentials(facilityId) }),
  });
}

/**
 * GET scripts/psdu/facilities/{id}: the package as a blob. A token provisioned a moment ago goes along in a header
 * (never in the address) so that the package's configuration holds it; apiRequest has no header option.
 */
export async function downloadPackage(facilityId: string, token: string | null): Promise<Blob> {
  const user = await userManager().getUser();
  const headers: Record<string, string> = {};
  if (user?.access_token) headers.authorization = `Bearer ${user.access_token}`;
  if (token) headers[UPLOAD_TOKEN_HEADER] = token;
  const url = new URL(
    `${portalSettings().apiBaseUrl}scripts/psdu/facilities/${e(facilityId)}`,
    window.location.origin,
  );
  const response = await fetch(url, { headers });
  if (response.status === 401 || response.status === 403) redirectToLogin();
  if (!response.ok) throw new ApiRequestError(response.status, await response.json().catch(() => undefined));
  return response.blob();
}
