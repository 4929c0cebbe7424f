import { useMemo, useState } from 'react';
import {
  Box,
  Button,
  Divider,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  InputLabel,
  MenuItem,
  Paper,
  Radio,
  RadioGroup,
  Rating,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { DataSourceChannel, RawChannel } from '@portal/contracts/datasources';
import { validateChannelMapping, validateCustomChannel } from '@portal/contracts/forms';
import {
  CHANNEL_CONSUMER_NAMES,
  CHANNEL_CONSUMERS,
  CHANNEL_FUEL_TYPE_NAMES,
  CHANNEL_FUEL_TYPES,
  CHANNEL_LNG_ENGINES,
  FUEL_CHANNEL_MESSAGES,
  type FuelTypeSource,
} from '@portal/contracts/fuel-channels';
import { CHANNEL_DATA_TYPES } from '@portal/contracts/rules';
import { LNG_ENGINE_NAMES } from '@portal/contracts/rules/carbon';
import { serverFieldErrors } from '../../lib/api';
import { useNotify } from '../../lib/notifications';
import { useSaveChannel } from './channels-api';
import { useDataSources } from './datasources-api';
import {
  fuelAttributesOf,
  fuelFieldErrors,
  fuelFormOf,
  fuelTypeChannelChoices,
  showsFuelFields,
  showsLngEngine,
  type FuelField,
  type FuelForm,
} from './fuel-mapping';
import { FormDialog } from '../../ui/dialogs/FormDialog';

interface ChannelForm {
  source: string;
  name: string;
  dataType: string;
  unit: string;
  description: string;
  qualityScore: number | null;
  localId: string;
}

const formFrom = (raw: RawChannel | undefined, mapping: DataSourceChannel | undefined): ChannelForm => ({
  source: mapping?.source ?? raw?.channel ?? '',
  name: mapping?.name ?? (raw ? raw.channel.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') : ''),
  dataType: mapping?.dataType ?? raw?.dataType ?? '',
  unit: mapping?.unit ?? raw?.unit ?? '',
  description: mapping?.description ?? raw?.description ?? '',
  qualityScore: mapping?.qualityScore ?? null,
  localId: mapping?.localId ?? '',
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
        label="Local id"
        value={values.localId}
        onChange={(e) => set({ localId: e.target.value })}
        error={!!errors.localId}
        helperText={
          errors.localId ??
          "ISO 19848 id the ship's gateway streams under, e.g. /dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-temperature"
        }
        slotProps={{ htmlInput: { 'data-testid': 'channel-local-id', spellCheck: false } }}
      />
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

const SOURCE_LABELS: Record<FuelTypeSource, string> = {
  fixed: 'One fuel',
  channel: 'A fuel type channel',
  'change-overs': "The record book's fuel change-overs",
};

/**
 * The carbon ledger's fields of a fuel flow channel (kg/h): the consumer it feeds, where its fuel type comes from
 * (one fuel, a channel that logs the fuel in use, or the record book's change-overs) and an LNG consumer's engine.
 */
function FuelFields({
  form,
  set,
  errors,
  choices,
}: {
  form: FuelForm;
  set(patch: Partial<FuelForm>): void;
  errors: Partial<Record<FuelField, string>>;
  choices: DataSourceChannel[];
}) {
  return (
    <Stack spacing={2} data-testid="fuel-fields">
      <Divider />
      <Box>
        <Typography variant="subtitle1" component="h3">
          Fuel for the carbon ledger
        </Typography>
        <Typography variant="body2" color="text.secondary">
          A fuel flow in kg/h: what it feeds and which fuel it measures.
        </Typography>
      </Box>
      <FormControl error={Boolean(errors.consumer)}>
        <InputLabel id="fuel-consumer-label">Consumer</InputLabel>
        <Select
          labelId="fuel-consumer-label"
          label="Consumer"
          value={form.consumer}
          onChange={(e) => set({ consumer: e.target.value as FuelForm['consumer'] })}
          data-testid="fuel-consumer"
        >
          <MenuItem value="">
            <em>None: not a fuel flow for the ledger</em>
          </MenuItem>
          {CHANNEL_CONSUMERS.map((c) => (
            <MenuItem key={c} value={c}>
              {CHANNEL_CONSUMER_NAMES[c]}
            </MenuItem>
          ))}
        </Select>
        {errors.consumer && <FormHelperText>{errors.consumer}</FormHelperText>}
      </FormControl>
      {form.consumer && (
        <FormControl error={Boolean(errors.fuelTypeSource)}>
          <FormLabel id="fuel-source-label">Fuel type from</FormLabel>
          <RadioGroup
            aria-labelledby="fuel-source-label"
            value={form.fuelTypeSource}
            onChange={(e) => set({ fuelTypeSource: e.target.value as FuelForm['fuelTypeSource'] })}
          >
            {(Object.keys(SOURCE_LABELS) as FuelTypeSource[]).map((k) => (
              <FormControlLabel key={k} value={k} control={<Radio size="small" />} label={SOURCE_LABELS[k]} />
            ))}
          </RadioGroup>
          {errors.fuelTypeSource && <FormHelperText>{errors.fuelTypeSource}</FormHelperText>}
        </FormControl>
      )}
      {form.consumer && form.fuelTypeSource === 'fixed' && (
        <FormControl error={Boolean(errors.fuelType)}>
          <InputLabel id="fuel-type-label">Fuel</InputLabel>
          <Select
            labelId="fuel-type-label"
            label="Fuel"
            value={form.fuelType}
            onChange={(e) => set({ fuelType: e.target.value as FuelForm['fuelType'] })}
            data-testid="fuel-type"
          >
            {CHANNEL_FUEL_TYPES.map((f) => (
              <MenuItem key={f} value={f}>
                {CHANNEL_FUEL_TYPE_NAMES[f]}
              </MenuItem>
            ))}
          </Select>
          {errors.fuelType && <FormHelperText>{errors.fuelType}</FormHelperText>}
        </FormControl>
      )}
      {form.consumer && form.fuelTypeSource === 'channel' && (
        <FormControl error={Boolean(errors.fuelTypeChannelId)}>
          <InputLabel id="fuel-channel-label">Fuel type channel</InputLabel>
          <Select
            labelId="fuel-channel-label"
            label="Fuel type channel"
            value={choices.some((c) => c.id === form.fuelTypeChannelId) ? form.fuelTypeChannelId : ''}
            onChange={(e) => set({ fuelTypeChannelId: e.target.value })}
            data-testid="fuel-type-channel"
          >
            {choices.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.fullName}
              </MenuItem>
            ))}
          </Select>
          <FormHelperText>
            {errors.fuelTypeChannelId ?? `It logs the fuel in use as a code: ${FUEL_CHANNEL_MESSAGES.codes}`}
          </FormHelperText>
        </FormControl>
      )}
      {showsLngEngine(form) && (
        <FormControl error={Boolean(errors.lngEngine)}>
          <InputLabel id="fuel-lng-label">LNG engine</InputLabel>
          <Select
            labelId="fuel-lng-label"
            label="LNG engine"
            value={form.lngEngine}
            onChange={(e) => set({ lngEngine: e.target.value as FuelForm['lngEngine'] })}
            data-testid="fuel-lng-engine"
          >
            <MenuItem value="">
              <em>Not given</em>
            </MenuItem>
            {CHANNEL_LNG_ENGINES.map((k) => (
              <MenuItem key={k} value={k}>
                {LNG_ENGINE_NAMES[k]}
              </MenuItem>
            ))}
          </Select>
          <FormHelperText>{errors.lngEngine ?? 'For the methane slip of the LNG it burns'}</FormHelperText>
        </FormControl>
      )}
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
  const [fuel, setFuel] = useState(() => fuelFormOf(mapping));
  const [touched, setTouched] = useState(false);
  const [serverFuel, setServerFuel] = useState<Partial<Record<FuelField, string>>>({});
  const save = useSaveChannel(facilityId);
  const dataSources = useDataSources(facilityId);
  const notify = useNotify();
  const shipChannels = useMemo(() => (dataSources.data ?? []).flatMap((d) => d.channels), [dataSources.data]);
  const errors = touched ? validateChannelMapping(values) : {};
  const withFuel = showsFuelFields(values, fuel);
  // Checked against the ship's channels once they are known (until then the API checks alone).
  const fuelErrors =
    withFuel && dataSources.isSuccess
      ? fuelFieldErrors({ id: mapping?.id, ...values }, fuel, shipChannels)
      : {};
  const shownFuelErrors = { ...serverFuel, ...(touched ? fuelErrors : {}) };
  const set = (patch: Partial<ChannelForm>) => setValues((v) => ({ ...v, ...patch }));
  const setFuelPatch = (patch: Partial<FuelForm>) => {
    setFuel((f) => ({ ...f, ...patch }));
    setServerFuel({});
  };
  const submit = () => {
    setTouched(true);
    if (Object.keys(validateChannelMapping(values)).length || Object.keys(fuelErrors).length) return;
    save.mutate(
      {
        dataSourceId,
        channelId: mapping?.id,
        // A consumer chosen none clears the fuel type source with it.
        values: { ...values, isCustom: false, fuel: fuelAttributesOf(fuel) },
      },
      {
        onSuccess: () => notify.success(),
        onError: (e) => {
          const fields = serverFieldErrors(e);
          if (fields) setServerFuel(fields);
          notify.error(undefined, e);
        },
      },
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
      {withFuel && (
        <Box sx={{ mt: 2 }}>
          <FuelFields
            form={fuel}
            set={setFuelPatch}
            errors={shownFuelErrors}
            choices={fuelTypeChannelChoices(shipChannels, mapping?.id)}
          />
        </Box>
      )}
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
