import { useMemo, useState } from 'react';
import {
  Box,
  Button,
  Checkbox,
  Divider,
  FormControlLabel,
  FormGroup,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import type { Facility } from '@portal/contracts/facilities';
import {
  canApplyFilter,
  canToggleFacilitiesMode,
  emptyFleetFilter,
  filterOptions,
  fleetFilterGroupsFor,
  applyFleetFilter,
  type FleetFilter,
  type FleetFilterGroup,
  type Role,
} from '@portal/contracts/rules';
import { FormDialog } from '../../ui/dialogs/FormDialog';

const GROUP_LABELS: Record<FleetFilterGroup, string> = {
  organizations: 'Organizations',
  facilities: 'Ships',
  scrubberSystemTypes: 'Scrubber system types',
  numberOfScrubbers: 'Number of scrubbers',
  systemManufacturers: 'System manufacturers',
};

type Value = string | number;

function toggle<V extends Value>(list: readonly V[], value: V): V[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
}

export interface FleetFilterDialogProps {
  open: boolean;
  facilities: readonly Facility[];
  filter: FleetFilter;
  roles: readonly Role[];
  onClose(): void;
  onApply(filter: FleetFilter): void;
}

/**
 * The fleet filter: the groups the role may use (SystemAdmin all five, others the ships with Select all),
 * the include/exclude toggle for SystemAdmin. Mount it when it opens: it starts from the saved filter.
 * An empty group restricts nothing. Apply is disabled when no ships remain.
 */
export function FleetFilterDialog({
  open,
  facilities,
  filter,
  roles,
  onClose,
  onApply,
}: FleetFilterDialogProps) {
  const [draft, setDraft] = useState<FleetFilter>(filter);
  const groups = fleetFilterGroupsFor(roles);
  const options = useMemo(() => filterOptions(facilities), [facilities]);
  const remaining = applyFleetFilter(facilities, draft, roles).length;
  const canApply = canApplyFilter(facilities, draft, roles);
  const wide = groups.length > 1;

  const set = <G extends FleetFilterGroup>(group: G, values: FleetFilter[G]) =>
    setDraft((d) => ({ ...d, [group]: values }));

  const shipIds = options.facilities.map((o) => o.value);
  const allShips = shipIds.length > 0 && shipIds.every((id) => draft.facilities.includes(id));
  const someShips = draft.facilities.length > 0 && !allShips;

  return (
    <FormDialog
      title="Fleet filter"
      open={open}
      width={wide ? 'wide' : 'normal'}
      onClose={onClose}
      submitLabel="Apply"
      onSubmit={() => onApply(draft)}
      invalid={!canApply}
      dividers
      actionsSx={{ px: 3 }}
      startActions={
        <>
          <Typography
            variant="body2"
            color={canApply ? 'text.secondary' : 'error'}
            data-testid="filter-remaining"
            sx={{ mr: 'auto' }}
          >
            {canApply ? `${remaining} of ${facilities.length} ships` : 'No ships remain with this filter'}
          </Typography>
          <Button onClick={() => setDraft(emptyFleetFilter())}>Clear</Button>
        </>
      }
    >
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', sm: wide ? '1fr 1fr' : '1fr' } }}>
        {groups.map((group) => (
          <Box
            key={group}
            component="fieldset"
            sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}
            aria-label={GROUP_LABELS[group]}
          >
            <Typography component="legend" variant="subtitle2" sx={{ mb: 0.5 }}>
              {GROUP_LABELS[group]}
            </Typography>
            {group === 'facilities' && (
              <>
                {canToggleFacilitiesMode(roles) && (
                  <ToggleButtonGroup
                    exclusive
                    size="small"
                    value={draft.facilitiesMode}
                    onChange={(_e, mode: FleetFilter['facilitiesMode'] | null) =>
                      mode && setDraft((d) => ({ ...d, facilitiesMode: mode }))
                    }
                    sx={{ mb: 1 }}
                    aria-label="Ship filter mode"
                  >
                    <ToggleButton value="include">Include selected</ToggleButton>
                    <ToggleButton value="exclude">Exclude selected</ToggleButton>
                  </ToggleButtonGroup>
                )}
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={allShips}
                      indeterminate={someShips}
                      onChange={() => set('facilities', allShips ? [] : shipIds)}
                    />
                  }
                  label="Select all"
                />
                <Divider />
              </>
            )}
            <FormGroup
              sx={{ maxHeight: group === 'facilities' ? 280 : 200, overflow: 'auto', flexWrap: 'nowrap' }}
            >
              {options[group].map((option) => (
                <FormControlLabel
                  key={String(option.value)}
                  label={option.label}
                  control={
                    <Checkbox
                      size="small"
                      checked={(draft[group] as Value[]).includes(option.value)}
                      onChange={() =>
                        set(group, toggle(draft[group] as Value[], option.value) as FleetFilter[typeof group])
                      }
                    />
                  }
                />
              ))}
            </FormGroup>
          </Box>
        ))}
      </Box>
    </FormDialog>
  );
}
