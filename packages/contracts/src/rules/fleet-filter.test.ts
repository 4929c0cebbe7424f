import { describe, expect, it } from 'vitest';
import {
  applyFleetFilter,
  canApplyFilter,
  emptyFleetFilter,
  filterOptions,
  type FilterableFacility,
  type FleetFilter,
  isFacilityVisible,
  parseStoredFleetFilter,
  serializeFleetFilter,
} from './fleet-filter';

const ship = (id: string, over: Partial<FilterableFacility> = {}): FilterableFacility => ({
  id,
  name: id.toUpperCase(),
  primaryOrganizationId: 'org-a',
  primaryOrganizationName: 'Alpha Shipping',
  scrubberSystemType: 'Hybrid',
  numberOfScrubbers: 1,
  systemManufacturer: 'Wartsila',
  ...over,
});

const fleet = [
  ship('aurora'),
  ship('boreas', {
    primaryOrganizationId: 'org-b',
    primaryOrganizationName: 'Beta Lines',
    scrubberSystemType: 'Open Loop',
    numberOfScrubbers: 2,
  }),
  ship('cygnus', { scrubberSystemType: null, systemManufacturer: '' }),
  ship('draco', { numberOfScrubbers: null, systemManufacturer: null, scrubberSystemType: '' }),
];
const ids = (list: FilterableFacility[]) => list.map((f) => f.id);
const filter = (over: Partial<FleetFilter>): FleetFilter => ({ ...emptyFleetFilter(), ...over });

describe('applyFleetFilter', () => {
  it('restricts nothing when every group is empty', () => {
    expect(ids(applyFleetFilter(fleet, emptyFleetFilter(), ['User']))).toEqual([
      'aurora',
      'boreas',
      'cygnus',
      'draco',
    ]);
  });

  it('includes or excludes the chosen ships', () => {
    expect(
      ids(applyFleetFilter(fleet, filter({ facilities: ['boreas', 'draco'] }), ['SystemAdmin'])),
    ).toEqual(['boreas', 'draco']);
    expect(
      ids(
        applyFleetFilter(fleet, filter({ facilities: ['boreas'], facilitiesMode: 'exclude' }), [
          'SystemAdmin',
        ]),
      ),
    ).toEqual(['aurora', 'cygnus', 'draco']);
  });

  it('filters by organization, type, number of scrubbers and manufacturer for SystemAdmin', () => {
    const admin = ['SystemAdmin'] as const;
    expect(ids(applyFleetFilter(fleet, filter({ organizations: ['org-b'] }), admin))).toEqual(['boreas']);
    expect(ids(applyFleetFilter(fleet, filter({ scrubberSystemTypes: ['Hybrid'] }), admin))).toEqual([
      'aurora',
    ]);
    expect(ids(applyFleetFilter(fleet, filter({ scrubberSystemTypes: [''] }), admin))).toEqual([
      'cygnus',
      'draco',
    ]);
    expect(ids(applyFleetFilter(fleet, filter({ numberOfScrubbers: [1] }), admin))).toEqual([
      'aurora',
      'cygnus',
    ]);
    expect(ids(applyFleetFilter(fleet, filter({ systemManufacturers: [''] }), admin))).toEqual([
      'cygnus',
      'draco',
    ]);
  });

  it('combines groups with and', () => {
    expect(
      ids(
        applyFleetFilter(fleet, filter({ organizations: ['org-a'], systemManufacturers: ['Wartsila'] }), [
          'SystemAdmin',
        ]),
      ),
    ).toEqual(['aurora']);
  });

  it('ignores the other groups and the exclude mode for non-SystemAdmin', () => {
    const f = filter({
      organizations: ['org-b'],
      numberOfScrubbers: [2],
      facilities: ['aurora'],
      facilitiesMode: 'exclude',
    });
    expect(ids(applyFleetFilter(fleet, f, ['UserAdmin']))).toEqual(['aurora']);
    expect(ids(applyFleetFilter(fleet, filter({ organizations: ['org-b'] }), ['User']))).toHaveLength(4);
  });
});

describe('canApplyFilter and isFacilityVisible', () => {
  it('disables Apply when no ships remain', () => {
    expect(canApplyFilter(fleet, filter({ organizations: ['org-z'] }), ['SystemAdmin'])).toBe(false);
    expect(canApplyFilter(fleet, filter({ organizations: ['org-z'] }), ['User'])).toBe(true);
    expect(canApplyFilter([], emptyFleetFilter(), ['User'])).toBe(false);
  });

  it('tells whether the viewed ship is still in the fleet', () => {
    const f = filter({ facilities: ['aurora'], facilitiesMode: 'exclude' });
    expect(isFacilityVisible('aurora', fleet, f, ['SystemAdmin'])).toBe(false);
    expect(isFacilityVisible('boreas', fleet, f, ['SystemAdmin'])).toBe(true);
    expect(isFacilityVisible('unknown', fleet, emptyFleetFilter(), ['SystemAdmin'])).toBe(false);
  });
});

describe('stored filter', () => {
  it('round-trips', () => {
    const f = filter({ facilities: ['a'], facilitiesMode: 'exclude', numberOfScrubbers: [2, 3] });
    expect(parseStoredFleetFilter(serializeFleetFilter(f))).toEqual(f);
  });

  it('fills missing groups with empty ones', () => {
    expect(parseStoredFleetFilter('{"facilities":["x"]}')).toEqual(filter({ facilities: ['x'] }));
  });

  it.each([
    null,
    '',
    '{',
    '[]',
    '42',
    '{"facilities":"x"}',
    '{"facilitiesMode":"only"}',
    '{"numberOfScrubbers":["2"]}',
  ])('gives the empty filter for %j', (stored) => {
    expect(parseStoredFleetFilter(stored)).toEqual(emptyFleetFilter());
  });
});

describe('filterOptions', () => {
  const options = filterOptions(fleet);

  it('lists distinct organizations and ships by name', () => {
    expect(options.organizations).toEqual([
      { value: 'org-a', label: 'Alpha Shipping' },
      { value: 'org-b', label: 'Beta Lines' },
    ]);
    expect(options.facilities.map((o) => o.label)).toEqual(['AURORA', 'BOREAS', 'CYGNUS', 'DRACO']);
  });

  it('puts Not specified last for empty type and manufacturer', () => {
    expect(options.scrubberSystemTypes).toEqual([
      { value: 'Hybrid', label: 'Hybrid' },
      { value: 'Open Loop', label: 'Open Loop' },
      { value: '', label: 'Not specified' },
    ]);
    expect(options.systemManufacturers).toEqual([
      { value: 'Wartsila', label: 'Wartsila' },
      { value: '', label: 'Not specified' },
    ]);
  });

  it('sorts numbers of scrubbers numerically and leaves out unknown ones', () => {
    const many = filterOptions([
      ship('x', { numberOfScrubbers: 10 }),
      ship('y', { numberOfScrubbers: 2 }),
      ...fleet,
    ]);
    expect(many.numberOfScrubbers.map((o) => o.value)).toEqual([1, 2, 10]);
  });

  it('omits Not specified when every ship has a value', () => {
    expect(filterOptions([ship('a')]).systemManufacturers).toEqual([
      { value: 'Wartsila', label: 'Wartsila' },
    ]);
  });
});
