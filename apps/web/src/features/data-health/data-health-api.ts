import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DataHealth, DataHealthSummary } from '@portal/contracts/data-health';
import { apiRequest } from '../../app/api';
import { dataHealthKeys } from '../../app/queries/keys';

/** GET facilities/{id}/data-health?from&to: the health of each mapped channel over the period (default: the last days of data). */
export const dataHealthQuery = (facilityId: string, period: { from?: string; to?: string }) =>
  queryOptions({
    queryKey: dataHealthKeys.facility(facilityId, period),
    queryFn: ({ signal }) =>
      apiRequest<DataHealth>(`facilities/${facilityId}/data-health`, { signal, query: period }),
  });

/** GET data-health/summaries: the ship list's badges. */
export const dataHealthSummariesQuery = () =>
  queryOptions({
    queryKey: dataHealthKeys.summaries(),
    queryFn: ({ signal }) => apiRequest<DataHealthSummary[]>('data-health/summaries', { signal }),
    staleTime: 60_000,
  });

export const useDataHealthSummaries = () => useQuery(dataHealthSummariesQuery());
