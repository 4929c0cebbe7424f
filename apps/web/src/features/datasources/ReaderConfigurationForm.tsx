import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Autocomplete,
  Box,
  FormControlLabel,
  MenuItem,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import {
  DELIMITER_CHOICES,
  ENCODING_CHOICES,
  TIMESTAMP_FORMAT_CHOICES,
  TIMESTAMP_PATTERN_HINT,
  chooseTimestampFormat,
  readerForm,
  withReaderForm,
  type FieldErrors,
  type ReaderForm,
  type ReaderFormField,
  type TimestampFormatChoice,
} from '@portal/contracts/forms';
import { READER_IDS } from '@portal/contracts/readers';

const DECIMAL_CHOICES = [
  { value: '.', label: 'Point ( . )' },
  { value: ',', label: 'Comma ( , )' },
];

/**
 * The reader configuration as a form (delimiter, decimal separator, rows, timestamp columns and format, encoding,
 * sheet), with the JSON text under Advanced. Both edit the one JSON text (`value`), so each shows the other's changes
 * (packages/contracts/src/forms/reader-configuration.ts).
 */
export function ReaderConfigurationForm({
  readerId,
  value,
  onChange,
  header,
  errors,
  jsonError,
}: {
  readerId: string;
  value: string;
  onChange(json: string): void;
  /** The header names of the sample file, when known: the timestamp columns are chosen from them. */
  header: string[];
  /** The messages to show (empty until the user tries to save). */
  errors: FieldErrors<ReaderFormField | ''>;
  /** The message of the Advanced JSON field, when it is to be shown. */
  jsonError?: string;
}) {
  const form = readerForm(value);
  const set = (patch: Partial<ReaderForm>) => onChange(withReaderForm(readerId, value, patch));
  const delimited = readerId === READER_IDS.delimited;
  const field = (name: ReaderFormField) => ({
    error: Boolean(errors[name]),
    helperText: errors[name],
  });
  const rowField = (
    name: 'headerRow' | 'unitRow' | 'descriptionRow' | 'firstDataRow',
    label: string,
    hint?: string,
  ) =>
    form && (
      <TextField
        label={label}
        required={name === 'headerRow' || name === 'firstDataRow'}
        value={form[name]}
        onChange={(e) => set({ [name]: e.target.value })}
        error={Boolean(errors[name])}
        helperText={errors[name] ?? hint}
        slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      />
    );
  const columnField = (name: 'timestampColumn' | 'timeColumn', label: string) =>
    form && (
      <Autocomplete
        freeSolo
        options={header}
        value={form[name]}
        onInputChange={(_, text) => {
          if (text !== form[name]) set({ [name]: text });
        }}
        renderInput={(params) => (
          <TextField
            {...params}
            label={label}
            required
            {...field(name)}
            helperText={
              errors[name] ?? (header.length ? 'A column of the sample file' : 'As in the header row')
            }
          />
        )}
      />
    );

  return (
    <Box>
      {form ? (
        <Box
          role="group"
          aria-label="Parser configuration"
          sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
        >
          {delimited ? (
            <>
              <TextField
                select
                label="Delimiter"
                value={form.delimiter}
                onChange={(e) =>
                  set({ delimiter: e.target.value as ReaderForm['delimiter'], otherDelimiter: '' })
                }
                {...field('delimiter')}
              >
                {DELIMITER_CHOICES.map((d) => (
                  <MenuItem key={d.value} value={d.value}>
                    {d.label}
                  </MenuItem>
                ))}
              </TextField>
              {form.delimiter === 'other' && (
                <TextField
                  label="Other delimiter"
                  required
                  value={form.otherDelimiter}
                  onChange={(e) => set({ otherDelimiter: e.target.value })}
                  error={Boolean(errors.otherDelimiter)}
                  helperText={errors.otherDelimiter ?? 'One character'}
                />
              )}
              <TextField
                select
                label="Decimal separator"
                value={form.decimalSeparator}
                onChange={(e) => set({ decimalSeparator: e.target.value })}
                {...field('decimalSeparator')}
              >
                {DECIMAL_CHOICES.map((d) => (
                  <MenuItem key={d.value} value={d.value}>
                    {d.label}
                  </MenuItem>
                ))}
              </TextField>
              <TextField
                select
                label="Encoding"
                value={form.encoding}
                onChange={(e) => set({ encoding: e.target.value })}
                {...field('encoding')}
              >
                {ENCODING_CHOICES.map((d) => (
                  <MenuItem key={d.value} value={d.value}>
                    {d.label}
                  </MenuItem>
                ))}
              </TextField>
            </>
          ) : (
            <TextField
              label="Sheet"
              required
              value={form.sheet}
              onChange={(e) => set({ sheet: e.target.value })}
              error={Boolean(errors.sheet)}
              helperText={errors.sheet ?? 'Its name, or its number (1 for the first)'}
            />
          )}
          {rowField('headerRow', 'Header row', 'The row of the column names')}
          {rowField('unitRow', 'Unit row', 'Empty when the file has none')}
          {rowField('descriptionRow', 'Description row', 'Empty when the file has none')}
          {rowField('firstDataRow', 'First data row')}
          <FormControlLabel
            sx={{ gridColumn: '1 / -1' }}
            control={
              <Switch
                checked={form.twoTimestampColumns}
                onChange={(e) => set({ twoTimestampColumns: e.target.checked })}
              />
            }
            label="Date and time in two columns"
          />
          {columnField('timestampColumn', form.twoTimestampColumns ? 'Date column' : 'Timestamp column')}
          {form.twoTimestampColumns ? (
            columnField('timeColumn', 'Time column')
          ) : (
            <Box sx={{ display: { xs: 'none', sm: 'block' } }} />
          )}
          <TextField
            select
            label="Timestamp format"
            value={form.timestampFormat}
            onChange={(e) => set(chooseTimestampFormat(form, e.target.value as TimestampFormatChoice))}
            {...field('timestampFormat')}
            helperText={
              errors.timestampFormat ??
              (form.timestampFormat.startsWith('UNIX')
                ? 'Unix times are UTC: the offset does not apply'
                : undefined)
            }
          >
            {TIMESTAMP_FORMAT_CHOICES.map((d) => (
              <MenuItem key={d.value} value={d.value}>
                {d.label}
              </MenuItem>
            ))}
          </TextField>
          {form.timestampFormat === 'custom' && (
            <TextField
              label="Pattern"
              required
              value={form.timestampPattern}
              onChange={(e) => set({ timestampPattern: e.target.value })}
              error={Boolean(errors.timestampPattern)}
              helperText={errors.timestampPattern ?? TIMESTAMP_PATTERN_HINT}
              slotProps={{ htmlInput: { spellCheck: false } }}
            />
          )}
        </Box>
      ) : (
        <Alert severity="warning">
          The parser configuration is not valid JSON; correct it under Advanced.
        </Alert>
      )}
      <Accordion disableGutters variant="outlined" sx={{ mt: 2 }} defaultExpanded={!form}>
        <AccordionSummary
          expandIcon={<ExpandMoreIcon />}
          aria-controls="reader-json"
          id="reader-json-summary"
        >
          <Typography>Advanced</Typography>
        </AccordionSummary>
        <AccordionDetails id="reader-json">
          <TextField
            label="Parser configuration (JSON)"
            fullWidth
            multiline
            minRows={8}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            error={Boolean(jsonError ?? errors[''])}
            helperText={
              jsonError ??
              errors[''] ??
              'Every option is described in docs/readers.md and the API documentation'
            }
            slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } } }}
          />
        </AccordionDetails>
      </Accordion>
    </Box>
  );
}
