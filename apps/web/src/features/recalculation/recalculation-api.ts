import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  RecalculationActionResponse,
  RecalculationKind,
  RecalculationRequest,
} from '@portal/contracts/execution';
import { apiRequest } from '../../lib/api';
import { recalculationKeys } from './keys';

/** GET algorithm/calculations/{measurement-fields|report-fields}?recalculationRequested=true[&facilityId]: the pending recalculations. */
export const pendingRecalculationsQuery = (kind: RecalculationKind, facilityId?: string) =>
  queryOptions({
    queryKey: recalculationKeys.list(kind, facilityId),
    queryFn: ({ signal }) =>
      apiRequest<RecalculationRequest[]>(`algorithm/calculations/${kind}`, {
        signal,
        query: { recalculationRequested: true, facilityId },
      }),
  });

export const usePendingRecalculations = (kind: RecalculationKind, facilityId?: string) =>
  useQuery({
    ...pendingRecalculationsQuery(kind, facilityId),
    enabled: kind === 'report-fields' || Boolean(facilityId),
  });

export type QueueAction = 'remove' | 'cancel' | 'execute';

/** DELETE .../recalculation (remove from queue), POST .../recalculation/cancel, POST .../recalculation/execute, with the ids. */
export function useQueueAction(kind: RecalculationKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, ids }: { action: QueueAction; ids: string[] }) => {
      const base = `algorithm/calculations/${kind}/recalculation`;
      if (action === 'remove')
        return apiRequest<RecalculationActionResponse>(base, { method: 'DELETE', body: { ids } });
      return apiRequest<RecalculationActionResponse>(`${base}/${action}`, { method: 'POST', body: { ids } });
    },
    onSettled: () => void client.invalidateQueries({ queryKey: recalculationKeys.kind(kind) }),
  });
}
