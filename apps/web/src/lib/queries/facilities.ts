import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Facility } from '@portal/contracts/facilities';
import { apiRequest } from '../api';
import { facilityKeys } from './keys';

/** GET facilities: the ships the signed-in user sees, sorted by name. */
export const facilitiesQuery = (
  params: { asAdmin?: boolean; organizationId?: string; userId?: string } = {},
) =>
  queryOptions({
    queryKey: facilityKeys.list(params),
    queryFn: ({ signal }) => apiRequest<Facility[]>('facilities', { query: params, signal }),
  });

export const useFacilities = () => useQuery(facilitiesQuery());
