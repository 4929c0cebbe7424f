import { queryOptions } from '@tanstack/react-query';
import type { UserProfile } from '@portal/contracts/auth';
import { apiRequest } from '../api';
import { profileKeys } from './keys';

/** GET auth/me: the signed-in user's profile (roles, organization), per subject. */
export const profileQuery = (subject: string) =>
  queryOptions({
    queryKey: profileKeys.detail(subject),
    queryFn: ({ signal }) => apiRequest<UserProfile>('auth/me', { signal }),
    staleTime: 30_000,
  });
