import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ExecuteBody, ExecuteResponse } from '@portal/contracts/execution';
import { apiRequest } from '../../lib/api';
import { executionKeys, facilityKeys } from '../../lib/queries/keys';

/** POST algorithm/calculations/measurement-field/execute: queues an execution; it runs in the background. */
export function useExecute() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ExecuteBody) =>
      apiRequest<ExecuteResponse>('algorithm/calculations/measurement-field/execute', {
        method: 'POST',
        body,
      }),
    onSuccess: () => {
      // The ship list shows Processing while it runs.
      void client.invalidateQueries({ queryKey: executionKeys.all });
      void client.invalidateQueries({ queryKey: facilityKeys.all });
    },
  });
}
