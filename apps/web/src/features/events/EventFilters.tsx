import {
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  InputLabel,
  ListItemText,
  MenuItem,
  Select,
  Stack,
  type SelectChangeEvent,
} from '@mui/material';
import {
  EVENT_CLASSIFICATIONS,
  EVENT_CLASSIFICATION_NAMES,
  EVENT_STATES,
  EVENT_STATE_NAMES,
  EVENT_TYPES,
  EVENT_TYPE_NAMES,
} from '@portal/contracts/events';
import { formatDate } from '@portal/contracts/rules';
import { NO_EVENT_FILTER, type EventFilter, type EventPeriodChoice } from './display';

// Two a row on a phone, side by side from a tablet on.
const control = {
  minWidth: { xs: 0, sm: 200 },
  width: { xs: 'calc(50% - 6px)', sm: 'auto' },
  flex: { xs: '0 0 auto', sm: '0 1 auto' },
} as const;

function MultiSelect<T extends string>({
  id,
  label,
  values,
  names,
  selected,
  onChange,
}: {
  id: string;
  label: string;
  values: readonly T[];
  names: Record<T, string>;
  selected: T[];
  onChange(next: T[]): void;
}) {
  return (
    <FormControl size="small" sx={control}>
      <InputLabel id={`${id}-label`} shrink>
        {label}
      </InputLabel>
      <Select<T[]>
        labelId={`${id}-label`}
        id={id}
        label={label}
        multiple
        notched
        value={selected}
        onChange={(e: SelectChangeEvent<T[]>) => {
          const v = e.target.value;
          onChange((typeof v === 'string' ? v.split(',') : v) as T[]);
        }}
        renderValue={(chosen) => (chosen.length ? chosen.map((c) => names[c]).join(', ') : 'All')}
        displayEmpty
        data-testid={`${id}-select`}
      >
        {values.map((v) => (
          <MenuItem key={v} value={v} dense>
            <Checkbox size="small" checked={selected.includes(v)} sx={{ p: 0.5, mr: 1 }} />
            <ListItemText primary={names[v]} />
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

/**
 * The list's filters: type, classification, state (each several values or all), ship (unless the page is a ship's)
 * and period (the period chosen in the drawer, or all time).
 */
export function EventFilters({
  filter,
  onChange,
  ships,
  period,
}: {
  filter: EventFilter;
  onChange(next: EventFilter): void;
  /** The ships to choose from; none on a ship's own page. */
  ships?: { id: string; name: string }[];
  period: { from: Date; to: Date };
}) {
  const set = (patch: Partial<EventFilter>) => onChange({ ...filter, ...patch });
  const filtered =
    filter.types.length + filter.classifications.length + filter.states.length > 0 ||
    (ships !== undefined && filter.facilityId !== null) ||
    filter.period !== 'all' ||
    filter.reportRequired;
  return (
    <Stack
      direction="row"
      useFlexGap
      spacing={1.5}
      sx={{ flexWrap: 'wrap', alignItems: 'center', mb: 2 }}
      data-testid="event-filters"
    >
      <MultiSelect
        id="event-type"
        label="Type"
        values={EVENT_TYPES}
        names={EVENT_TYPE_NAMES}
        selected={filter.types}
        onChange={(types) => set({ types })}
      />
      <MultiSelect
        id="event-classification"
        label="Classification"
        values={EVENT_CLASSIFICATIONS}
        names={EVENT_CLASSIFICATION_NAMES}
        selected={filter.classifications}
        onChange={(classifications) => set({ classifications })}
      />
      <MultiSelect
        id="event-state"
        label="State"
        values={EVENT_STATES}
        names={EVENT_STATE_NAMES}
        selected={filter.states}
        onChange={(states) => set({ states })}
      />
      {ships && (
        <FormControl size="small" sx={control}>
          <InputLabel id="event-ship-label" shrink>
            Ship
          </InputLabel>
          <Select
            labelId="event-ship-label"
            label="Ship"
            notched
            value={filter.facilityId ?? ''}
            displayEmpty
            renderValue={(id) => ships.find((s) => s.id === id)?.name ?? 'All ships'}
            onChange={(e) => set({ facilityId: e.target.value || null })}
            data-testid="event-ship-select"
          >
            <MenuItem value="">All ships</MenuItem>
            {ships.map((s) => (
              <MenuItem key={s.id} value={s.id}>
                {s.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      )}
      <FormControl size="small" sx={control}>
        <InputLabel id="event-period-label">Period</InputLabel>
        <Select
          labelId="event-period-label"
          label="Period"
          value={filter.period}
          onChange={(e) => set({ period: e.target.value as EventPeriodChoice })}
          data-testid="event-period-select"
        >
          <MenuItem value="all">All time</MenuItem>
          <MenuItem value="period">
            {formatDate(period.from)} – {formatDate(period.to)}
          </MenuItem>
        </Select>
      </FormControl>
      <FormControlLabel
        control={
          <Checkbox
            size="small"
            checked={filter.reportRequired}
            onChange={(e) => set({ reportRequired: e.target.checked })}
          />
        }
        label="Report required"
      />
      {filtered && (
        <Button
          size="small"
          onClick={() => onChange({ ...NO_EVENT_FILTER, facilityId: ships ? null : filter.facilityId })}
        >
          Clear filters
        </Button>
      )}
    </Stack>
  );
}
