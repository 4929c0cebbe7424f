import { useState } from 'react';
import {
  Box,
  Button,
  FormControl,
  FormHelperText,
  InputLabel,
  MenuItem,
  Paper,
  Rating,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { DataSourceChannel, RawChannel } from '@portal/contracts/datasources';
import { validateChannelMapping, validateCustomChannel } from '@portal/contracts/forms';
import { CHANNEL_DATA_TYPES } from '@portal/contracts/rules';
import { useNotify } from '../../lib/notifications';
import { useSaveChannel } from './channels-api';
import { FormDialog } from '../../ui/dialogs/FormDialog';

interface ChannelForm {
  source: string;
  name: string;
  dataType: string;
  unit: string;
  description: string;
  qualityScore: number | null;
}

const formFrom = (raw: RawChannel | undefined, mapping: DataSourceChannel | undefined): ChannelForm => ({
  source: mapping?.source ?? raw?.channel ?? '',
  name: mapping?.name ?? (raw ? raw.channel.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') : ''),
  dataType: mapping?.dataType ?? raw?.dataType ?? '',
  unit: mapping?.unit ?? raw?.unit ?? '',
  description: mapping?.description ?? raw?.description ?? '',
  qualityScore: mapping?.qualityScore ?? null,
});

function ChannelFields({
  values,
  set,
  errors,
  custom,
}: {
  values: ChannelForm;
  set(patch: Partial<ChannelForm>): void;
  errors: Partial<Record<string, string>>;
  custom: boolean;
}) {
  return (
    <Stack spacing={2}>
      {custom && (
        <TextField
          label="Source"
          required
          value={values.source}
          onChange={(e) => set({ source: e.target.value })}
          error={!!errors.source}
          helperText={errors.source}
        />
      )}
      <TextField
        label="Name"
        required
        value={values.name}
        onChange={(e) => set({ name: e.target.value })}
        error={!!errors.name}
        helperText={errors.name ?? 'Letters, digits and underscore; no spaces'}
      />
      <FormControl required error={!!errors.dataType}>
        <InputLabel id="channel-type-label">Data type</InputLabel>
        <Select
          labelId="channel-type-label"
          label="Data type"
          value={values.dataType}
          onChange={(e) => set({ dataType: e.target.value })}
        >
          {CHANNEL_DATA_TYPES.map((t) => (
            <MenuItem key={t} value={t}>
              {t}
            </MenuItem>
          ))}
        </Select>
        {errors.dataType && <FormHelperText>{errors.dataType}</FormHelperText>}
      </FormControl>
      <TextField label="Unit" value={values.unit} onChange={(e) => set({ unit: e.target.value })} />
      <TextField
        label="Description"
        multiline
        value={values.description}
        onChange={(e) => set({ description: e.target.value })}
      />
      <Box>
        <Typography variant="caption" color="text.secondary" component="div">
          Quality score
        </Typography>
        <Rating
          name="qualityScore"
          value={values.qualityScore}
          onChange={(_e, v) => set({ qualityScore: v })}
        />
      </Box>
    </Stack>
  );
}

/** Maps a raw channel (create), or updates or removes its mapping. A custom channel has its dialog instead. */
export function MappingPanel({
  facilityId,
  dataSourceId,
  raw,
  mapping,
}: {
  facilityId: string;
  dataSourceId: string;
  raw?: RawChannel;
  mapping?: DataSourceChannel;
}) {
  const [values, setValues] = useState(() => formFrom(raw, mapping));
  const [touched, setTouched] = useState(false);
  const save = useSaveChannel(facilityId);
  const notify = useNotify();
  const errors = touched ? validateChannelMapping(values) : {};
  const set = (patch: Partial<ChannelForm>) => setValues((v) => ({ ...v, ...patch }));
  const submit = () => {
    setTouched(true);
    if (Object.keys(validateChannelMapping(values)).length) return;
    save.mutate(
      { dataSourceId, channelId: mapping?.id, values: { ...values, isCustom: false } },
      { onSuccess: () => notify.success(), onError: (e) => notify.error(undefined, e) },
    );
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="mapping-panel">
      <Typography variant="h6" component="h2" gutterBottom>
        {mapping ? `Mapping ${mapping.fullName}` : `Map channel ${raw?.channel}`}
      </Typography>
      {raw && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Raw channel {raw.channel}: {raw.dataType}
          {raw.unit ? `, ${raw.unit}` : ''}
          {raw.minSampleValue !== null ? `, samples ${raw.minSampleValue} to ${raw.maxSampleValue}` : ''}
        </Typography>
      )}
      <ChannelFields values={values} set={set} errors={errors} custom={false} />
      <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
        <Button variant="contained" onClick={submit} disabled={save.isPending}>
          {mapping ? 'Update mapping' : 'Map channel'}
        </Button>
        {mapping && (
          <Button
            color="error"
            disabled={save.isPending}
            onClick={() =>
              save.mutate(
                { dataSourceId, channelId: mapping.id, remove: true },
                { onSuccess: () => notify.success(), onError: (e) => notify.error(undefined, e) },
              )
            }
          >
            Remove mapping
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The custom channel dialog (spec part 2, Channels page): a new custom channel (Add), or an existing one chosen in the
 * tree (Save, or Remove). A custom channel names its own source (required).
 */
export function CustomChannelDialog({
  facilityId,
  dataSourceId,
  channel,
  onClose,
}: {
  facilityId: string;
  dataSourceId: string;
  /** The custom channel chosen in the tree; none: a new one. */
  channel?: DataSourceChannel;
  onClose(): void;
}) {
  const [values, setValues] = useState<ChannelForm>(() => formFrom(undefined, channel));
  const [touched, setTouched] = useState(false);
  const save = useSaveChannel(facilityId);
  const notify = useNotify();
  const errors = touched ? validateCustomChannel(values) : {};
  const done = {
    onSuccess: () => {
      notify.success();
      onClose();
    },
    onError: (e: unknown) => notify.error(undefined, e),
  };
  const submit = () => {
    setTouched(true);
    if (Object.keys(validateCustomChannel(values)).length) return;
    save.mutate({ dataSourceId, channelId: channel?.id, values: { ...values, isCustom: true } }, done);
  };
  return (
    <FormDialog
      title="Custom channel"
      onClose={onClose}
      submitLabel={channel ? 'Save' : 'Add'}
      onSubmit={submit}
      busy={save.isPending}
      actionsSx={{ flexWrap: 'wrap', gap: 1 }}
      startActions={
        channel && (
          <Button
            color="error"
            disabled={save.isPending}
            onClick={() => save.mutate({ dataSourceId, channelId: channel.id, remove: true }, done)}
            sx={{ mr: 'auto' }}
          >
            Remove
          </Button>
        )
      }
    >
      {channel && (
        <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
          {channel.fullName}
        </Typography>
      )}
      <Box sx={{ mt: 1 }}>
        <ChannelFields
          values={values}
          set={(patch) => setValues((v) => ({ ...v, ...patch }))}
          errors={errors}
          custom
        />
      </Box>
    </FormDialog>
  );
}
