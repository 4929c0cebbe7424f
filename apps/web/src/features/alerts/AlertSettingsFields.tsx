import {
  Autocomplete,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
} from '@mui/material';
import {
  ALERT_CHANNEL_NAMES,
  ALERT_CHANNELS,
  ALERT_CLASSIFICATION_NAMES,
  ALERT_CLASSIFICATIONS,
  ALERT_DELIVERIES,
  ALERT_DELIVERY_NAMES,
  type AlertSettings,
  type QuietHours,
} from '@portal/contracts/alerts';
import { EVENT_TYPE_NAMES, EVENT_TYPES } from '@portal/contracts/events';
import { ZONE_WARNING_NAME } from '@portal/contracts/zone-warnings';
import type { AlertSettingsField } from '@portal/contracts/forms';

interface Choice {
  id: string;
  name: string;
}

/** The time zones the browser knows, the one it runs in first. */
const ownTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
let timeZones: string[] | undefined;
const timeZoneChoices = () =>
  (timeZones ??= [...new Set([ownTimeZone(), 'UTC', ...Intl.supportedValuesOf('timeZone')])]);
/** Quiet hours when they are switched on: the night, on the clock where the browser is. */
const DEFAULT_QUIET_HOURS = (): QuietHours => ({ from: '22:00', to: '06:00', timeZone: ownTimeZone() });

const toggle = <T,>(list: readonly T[], value: T, on: boolean): T[] =>
  on ? [...list.filter((v) => v !== value), value] : list.filter((v) => v !== value);

/**
 * The choices of an alert subscription (the profile's Alerts and an organization's defaults): ships, event types,
 * classifications, channels and when e-mails come. `organizations`: the SystemAdmin's choice of ships by organization.
 */
export function AlertSettingsFields({
  value,
  onChange,
  ships,
  organizations,
  errors,
  disabled,
  allShipsLabel = 'All my ships',
  idPrefix,
}: {
  value: AlertSettings;
  onChange: (settings: AlertSettings) => void;
  ships: readonly Choice[];
  organizations?: readonly Choice[];
  errors: Partial<Record<AlertSettingsField, string>>;
  disabled?: boolean;
  allShipsLabel?: string;
  idPrefix: string;
}) {
  const set = (patch: Partial<AlertSettings>) => onChange({ ...value, ...patch });
  const { ships: choice } = value;
  const selectedShips =
    choice.mode === 'selected' ? ships.filter((s) => choice.facilityIds.includes(s.id)) : [];
  const selectedOrganizations =
    choice.mode === 'organizations' && organizations
      ? organizations.filter((o) => choice.organizationIds.includes(o.id))
      : [];
  return (
    // Disabled (the defaults in force) the choices stay readable: legends and hints keep the secondary text colour.
    <Stack
      spacing={2}
      sx={{
        '& .MuiFormLabel-root.Mui-disabled, & .MuiFormHelperText-root.Mui-disabled': {
          color: 'text.secondary',
        },
      }}
    >
      <FormControl disabled={disabled} error={Boolean(errors.ships)}>
        <FormLabel id={`${idPrefix}-ships`}>Ships</FormLabel>
        <RadioGroup
          row
          aria-labelledby={`${idPrefix}-ships`}
          value={choice.mode}
          onChange={(e) => {
            const mode = e.target.value;
            set({
              ships:
                mode === 'selected'
                  ? { mode, facilityIds: [] }
                  : mode === 'organizations'
                    ? { mode, organizationIds: [] }
                    : { mode: 'all' },
            });
          }}
        >
          <FormControlLabel value="all" control={<Radio />} label={allShipsLabel} />
          <FormControlLabel value="selected" control={<Radio />} label="Selected ships" />
          {organizations && (
            <FormControlLabel value="organizations" control={<Radio />} label="By organization" />
          )}
        </RadioGroup>
        {choice.mode === 'selected' && (
          <Autocomplete
            multiple
            disabled={disabled}
            options={[...ships]}
            value={selectedShips}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            onChange={(_e, chosen) =>
              set({ ships: { mode: 'selected', facilityIds: chosen.map((c) => c.id) } })
            }
            renderInput={(params) => <TextField {...params} label="Ships" error={Boolean(errors.ships)} />}
            sx={{ mt: 1 }}
          />
        )}
        {choice.mode === 'organizations' && organizations && (
          <Autocomplete
            multiple
            disabled={disabled}
            options={[...organizations]}
            value={selectedOrganizations}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            onChange={(_e, chosen) =>
              set({ ships: { mode: 'organizations', organizationIds: chosen.map((c) => c.id) } })
            }
            renderInput={(params) => (
              <TextField {...params} label="Organizations" error={Boolean(errors.ships)} />
            )}
            sx={{ mt: 1 }}
          />
        )}
        {errors.ships && <FormHelperText>{errors.ships}</FormHelperText>}
      </FormControl>

      <FormControl component="fieldset" disabled={disabled} error={Boolean(errors.eventTypes)}>
        <FormLabel component="legend">Event types</FormLabel>
        <FormGroup row>
          {EVENT_TYPES.map((type) => (
            <FormControlLabel
              key={type}
              label={EVENT_TYPE_NAMES[type]}
              control={
                <Checkbox
                  checked={value.eventTypes.includes(type)}
                  onChange={(e) => set({ eventTypes: toggle(value.eventTypes, type, e.target.checked) })}
                />
              }
            />
          ))}
        </FormGroup>
        {errors.eventTypes && <FormHelperText>{errors.eventTypes}</FormHelperText>}
      </FormControl>

      <FormControl component="fieldset" disabled={disabled}>
        <FormLabel component="legend">Before arrival</FormLabel>
        <FormGroup row>
          <FormControlLabel
            label={ZONE_WARNING_NAME}
            control={
              <Checkbox
                checked={value.zoneWarnings !== false}
                onChange={(e) => set({ zoneWarnings: e.target.checked })}
              />
            }
          />
        </FormGroup>
        <FormHelperText>
          A ship heading into a zone that bans its mode within the horizon: open loop into a no-discharge
          zone, or high-sulfur fuel with the scrubber off into an ECA.
        </FormHelperText>
      </FormControl>

      <FormControl component="fieldset" disabled={disabled} error={Boolean(errors.classifications)}>
        <FormLabel component="legend">Classifications (emission exceedances and scrubber stops)</FormLabel>
        <FormGroup row>
          {ALERT_CLASSIFICATIONS.map((c) => (
            <FormControlLabel
              key={c}
              label={ALERT_CLASSIFICATION_NAMES[c]}
              control={
                <Checkbox
                  checked={value.classifications.includes(c)}
                  onChange={(e) =>
                    set({ classifications: toggle(value.classifications, c, e.target.checked) })
                  }
                />
              }
            />
          ))}
        </FormGroup>
        {errors.classifications && <FormHelperText>{errors.classifications}</FormHelperText>}
      </FormControl>

      <FormControl component="fieldset" disabled={disabled}>
        <FormLabel component="legend">Channels</FormLabel>
        <FormGroup row>
          {ALERT_CHANNELS.map((channel) => (
            <FormControlLabel
              key={channel}
              label={ALERT_CHANNEL_NAMES[channel]}
              control={
                <Checkbox
                  checked={value.channels.includes(channel)}
                  onChange={(e) => set({ channels: toggle(value.channels, channel, e.target.checked) })}
                />
              }
            />
          ))}
        </FormGroup>
        {value.channels.length === 0 && <FormHelperText>No channel: no alerts at all.</FormHelperText>}
      </FormControl>

      <FormControl disabled={disabled}>
        <FormLabel id={`${idPrefix}-delivery`}>E-mails</FormLabel>
        <RadioGroup
          row
          aria-labelledby={`${idPrefix}-delivery`}
          value={value.delivery}
          onChange={(e) => set({ delivery: e.target.value as AlertSettings['delivery'] })}
        >
          {ALERT_DELIVERIES.map((d) => (
            <FormControlLabel key={d} value={d} control={<Radio />} label={ALERT_DELIVERY_NAMES[d]} />
          ))}
        </RadioGroup>
        <FormHelperText>Alerts in the portal always come as they happen.</FormHelperText>
      </FormControl>

      <FormControl component="fieldset" disabled={disabled} error={Boolean(errors.quietHours)}>
        <FormLabel component="legend">Quiet hours</FormLabel>
        <FormControlLabel
          label="Hold e-mails that come as they happen during quiet hours"
          control={
            <Checkbox
              checked={Boolean(value.quietHours)}
              onChange={(e) => set({ quietHours: e.target.checked ? DEFAULT_QUIET_HOURS() : null })}
            />
          }
        />
        {value.quietHours && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 1 }}>
            {(['from', 'to'] as const).map((end) => (
              <TextField
                key={end}
                label={end === 'from' ? 'From' : 'To'}
                type="time"
                value={value.quietHours![end]}
                onChange={(e) => set({ quietHours: { ...value.quietHours!, [end]: e.target.value } })}
                disabled={disabled}
                slotProps={{
                  inputLabel: { shrink: true },
                  htmlInput: { 'data-testid': `${idPrefix}-quiet-${end}` },
                }}
              />
            ))}
            <Autocomplete
              options={timeZoneChoices()}
              value={value.quietHours.timeZone}
              disableClearable
              disabled={disabled}
              onChange={(_, zone) => set({ quietHours: { ...value.quietHours!, timeZone: zone } })}
              sx={{ flex: 1, minWidth: 200 }}
              renderInput={(params) => <TextField {...params} label="Time zone" />}
            />
          </Stack>
        )}
        <FormHelperText>
          {errors.quietHours ??
            (value.quietHours
              ? 'Held e-mails go when the quiet hours end. Alerts in the portal and digests are not held.'
              : 'E-mails go as soon as the alert is written.')}
        </FormHelperText>
      </FormControl>
    </Stack>
  );
}
