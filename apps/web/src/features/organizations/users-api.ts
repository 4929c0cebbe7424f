import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrganizationUser } from '@portal/contracts/organizations';
import { userFormSchema, userRequestBody, type UserFormValues } from '@portal/contracts/forms';
import { apiRequest } from '../../lib/api';
import { organizationKeys } from '../../lib/queries/keys';

export { userFormSchema };

const e = encodeURIComponent;

/** POST organizations/{orgId}/users; an empty password is replaced by a generated one, answered with the user. */
export function useCreateUser(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (values: UserFormValues) => {
      const body = userRequestBody(userFormSchema('create').parse(values) as UserFormValues, 'create');
      const user = await apiRequest<OrganizationUser>(`organizations/${e(organizationId)}/users`, {
        method: 'POST',
        body,
      });
      return { user, generatedPassword: values.password ? null : body.password! };
    },
    onSuccess: () => client.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}

/** PUT users/{id}: the password only when a new one was entered. */
export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values }: { id: string; values: UserFormValues }) =>
      apiRequest<OrganizationUser>(`users/${e(id)}`, {
        method: 'PUT',
        body: userRequestBody(userFormSchema('update').parse(values) as UserFormValues, 'update'),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}

/** DELETE users/{id}. */
export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(`users/${e(id)}`, { method: 'DELETE', responseType: 'none' }),
    onSuccess: () => client.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}
