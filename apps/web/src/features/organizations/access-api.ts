import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrganizationRef } from '@portal/contracts/organizations';
import { linkOrganizationSchema } from '@portal/contracts/forms';
import { apiRequest } from '../../lib/api';
import { facilityKeys, organizationKeys } from '../../lib/queries/keys';

export { linkOrganizationSchema };

const e = encodeURIComponent;

/** After any access change the matrix, the counts and the ship lists are stale. */
function useInvalidateAccess() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: organizationKeys.all }),
      client.invalidateQueries({ queryKey: facilityKeys.all }),
    ]);
}

/** POST or DELETE organizations/facilities/{userId}/{facilityId}/user-facility-link. */
export function useUserFacilityLink() {
  const invalidate = useInvalidateAccess();
  return useMutation({
    mutationFn: ({ userId, facilityId, granted }: { userId: string; facilityId: string; granted: boolean }) =>
      apiRequest(`organizations/facilities/${e(userId)}/${e(facilityId)}/user-facility-link`, {
        method: granted ? 'POST' : 'DELETE',
        responseType: 'none',
      }),
    onSettled: invalidate,
  });
}

/** POST or DELETE organizations/{orgId}/{facilityId}/organization-facility-link (DELETE of the own organization removes own access). */
export function useOrganizationFacilityLink() {
  const invalidate = useInvalidateAccess();
  return useMutation({
    mutationFn: ({
      organizationId,
      facilityId,
      granted,
    }: {
      organizationId: string;
      facilityId: string;
      granted: boolean;
    }) =>
      apiRequest(`organizations/${e(organizationId)}/${e(facilityId)}/organization-facility-link`, {
        method: granted ? 'POST' : 'DELETE',
        responseType: 'none',
      }),
    onSettled: invalidate,
  });
}

/** POST organizations/{id}/{linkKey}/organization-link. */
export function useLinkOrganization(organizationId: string) {
  const invalidate = useInvalidateAccess();
  return useMutation({
    mutationFn: (linkKey: string) => {
      const { linkKey: key } = linkOrganizationSchema.parse({ linkKey });
      return apiRequest<OrganizationRef>(`organizations/${e(organizationId)}/${e(key)}/organization-link`, {
        method: 'POST',
      });
    },
    onSuccess: invalidate,
  });
}

/** DELETE organizations/{id}/{otherId}: unlink. */
export function useUnlinkOrganization(organizationId: string) {
  const invalidate = useInvalidateAccess();
  return useMutation({
    mutationFn: (otherId: string) =>
      apiRequest(`organizations/${e(organizationId)}/${e(otherId)}`, {
        method: 'DELETE',
        responseType: 'none',
      }),
    onSettled: invalidate,
  });
}
