import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateOrganizationBody,
  OrganizationDetail,
  OrganizationListItem,
  OrganizationUser,
  UpdateOrganizationBody,
} from '@portal/contracts/organizations';
import { generateLinkKey, organizationSchema } from '@portal/contracts/forms';
import { apiRequest } from '../../lib/api';
import { organizationKeys } from '../../lib/queries/keys';

export { organizationSchema };

/** GET organizations: every organization for SystemAdmin, the own one for others. */
export const organizationsQuery = () =>
  queryOptions({
    queryKey: organizationKeys.list(),
    queryFn: ({ signal }) => apiRequest<OrganizationListItem[]>('organizations', { signal }),
  });

/** GET organizations/{id}/organization. */
export const organizationQuery = (id: string) =>
  queryOptions({
    queryKey: organizationKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest<OrganizationDetail>(`organizations/${encodeURIComponent(id)}/organization`, { signal }),
  });

/** GET organizations/{id}/users. */
export const organizationUsersQuery = (id: string) =>
  queryOptions({
    queryKey: organizationKeys.users(id),
    queryFn: ({ signal }) =>
      apiRequest<OrganizationUser[]>(`organizations/${encodeURIComponent(id)}/users`, { signal }),
  });

/** POST organizations with a generated 7-character link key. */
export function useCreateOrganization() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: CreateOrganizationBody) =>
      apiRequest<OrganizationDetail>('organizations', {
        method: 'POST',
        body: { ...organizationSchema.parse(values), linkKey: generateLinkKey() },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}

/** PUT organizations/{id}/update-organization. */
export function useUpdateOrganization(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: UpdateOrganizationBody) =>
      apiRequest<OrganizationDetail>(`organizations/${encodeURIComponent(id)}/update-organization`, {
        method: 'PUT',
        body: organizationSchema.parse(values),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}
