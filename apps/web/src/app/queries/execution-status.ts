import { queryOptions } from '@tanstack/react-query';
import type { ExecutionStatus } from '@portal/contracts/executions';
import { apiRequest } from '../api';
import { executionKeys } from './keys';

export const EXECUTION_STATUS_POLL_MS = 10_000;

/**
 * GET algorithm/calculations: running executions (facilityId, startedOn) and each ship's last failed one, polled every
 * 10 s by the ship list and the files screen.
 */
export const executionStatusQuery = () =>
  queryOptions({
    queryKey: executionKeys.status(),
    queryFn: ({ signal }) => apiRequest<ExecutionStatus>('algorithm/calculations', { signal }),
    refetchInterval: EXECUTION_STATUS_POLL_MS,
  });
