import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';

export interface ChangePasswordBody {
  currentPassword: string;
  newPassword: string;
}

/** PATCH users/{id}/change-password (only one's own). */
export function useChangePassword(userId: string | undefined) {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) =>
      apiRequest<void>(`users/${encodeURIComponent(userId ?? '')}/change-password`, {
        method: 'PATCH',
        body,
        responseType: 'none',
      }),
  });
}
