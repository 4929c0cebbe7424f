import { queryOptions } from '@tanstack/react-query';
import type { Execution, ExecutionStatus } from '@portal/contracts/executions';
import { apiRequest } from '../api';
import { executionKeys } from './keys';

export const EXECUTION_STATUS_POLL_MS = 10_000;

export const EXECUTION_FOLLOW_POLL_MS = 2_000;

/**
 * GET algorithm/calculations/base: running executions (facilityId, startedOn) and each ship's last failed one, polled every
 * 10 s by the ship list and the files screen.
 */
export const executionStatusQuery = () =>
  queryOptions({
    queryKey: executionKeys.status(),
    queryFn: ({ signal }) => apiRequest<ExecutionStatus>('algorithm/calculations/base', { signal }),
    refetchInterval: EXECUTION_STATUS_POLL_MS,
  });

/** GET executions/{id}: one execution, asked again every 2 s while it is queued or running. */
export const executionQuery = (id: string) =>
  queryOptions({
    queryKey: executionKeys.detail(id),
    queryFn: ({ signal }) => apiRequest<Execution>(`executions/${encodeURIComponent(id)}`, { signal }),
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === 'done' || state === 'failed' ? false : EXECUTION_FOLLOW_POLL_MS;
    },
  });
