import { useEffect, useState } from 'react';
import { Button, Paper, Stack, TextField, Typography } from '@mui/material';
import {
  canRun,
  executionPeriodErrors,
  executionPeriodFromFiles,
  executionRequestRange,
  MESSAGES,
  type ExecutionPeriod,
  type ExecutionPeriodField,
} from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { useExecute } from './execute-api';

export interface SelectedFile {
  id: string;
  timeStampMin: string;
  timeStampMax: string;
}

const PARTS: { field: ExecutionPeriodField; label: string; placeholder: string }[] = [
  { field: 'fromDate', label: 'From date', placeholder: 'YYYY-MM-DD' },
  { field: 'fromTime', label: 'From time', placeholder: 'HH:mm' },
  { field: 'toDate', label: 'To date', placeholder: 'YYYY-MM-DD' },
  { field: 'toTime', label: 'To time', placeholder: 'HH:mm' },
];

/**
 * The Run part of the files screen: the execution period (UTC) is set from the selected files and may be edited;
 * Run queues an execution of the ship for that period and the selected files, and hands its id to `onQueued`.
 */
export function RunPanel({
  facilityId,
  selectedFiles,
  title = 'Execution period (UTC)',
  note,
  onQueued,
}: {
  facilityId: string;
  selectedFiles: SelectedFile[];
  title?: string;
  /** The line under the period; by default how many files are selected. */
  note?: string;
  /** The execution was queued: its id, to follow it (ExecutionProgress). */
  onQueued?(executionId: string): void;
}) {
  const selectionKey = selectedFiles.map((f) => `${f.id}:${f.timeStampMin}:${f.timeStampMax}`).join('|');
  const [period, setPeriod] = useState<ExecutionPeriod>(() => executionPeriodFromFiles(selectedFiles));
  const [edited, setEdited] = useState(false);
  // Selecting files sets the period; clearing the selection clears it.
  useEffect(() => {
    setPeriod(executionPeriodFromFiles(selectedFiles));
    setEdited(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectionKey]);
  // An untouched empty period is not an error yet: the messages appear once there is something to check.
  const errors = edited || Object.values(period).some(Boolean) ? executionPeriodErrors(period) : {};
  const execute = useExecute();
  const notify = useNotify();
  const enabled = canRun(period, selectedFiles.length) && !execute.isPending;

  const run = () => {
    const { from, to } = executionRequestRange(period);
    execute.mutate(
      { facilityId, from, to, facilityDataSourceFileIds: selectedFiles.map((f) => f.id) },
      {
        onSuccess: (queued) => {
          notify.success(MESSAGES.EXECUTION_SUCCESS);
          onQueued?.(queued.id);
        },
        onError: () => notify.error(),
      },
    );
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="run-panel" data-facility-id={facilityId}>
      <Typography variant="subtitle1" component="h3" gutterBottom>
        {title}
      </Typography>
      <Stack sx={{ flexWrap: 'wrap', alignItems: 'flex-start' }} direction="row" spacing={1} useFlexGap>
        {PARTS.map(({ field, label, placeholder }) => (
          <TextField
            key={field}
            size="small"
            label={label}
            placeholder={placeholder}
            value={period[field]}
            onChange={(e) => {
              setEdited(true);
              setPeriod((p) => ({ ...p, [field]: e.target.value }));
            }}
            error={Boolean(errors[field])}
            helperText={errors[field] ?? ' '}
            sx={{ width: { xs: 'calc(50% - 4px)', sm: 150 } }}
          />
        ))}
        <Button variant="contained" onClick={run} disabled={!enabled} sx={{ mt: 0.25 }}>
          Run
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {note ??
          (selectedFiles.length
            ? `${selectedFiles.length} file(s) selected`
            : 'Select files to set the period.')}
      </Typography>
    </Paper>
  );
}
