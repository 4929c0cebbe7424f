import { useEffect } from 'react';
import { Alert } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { executionProgress } from '@portal/contracts/rules';
import { executionQuery } from '../../lib/queries/execution-status';
import { executionKeys, facilityKeys } from '../../lib/queries/keys';

/**
 * The execution the user just started, followed by its id (GET executions/{id}, every 2 s while it is queued or
 * running): queued, processing since, done with what it wrote, or failed with the reason. Once it is over, the
 * processing status and the ships (data range) are fetched again.
 */
export function ExecutionProgress({ executionId }: { executionId: string }) {
  const client = useQueryClient();
  const { data } = useQuery(executionQuery(executionId));
  const progress = data ? executionProgress(data) : null;
  const over = progress !== null && !progress.pending;
  useEffect(() => {
    if (!over) return;
    void client.invalidateQueries({ queryKey: executionKeys.status() });
    void client.invalidateQueries({ queryKey: facilityKeys.all });
  }, [over, client]);
  if (!progress) return null;
  return (
    <Alert
      severity={progress.severity}
      role={progress.severity === 'error' ? 'alert' : 'status'}
      data-testid="execution-progress"
      data-state={data?.state}
      sx={{ overflowWrap: 'anywhere' }}
    >
      {progress.text}
    </Alert>
  );
}
