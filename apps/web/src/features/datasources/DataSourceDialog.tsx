import { useState } from 'react';
import {
  Button,
  FormControl,
  FormControlLabel,
  FormHelperText,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import type { DataSource } from '@portal/contracts/datasources';
import { validateDataSource, validateReaderForm } from '@portal/contracts/forms';
import { MESSAGES } from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { useSaveDataSource, SampleUploadError } from './datasources-api';
import { useReaderPreview, type PreviewFile } from './reader-preview-api';
import { useReaders } from './readers-api';
import { ReaderConfigurationForm } from './ReaderConfigurationForm';
import { ReaderPreviewTable } from './ReaderPreviewTable';
import { FormDialog } from '../../ui/dialogs/FormDialog';

/** A stored configuration shown under Advanced as the form writes it: indented (a text that is not JSON as it is). */
function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

interface FormState {
  name: string;
  dataSourceReaderId: string;
  dataSourceReaderConfiguration: string;
  measureFrequencyInSeconds: string;
  utcTimezoneOffsetInMinutes: string;
  note: string;
  isPrimary: boolean;
}

/**
 * Add or edit a data source: name, reader, sample file, the reader configuration as a form (prefilled with the
 * reader's default; the JSON under Advanced) with a live preview of the sample's first rows, frequency, offset,
 * note, primary.
 */
export function DataSourceDialog({
  facilityId,
  dataSource,
  isFirst,
  onClose,
}: {
  facilityId: string;
  dataSource?: DataSource;
  isFirst: boolean;
  onClose(): void;
}) {
  const readers = useReaders();
  const save = useSaveDataSource(facilityId);
  const notify = useNotify();
  const [values, setValues] = useState<FormState>(() => ({
    name: dataSource?.name ?? '',
    dataSourceReaderId: dataSource?.dataSourceReaderId ?? '',
    dataSourceReaderConfiguration: prettyJson(dataSource?.dataSourceReaderConfiguration ?? ''),
    measureFrequencyInSeconds: dataSource ? String(dataSource.measureFrequencyInSeconds) : '60',
    utcTimezoneOffsetInMinutes: dataSource ? String(dataSource.utcTimezoneOffsetInMinutes) : '0',
    note: dataSource?.note ?? '',
    isPrimary: dataSource?.isPrimary ?? isFirst,
  }));
  const [sampleFile, setSampleFile] = useState<File | null>(null);
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const errors = validateDataSource(values);
  const reader = readers.data?.find((r) => r.id === values.dataSourceReaderId);
  const readerErrors = reader ? validateReaderForm(reader.id, values.dataSourceReaderConfiguration) : {};
  const show = (field: keyof FormState) => (touched ? errors[field] : undefined);
  const set = (patch: Partial<FormState>) => setValues((v) => ({ ...v, ...patch }));

  const previewFile: PreviewFile | null = sampleFile
    ? { kind: 'file', file: sampleFile }
    : dataSource?.sampleFileName
      ? { kind: 'sample', dataSourceId: dataSource.id }
      : null;
  // The preview reads with the offset typed once it is one (the form says what is wrong with it meanwhile).
  const offset = errors.utcTimezoneOffsetInMinutes ? 0 : Number(values.utcTimezoneOffsetInMinutes);
  const preview = useReaderPreview(
    facilityId,
    previewFile,
    reader && !readerErrors['']
      ? {
          dataSourceReaderId: reader.id,
          dataSourceReaderConfiguration: values.dataSourceReaderConfiguration,
          utcTimezoneOffsetInMinutes: offset,
        }
      : null,
  );
  // The sample's column names as last read: a preview that reads no rows (the time column not chosen yet, after the
  // date column was) keeps them, so the time column is still picked from the list (the browser tests met an empty list
  // when that preview answered first).
  const headerSource = sampleFile ?? dataSource?.id ?? null;
  const readHeader = preview.data?.header;
  const [lastHeader, setLastHeader] = useState<{ source: unknown; header: string[] }>({
    source: null,
    header: [],
  });
  if (readHeader?.length && (lastHeader.source !== headerSource || lastHeader.header !== readHeader))
    setLastHeader({ source: headerSource, header: readHeader });
  const header = readHeader?.length
    ? readHeader
    : lastHeader.source === headerSource
      ? lastHeader.header
      : [];
  const previewFailure = preview.error
    ? ((preview.error as { body?: { message?: string } }).body?.message ?? MESSAGES.DEFAULT_ERROR)
    : null;

  const submit = () => {
    setTouched(true);
    setServerError(null);
    if (Object.keys(errors).length || Object.keys(readerErrors).length) return;
    save.mutate(
      { id: dataSource?.id, values, sampleFile },
      {
        onSuccess: () => {
          notify.success();
          onClose();
        },
        onError: (error) => {
          if (error instanceof SampleUploadError) notify.error(MESSAGES.SAMPLE_UPLOAD_ERROR, error.cause);
          else {
            const body = (error as { body?: { message?: string } }).body;
            setServerError(body?.message ?? null);
            notify.error(undefined, error);
          }
        },
      },
    );
  };

  return (
    <FormDialog
      title={dataSource ? `Edit data source ${dataSource.name}` : 'Add data source'}
      width="wide"
      onClose={onClose}
      submitLabel={dataSource ? 'Save' : 'Add'}
      onSubmit={submit}
      busy={save.isPending}
      error={serverError}
    >
      <Stack spacing={2} sx={{ mt: 1 }}>
        <TextField
          label="Name"
          required
          value={values.name}
          onChange={(e) => set({ name: e.target.value })}
          error={!!show('name')}
          helperText={show('name') ?? 'Letters, digits and underscore; no spaces'}
        />
        <FormControl required error={!!show('dataSourceReaderId')}>
          <InputLabel id="reader-label">Reader</InputLabel>
          <Select
            labelId="reader-label"
            label="Reader"
            value={values.dataSourceReaderId}
            onChange={(e) => {
              const next = readers.data?.find((r) => r.id === e.target.value);
              set({
                dataSourceReaderId: e.target.value,
                dataSourceReaderConfiguration:
                  next?.defaultConfiguration ?? values.dataSourceReaderConfiguration,
              });
            }}
          >
            {(readers.data ?? []).map((r) => (
              <MenuItem key={r.id} value={r.id}>
                {r.name}
              </MenuItem>
            ))}
          </Select>
          {show('dataSourceReaderId') && <FormHelperText>{show('dataSourceReaderId')}</FormHelperText>}
        </FormControl>
        <Stack sx={{ alignItems: 'center' }} direction="row" spacing={2}>
          <Button variant="outlined" component="label">
            {dataSource?.sampleFileName || sampleFile ? 'Replace sample file' : 'Choose sample file'}
            <input
              hidden
              type="file"
              data-testid="sample-file-input"
              accept={reader?.acceptedFileExtensionsByComma}
              onChange={(e) => setSampleFile(e.target.files?.[0] ?? null)}
            />
          </Button>
          <Typography variant="body2" color="text.secondary">
            {sampleFile?.name ?? dataSource?.sampleFileName ?? 'No sample file (optional)'}
          </Typography>
        </Stack>
        {reader && (
          <ReaderConfigurationForm
            readerId={reader.id}
            value={values.dataSourceReaderConfiguration}
            onChange={(json) => set({ dataSourceReaderConfiguration: json })}
            header={header}
            errors={touched ? readerErrors : { '': readerErrors[''] }}
            jsonError={show('dataSourceReaderConfiguration')}
          />
        )}
        {reader &&
          (previewFile ? (
            <ReaderPreviewTable
              preview={preview.data}
              loading={preview.isFetching}
              failure={previewFailure}
            />
          ) : (
            <Typography variant="body2" color="text.secondary">
              Choose a sample file to see its first rows read with these settings.
            </Typography>
          ))}
        <Stack direction="row" spacing={2}>
          <TextField
            label="Measure frequency (seconds)"
            required
            value={values.measureFrequencyInSeconds}
            onChange={(e) => set({ measureFrequencyInSeconds: e.target.value })}
            error={!!show('measureFrequencyInSeconds')}
            helperText={show('measureFrequencyInSeconds')}
            fullWidth
          />
          <TextField
            label="UTC timezone offset (minutes)"
            required
            value={values.utcTimezoneOffsetInMinutes}
            onChange={(e) => set({ utcTimezoneOffsetInMinutes: e.target.value })}
            error={!!show('utcTimezoneOffsetInMinutes')}
            helperText={show('utcTimezoneOffsetInMinutes') ?? 'Logger clock = UTC + offset'}
            fullWidth
          />
        </Stack>
        <TextField
          label="Note"
          multiline
          minRows={2}
          value={values.note}
          onChange={(e) => set({ note: e.target.value })}
        />
        <FormControlLabel
          control={
            <Switch checked={values.isPrimary} onChange={(e) => set({ isPrimary: e.target.checked })} />
          }
          label="Primary data source (its timestamps drive the measurement field calculations)"
        />
      </Stack>
    </FormDialog>
  );
}
