import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  Typography,
} from '@mui/material';
import type { DataSource } from '@portal/contracts/datasources';
import type { UploadResponse } from '@portal/contracts/files';
import {
  groupUploadWarnings,
  MESSAGES,
  RUN_UPLOADED_FILES,
  uploadExecutionNote,
  uploadWarningFiles,
} from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { dataSourceFilesQuery, useUploadFile } from './files-api';
import { FileWarningList } from './FileWarnings';
import { RunPanel } from './RunPanel';
import { FormDialog } from '../../ui/dialogs/FormDialog';

/**
 * Add file: one file with the data source's extensions or a .zip of them; shows "N file(s) imported", each error
 * message and the imported files' warnings (each distinct one once, with its files). With Run for the uploaded files
 * ticked (the default) the upload itself queues the execution of the uploaded range (or joins the one waiting for
 * the ship), which the files screen then follows; unticked, the dialog offers Run for the uploaded files' range.
 */
export function UploadDialog({
  facilityId,
  dataSources,
  initialDataSourceId,
  onClose,
  onQueued,
}: {
  facilityId: string;
  dataSources: DataSource[];
  initialDataSourceId?: string;
  onClose(): void;
  /** An execution was queued by the upload or from the dialog: its id, for the files screen to follow. */
  onQueued?(executionId: string): void;
}) {
  const [dataSourceId, setDataSourceId] = useState(initialDataSourceId ?? dataSources[0]?.id ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<UploadResponse | null>(null);
  const [runUploaded, setRunUploaded] = useState(true);
  const upload = useUploadFile();
  const notify = useNotify();
  const dataSource = dataSources.find((d) => d.id === dataSourceId);
  const imported = result?.ids ?? [];
  // The upload refreshes the data source's files; the imported ones give the range to run for (when it queued none).
  const offerRun = imported.length > 0 && !result?.execution;
  const files = useQuery({ ...dataSourceFilesQuery(dataSourceId), enabled: offerRun });
  const executionNote = uploadExecutionNote(result?.execution);
  const uploadedFiles = (files.data ?? []).filter((f) => imported.includes(f.id));
  const accept = dataSource
    ? [dataSource.dataSourceReaderAcceptedFileExtensionsByComma, '.zip'].filter(Boolean).join(',')
    : undefined;
  const submit = () => {
    if (!file || !dataSourceId) return;
    setResult(null);
    upload.mutate(
      { dataSourceId, file, execute: runUploaded },
      {
        onSuccess: (answer) => {
          setResult(answer);
          if (answer.execution) onQueued?.(answer.execution.id);
        },
        onError: (e) => notify.error(undefined, e),
      },
    );
  };
  return (
    <FormDialog
      title="Add file"
      onClose={onClose}
      cancelLabel="Close"
      submitLabel={upload.isPending ? 'Uploading…' : 'Upload'}
      onSubmit={submit}
      invalid={!file || !dataSourceId}
      busy={upload.isPending}
      enterSubmits={false}
    >
      <Stack spacing={2} sx={{ mt: 1 }}>
        <FormControl fullWidth>
          <InputLabel id="upload-datasource-label">Data source</InputLabel>
          <Select
            labelId="upload-datasource-label"
            label="Data source"
            value={dataSourceId}
            onChange={(e) => setDataSourceId(e.target.value)}
          >
            {dataSources.map((d) => (
              <MenuItem key={d.id} value={d.id}>
                {d.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <Stack sx={{ alignItems: 'center' }} direction="row" spacing={2}>
          <Button variant="outlined" component="label">
            Choose file
            <input
              hidden
              type="file"
              accept={accept}
              data-testid="upload-file-input"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </Button>
          <Typography variant="body2" color="text.secondary">
            {file?.name ??
              `A ${dataSource?.dataSourceReaderAcceptedFileExtensionsByComma ?? ''} file or a .zip of them`}
          </Typography>
        </Stack>
        <FormControlLabel
          control={
            <Checkbox
              checked={runUploaded}
              onChange={(e) => setRunUploaded(e.target.checked)}
              disabled={upload.isPending}
            />
          }
          label={RUN_UPLOADED_FILES}
        />
        {result && (
          <Alert severity={result.ids.length ? 'success' : 'info'}>
            {MESSAGES.filesImported(result.ids.length)}
          </Alert>
        )}
        {executionNote && (
          <Alert severity="info" role="status" data-testid="upload-execution">
            {executionNote}
          </Alert>
        )}
        {result?.errorMessages.map((m, i) => (
          <Alert key={i} severity="error">
            {m}
          </Alert>
        ))}
        {groupUploadWarnings(result?.warnings ?? []).map(({ fileNames, warning }, i) => (
          <FileWarningList key={i} title={uploadWarningFiles(fileNames)} warnings={[warning]} />
        ))}
        {offerRun && uploadedFiles.length > 0 && uploadedFiles.length === imported.length && (
          <RunPanel
            facilityId={facilityId}
            selectedFiles={uploadedFiles}
            title="Run for the uploaded files (UTC)"
            note={`The period spans the ${uploadedFiles.length} uploaded file(s).`}
            onQueued={(executionId) => {
              onQueued?.(executionId);
              onClose();
            }}
          />
        )}
      </Stack>
    </FormDialog>
  );
}
