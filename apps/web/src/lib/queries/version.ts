import { queryOptions } from '@tanstack/react-query';
import type { VersionInfo } from '@portal/contracts/environment';
import { apiRequest } from '../api';
import { versionKeys } from './keys';

/** GET version: the API's version and build number (footer, update notification). */
export const versionQuery = () =>
  queryOptions({
    queryKey: versionKeys.all,
    queryFn: ({ signal }) => apiRequest<VersionInfo>('version', { signal }),
    staleTime: Infinity,
  });
