import { Autocomplete, Box, MenuItem, Rating, Stack, TextField, Typography } from '@mui/material';
import { CHANNEL_DATA_TYPES } from '@portal/contracts/rules';
import type { OutputType } from '@portal/contracts/calculations';
import type { CalculationKind, FormValues } from './calculation-form';

export interface InputOption {
  id: string;
  name: string;
  group: string;
}

export interface SettingsPanelProps {
  kind: CalculationKind;
  form: FormValues;
  onChange(patch: Partial<FormValues>): void;
  /** The settings' validation messages, by field. */
  errors: Partial<Record<'requiredSampleIntervalInSeconds' | 'preloadIntervalInSeconds', string>>;
  spanError: string | undefined;
  editable: boolean;
  inputOptions: InputOption[];
  optionById: ReadonlyMap<string, InputOption>;
}

/** Comment, documentation, intervals and output type (or the report field's span), inputs and quality score. */
export function SettingsPanel({
  kind,
  form,
  onChange,
  errors,
  spanError,
  editable,
  inputOptions,
  optionById,
}: SettingsPanelProps) {
  return (
    <Stack spacing={2} sx={{ width: { lg: 340 }, flexShrink: 0 }} aria-label="Settings">
      <TextField
        size="small"
        label="Comment"
        value={form.comment}
        disabled={!editable}
        onChange={(e) => onChange({ comment: e.target.value })}
      />
      <TextField
        size="small"
        label="Documentation"
        multiline
        minRows={2}
        value={form.documentation}
        disabled={!editable}
        onChange={(e) => onChange({ documentation: e.target.value })}
      />
      {kind === 'measurement-field' ? (
        <>
          <TextField
            size="small"
            label="Required sample interval (s)"
            value={form.requiredSampleIntervalInSeconds}
            disabled={!editable}
            onChange={(e) => onChange({ requiredSampleIntervalInSeconds: e.target.value })}
            error={Boolean(errors.requiredSampleIntervalInSeconds)}
            helperText={errors.requiredSampleIntervalInSeconds}
          />
          <TextField
            size="small"
            label="Preload interval (s)"
            value={form.preloadIntervalInSeconds}
            disabled={!editable}
            onChange={(e) => onChange({ preloadIntervalInSeconds: e.target.value })}
            error={Boolean(errors.preloadIntervalInSeconds)}
            helperText={errors.preloadIntervalInSeconds}
          />
          <TextField
            size="small"
            select
            label="Output type"
            value={form.outputType}
            disabled={!editable}
            onChange={(e) => onChange({ outputType: e.target.value as OutputType })}
          >
            {CHANNEL_DATA_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {t}
              </MenuItem>
            ))}
          </TextField>
        </>
      ) : (
        <TextField
          size="small"
          label="Algorithm span (s)"
          value={form.algorithmSecondsSpan}
          disabled={!editable}
          onChange={(e) => onChange({ algorithmSecondsSpan: e.target.value })}
          error={Boolean(spanError)}
          helperText={spanError}
        />
      )}
      <Autocomplete
        multiple
        size="small"
        options={inputOptions}
        groupBy={(o) => o.group}
        getOptionLabel={(o) => o.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        value={form.inputIds.map((id) => optionById.get(id) ?? { id, name: id, group: '' })}
        onChange={(_e, value) => onChange({ inputIds: value.map((v) => v.id) })}
        disabled={!editable}
        renderInput={(params) => <TextField {...params} label="Inputs" />}
      />
      <Box>
        <Typography variant="caption" color="text.secondary" component="div">
          Quality score
        </Typography>
        <Rating
          name="qualityScore"
          value={form.qualityScore}
          disabled={!editable}
          onChange={(_e, value) => onChange({ qualityScore: value })}
        />
      </Box>
    </Stack>
  );
}
