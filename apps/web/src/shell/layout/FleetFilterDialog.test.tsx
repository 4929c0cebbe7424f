import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Facility } from '@portal/contracts/facilities';
import { emptyFleetFilter } from '@portal/contracts/rules';
import { FleetFilterDialog } from './FleetFilterDialog';
import { viewedFacilityId } from './NavDrawer';

const ship = (id: string, name: string, organization: string, type: string | null): Facility => ({
  id,
  name,
  imo: null,
  primaryOrganizationId: organization,
  primaryOrganizationName: organization === 'n' ? 'Nordic' : 'Southern',
  scrubberSystemType: type,
  numberOfScrubbers: 1,
  systemManufacturer: null,
  totalEffectKW: null,
  startDate: null,
  endDate: null,
  dataTimeStampMin: null,
  dataTimeStampMax: null,
  dataCoverage: null,
  imageBase64: null,
  dataSourceCount: 0,
  organizationIds: [organization],
  shipType: null,
  deadweightTonnes: null,
  grossTonnage: null,
});
const ships = [
  ship('1', 'Alpha', 'n', 'Hybrid'),
  ship('2', 'Bravo', 'n', 'Open Loop'),
  ship('3', 'Charlie', 's', 'Hybrid'),
];

afterEach(cleanup);

describe('FleetFilterDialog', () => {
  it('for a SystemAdmin: all groups, and Apply disabled when excluding every ship', async () => {
    const onApply = vi.fn();
    render(
      <FleetFilterDialog
        open
        facilities={ships}
        filter={emptyFleetFilter()}
        roles={['SystemAdmin']}
        onClose={() => undefined}
        onApply={onApply}
      />,
    );
    const dialog = screen.getByRole('dialog');
    for (const group of [
      'Organizations',
      'Ships',
      'Scrubber system types',
      'Number of scrubbers',
      'System manufacturers',
    ])
      expect(within(dialog).getByRole('group', { name: group })).toBeTruthy();
    const apply = within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Exclude selected' }));
    await userEvent.click(within(dialog).getByLabelText('Select all'));
    expect(apply.disabled).toBe(true);
    expect(within(dialog).getByText('No ships remain with this filter')).toBeTruthy();
    await userEvent.click(within(dialog).getByLabelText('Alpha'));
    expect(apply.disabled).toBe(false);
    await userEvent.click(apply);
    expect(onApply).toHaveBeenCalledWith(
      expect.objectContaining({ facilities: ['2', '3'], facilitiesMode: 'exclude' }),
    );
  });

  it('combines groups: Apply is disabled when organization and type leave no ship', async () => {
    render(
      <FleetFilterDialog
        open
        facilities={ships}
        filter={emptyFleetFilter()}
        roles={['SystemAdmin']}
        onClose={() => undefined}
        onApply={() => undefined}
      />,
    );
    const dialog = screen.getByRole('dialog');
    await userEvent.click(
      within(within(dialog).getByRole('group', { name: 'Organizations' })).getByLabelText('Southern'),
    );
    await userEvent.click(
      within(within(dialog).getByRole('group', { name: 'Scrubber system types' })).getByLabelText(
        'Open Loop',
      ),
    );
    expect((within(dialog).getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('for a User: only the ships, with Select all and no include/exclude toggle', async () => {
    const onApply = vi.fn();
    render(
      <FleetFilterDialog
        open
        facilities={ships}
        filter={emptyFleetFilter()}
        roles={['User']}
        onClose={() => undefined}
        onApply={onApply}
      />,
    );
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getAllByRole('group')).toHaveLength(1);
    expect(within(dialog).queryByRole('button', { name: 'Exclude selected' })).toBeNull();
    await userEvent.click(within(dialog).getByLabelText('Select all'));
    expect(within(dialog).getByText('3 of 3 ships')).toBeTruthy();
    await userEvent.click(within(dialog).getByLabelText('Bravo'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(onApply).toHaveBeenCalledWith(
      expect.objectContaining({ facilities: ['1', '3'], facilitiesMode: 'include' }),
    );
  });
});

describe('viewedFacilityId', () => {
  it('finds the ship of a ship dashboard or a ship page under /facilities', () => {
    expect(viewedFacilityId('/ship/abc')).toBe('abc');
    expect(viewedFacilityId('/facilities/abc/config/channels')).toBe('abc');
    expect(viewedFacilityId('/facilities/abc/files')).toBe('abc');
    expect(viewedFacilityId('/facilities/overview')).toBe('overview');
    expect(viewedFacilityId('/')).toBeUndefined();
    expect(viewedFacilityId('/service/pureserv')).toBeUndefined();
  });
});
