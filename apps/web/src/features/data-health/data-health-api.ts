import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DataHealth,
  DataHealthSummary,
  DataHealthThresholdEntry,
  DataHealthThresholdsBody,
} from '@portal/contracts/data-health';
import { apiRequest } from '../../lib/api';
import { dataHealthKeys } from '../../lib/queries/keys';

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

/** GET organizations/{id}/data-health-thresholds: every measurement field's thresholds in force (own or default). */
export const dataHealthThresholdsQuery = (organizationId: string) =>
  queryOptions({
    queryKey: dataHealthKeys.thresholds(organizationId),
    queryFn: ({ signal }) =>
      apiRequest<DataHealthThresholdEntry[]>(
        `organizations/${encodeURIComponent(organizationId)}/data-health-thresholds`,
        { signal },
      ),
  });

/** PUT organizations/{id}/data-health-thresholds; the ships' health is computed again, so it is read again. */
export function useSaveDataHealthThresholds(organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DataHealthThresholdsBody) =>
      apiRequest<DataHealthThresholdEntry[]>(
        `organizations/${encodeURIComponent(organizationId)}/data-health-thresholds`,
        { method: 'PUT', body },
      ),
    onSuccess: (data) => {
      client.setQueryData(dataHealthKeys.thresholds(organizationId), data);
      void client.invalidateQueries({
        queryKey: dataHealthKeys.all,
        predicate: (q) => q.queryKey[1] !== 'thresholds',
      });
    },
  });
}
