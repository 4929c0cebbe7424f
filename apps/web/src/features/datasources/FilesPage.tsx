import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Collapse,
  DialogContentText,
  FormControlLabel,
  IconButton,
  LinearProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/Delete';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { DataSource } from '@portal/contracts/datasources';
import type { DataFile } from '@portal/contracts/files';
import { executionFailure, formatDateTime, MESSAGES } from '@portal/contracts/rules';
import { useFleet } from '../../lib/fleet-context';
import { executionStatusQuery } from '../../lib/queries/execution-status';
import { useNotify } from '../../lib/notifications';
import { useDataSources } from './datasources-api';
import { useDeleteFiles, useFilesOfDataSources } from './files-api';
import { FileWarningsChip } from './FileWarnings';
import { RunPanel } from './RunPanel';
import { UploadDialog } from './UploadDialog';
import { ExecutionProgress } from './ExecutionProgress';
import { FormDialog } from '../../ui/dialogs/FormDialog';

type SelectedFile = DataFile & { dataSourceId: string };

function DataSourceFiles({
  dataSource,
  files,
  loading,
  failed,
  onRetry,
  selected,
  toggle,
  toggleAll,
  onUpload,
}: {
  dataSource: DataSource;
  files: DataFile[];
  loading: boolean;
  /** The listing failed (the default error notification said so): the table says it has no list, not no files. */
  failed: boolean;
  onRetry(): void;
  selected: Map<string, SelectedFile>;
  toggle(file: DataFile): void;
  toggleAll(files: DataFile[], on: boolean): void;
  onUpload(): void;
}) {
  const [open, setOpen] = useState(true);
  const chosen = files.filter((f) => selected.has(f.id)).length;
  return (
    <Paper variant="outlined" sx={{ mb: 2 }} data-testid={`files-${dataSource.name}`}>
      <Stack direction="row" sx={{ alignItems: 'center', px: 1, py: 0.5 }}>
        <IconButton size="small" onClick={() => setOpen(!open)} aria-label={open ? 'Collapse' : 'Expand'}>
          {open ? <ExpandLess /> : <ExpandMore />}
        </IconButton>
        <Typography sx={{ fontWeight: 600, flex: 1 }}>
          {dataSource.name}{' '}
          <Typography component="span" variant="body2" color="text.secondary">
            ({files.length} files)
          </Typography>
        </Typography>
        <Button size="small" startIcon={<UploadFileIcon />} onClick={onUpload}>
          Add file
        </Button>
      </Stack>
      {loading && <LinearProgress />}
      <Collapse in={open}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  size="small"
                  checked={files.length > 0 && chosen === files.length}
                  indeterminate={chosen > 0 && chosen < files.length}
                  onChange={(e) => toggleAll(files, e.target.checked)}
                  slotProps={{ input: { 'aria-label': `Select all files of ${dataSource.name}` } }}
                />
              </TableCell>
              <TableCell>File name</TableCell>
              <TableCell>Time range (UTC)</TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Imported on</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {files.map((f) => (
              <TableRow
                key={f.id}
                hover
                selected={selected.has(f.id)}
                onClick={() => toggle(f)}
                sx={{ cursor: 'pointer' }}
              >
                <TableCell padding="checkbox">
                  <Checkbox
                    size="small"
                    checked={selected.has(f.id)}
                    slotProps={{ input: { 'aria-label': `Select ${f.fileName}` } }}
                  />
                </TableCell>
                <TableCell sx={{ wordBreak: 'break-all' }}>
                  {f.fileName}
                  <FileWarningsChip fileName={f.fileName} warnings={f.warnings ?? []} />
                </TableCell>
                <TableCell>
                  {formatDateTime(f.timeStampMin)} – {formatDateTime(f.timeStampMax)}
                </TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                  {formatDateTime(f.importedOn)}
                </TableCell>
              </TableRow>
            ))}
            {!loading && files.length === 0 && (
              <TableRow>
                <TableCell colSpan={4}>
                  {failed ? (
                    <Typography variant="body2" color="text.secondary">
                      The files could not be listed.{' '}
                      <Button size="small" onClick={onRetry}>
                        Try again
                      </Button>
                    </Typography>
                  ) : (
                    <Typography variant="body2" color="text.secondary">
                      No files yet.
                    </Typography>
                  )}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Collapse>
    </Paper>
  );
}

/** The files screen: a tree of the ship's data sources with their files, upload, multi-select and delete; the Run panel takes the selection. */
export default function FilesPage() {
  const { facilityId = '' } = useParams();
  const { facilities } = useFleet();
  const ship = facilities?.find((f) => f.id === facilityId);
  const dataSources = useDataSources(facilityId);
  const list = useMemo(() => dataSources.data ?? [], [dataSources.data]);
  const files = useFilesOfDataSources(list.map((d) => d.id));
  const remove = useDeleteFiles();
  const notify = useNotify();
  const [selected, setSelected] = useState<Map<string, SelectedFile>>(new Map());
  const [upload, setUpload] = useState<{ dataSourceId?: string } | null>(null);
  // The execution the user started here (the Run panel or the upload dialog's), followed until it is over.
  const [started, setStarted] = useState<{ facilityId: string; id: string } | null>(null);
  const followed = started?.facilityId === facilityId ? started.id : null;
  const follow = (id: string) => setStarted({ facilityId, id });
  const [confirm, setConfirm] = useState(false);
  const [deleteData, setDeleteData] = useState(false);
  // A listing that fails (the data sources or a data source's files) shows the default error notification, once per
  // failure (spec part 1, section 8: "Shown on failed ... file listing").
  const listingError = dataSources.error ?? files.find((f) => f.isError)?.error ?? null;
  useEffect(() => {
    if (listingError) notify.error(undefined, listingError);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [listingError]);
  // The ship's last execution, when it failed: shown until a later run succeeds.
  const { data: status } = useQuery(executionStatusQuery());
  const lastFailed = (status?.failed ?? []).find((f) => f.facilityId === facilityId);
  // The followed execution says it itself when it fails.
  const failure = lastFailed?.id === followed ? null : executionFailure(facilityId, status?.failed ?? []);
  const processing = (status?.items ?? []).some((e) => e.facilityId === facilityId);

  const toggle = (dataSourceId: string) => (file: DataFile) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(file.id)) next.delete(file.id);
      else next.set(file.id, { ...file, dataSourceId });
      return next;
    });
  const toggleAll = (dataSourceId: string) => (group: DataFile[], on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const f of group) {
        if (on) next.set(f.id, { ...f, dataSourceId });
        else next.delete(f.id);
      }
      return next;
    });
  const selectedFiles = [...selected.values()];

  const deleteSelected = () =>
    remove.mutate(
      { files: selectedFiles.map((f) => ({ id: f.id, dataSourceId: f.dataSourceId })), deleteData },
      {
        onSuccess: () => {
          notify.success(MESSAGES.FILES_DELETED);
          setSelected(new Map());
          setConfirm(false);
        },
        onError: (e) => {
          notify.error(undefined, e);
          setConfirm(false);
        },
      },
    );

  return (
    <Box sx={{ p: 2 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={{ xs: 1, sm: 2 }}
        sx={{ alignItems: { xs: 'stretch', sm: 'center' }, mb: 2 }}
      >
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h5" component="h2">
            Files
          </Typography>
          {ship && (
            <Typography variant="body2" color="text.secondary" data-testid="ship-data-range">
              Data {formatDateTime(ship.dataTimeStampMin)} – {formatDateTime(ship.dataTimeStampMax)}
              {ship.dataCoverage !== null ? `, coverage ${ship.dataCoverage} %` : ''}
            </Typography>
          )}
        </Box>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button
            variant="outlined"
            color="error"
            startIcon={<DeleteIcon />}
            disabled={selected.size === 0}
            onClick={() => {
              setDeleteData(false);
              setConfirm(true);
            }}
          >
            Delete files
          </Button>
          <Button
            variant="contained"
            startIcon={<UploadFileIcon />}
            disabled={list.length === 0}
            onClick={() => setUpload({})}
          >
            Add file
          </Button>
        </Stack>
      </Stack>
      {dataSources.isError && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          The data sources could not be listed.{' '}
          <Button size="small" onClick={() => void dataSources.refetch()}>
            Try again
          </Button>
        </Typography>
      )}
      {failure && !processing && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="execution-failed">
          <strong>{failure.label}</strong> {failure.at}: {failure.error}
        </Alert>
      )}
      {dataSources.isLoading && <LinearProgress />}
      {dataSources.isSuccess && list.length === 0 && (
        <Alert severity="info">
          This ship has no data sources yet; a system administrator configures them.
        </Alert>
      )}
      {/* Below lg the Run panel comes first, so a long file list does not push it out of reach; beside the list it stays in view. */}
      <Stack sx={{ alignItems: 'flex-start' }} direction={{ xs: 'column-reverse', lg: 'row' }} spacing={2}>
        <Box sx={{ flex: 2, minWidth: 0, width: '100%' }}>
          {list.map((d, i) => (
            <DataSourceFiles
              key={d.id}
              dataSource={d}
              files={files[i]?.data ?? []}
              loading={files[i]?.isLoading ?? false}
              failed={files[i]?.isError ?? false}
              onRetry={() => void files[i]?.refetch()}
              selected={selected}
              toggle={toggle(d.id)}
              toggleAll={toggleAll(d.id)}
              onUpload={() => setUpload({ dataSourceId: d.id })}
            />
          ))}
        </Box>
        <Box
          sx={{ flex: 1, minWidth: { lg: 280 }, width: '100%', position: { lg: 'sticky' }, top: { lg: 16 } }}
        >
          <Stack spacing={1}>
            <RunPanel facilityId={facilityId} selectedFiles={selectedFiles} onQueued={follow} />
            {followed && <ExecutionProgress key={followed} executionId={followed} />}
          </Stack>
        </Box>
      </Stack>
      {upload && (
        <UploadDialog
          facilityId={facilityId}
          dataSources={list}
          initialDataSourceId={upload.dataSourceId}
          onClose={() => setUpload(null)}
          onQueued={follow}
        />
      )}
      <FormDialog
        title="Delete files"
        open={confirm}
        onClose={() => setConfirm(false)}
        submitLabel="Delete"
        submitColor="error"
        onSubmit={deleteSelected}
        busy={remove.isPending}
      >
        <DialogContentText>Delete {selected.size} file(s)?</DialogContentText>
        <FormControlLabel
          control={<Checkbox checked={deleteData} onChange={(e) => setDeleteData(e.target.checked)} />}
          label={MESSAGES.ALSO_DELETE_ASSOCIATED_DATA}
        />
      </FormDialog>
    </Box>
  );
}
