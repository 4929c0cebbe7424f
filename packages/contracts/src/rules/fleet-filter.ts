import { z } from 'zod';
import { NOT_SPECIFIED } from './dates';
import { canToggleFacilitiesMode, isSystemAdmin } from './roles';
import type { Role } from './constants';

/**
 * The saved fleet filter (spec part 1 sections 3, 4 and 6). An empty group restricts nothing.
 * Scrubber system type and manufacturer use '' for "not specified" (a ship with null or '' there).
 */
export const FLEET_FILTER_GROUPS = [
  'organizations',
  'facilities',
  'scrubberSystemTypes',
  'numberOfScrubbers',
  'systemManufacturers',
] as const;
export type FleetFilterGroup = (typeof FLEET_FILTER_GROUPS)[number];

export const fleetFilterSchema = z.object({
  organizations: z.array(z.string()).default([]),
  facilities: z.array(z.string()).default([]),
  facilitiesMode: z.enum(['include', 'exclude']).default('include'),
  scrubberSystemTypes: z.array(z.string()).default([]),
  numberOfScrubbers: z.array(z.number()).default([]),
  systemManufacturers: z.array(z.string()).default([]),
});
export type FleetFilter = z.infer<typeof fleetFilterSchema>;

export const emptyFleetFilter = (): FleetFilter => ({
  organizations: [],
  facilities: [],
  facilitiesMode: 'include',
  scrubberSystemTypes: [],
  numberOfScrubbers: [],
  systemManufacturers: [],
});

/** The ship fields the filter looks at. */
export interface FilterableFacility {
  id: string;
  name: string;
  primaryOrganizationId: string;
  primaryOrganizationName?: string | null;
  scrubberSystemType: string | null;
  numberOfScrubbers: number | null;
  systemManufacturer: string | null;
}

const orEmpty = (v: string | null | undefined) => (v ?? '').trim();

/**
 * The ships that pass the filter. For anyone but SystemAdmin only the ship group counts, and always
 * as include (the other groups and the include/exclude toggle are SystemAdmin's).
 */
export function applyFleetFilter<T extends FilterableFacility>(
  facilities: readonly T[],
  filter: FleetFilter,
  roles: readonly Role[],
): T[] {
  const all = isSystemAdmin(roles);
  const mode = canToggleFacilitiesMode(roles) ? filter.facilitiesMode : 'include';
  const ships = new Set(filter.facilities);
  return facilities.filter((f) => {
    if (ships.size > 0 && ships.has(f.id) !== (mode === 'include')) return false;
    if (!all) return true;
    if (filter.organizations.length && !filter.organizations.includes(f.primaryOrganizationId)) return false;
    if (
      filter.scrubberSystemTypes.length &&
      !filter.scrubberSystemTypes.includes(orEmpty(f.scrubberSystemType))
    )
      return false;
    if (
      filter.numberOfScrubbers.length &&
      (f.numberOfScrubbers === null || !filter.numberOfScrubbers.includes(f.numberOfScrubbers))
    )
      return false;
    if (
      filter.systemManufacturers.length &&
      !filter.systemManufacturers.includes(orEmpty(f.systemManufacturer))
    )
      return false;
    return true;
  });
}

/** The Apply button is disabled when no ships remain. */
export function canApplyFilter(
  facilities: readonly FilterableFacility[],
  filter: FleetFilter,
  roles: readonly Role[],
): boolean {
  return applyFleetFilter(facilities, filter, roles).length > 0;
}

/** False when the ship being viewed is filtered out: the user is then taken to /. */
export function isFacilityVisible(
  facilityId: string,
  facilities: readonly FilterableFacility[],
  filter: FleetFilter,
  roles: readonly Role[],
): boolean {
  return applyFleetFilter(facilities, filter, roles).some((f) => f.id === facilityId);
}

/** The filter from local storage; missing groups are empty, anything broken gives the empty filter. */
export function parseStoredFleetFilter(json: string | null | undefined): FleetFilter {
  if (!json) return emptyFleetFilter();
  try {
    const result = fleetFilterSchema.safeParse(JSON.parse(json));
    return result.success ? result.data : emptyFleetFilter();
  } catch {
    return emptyFleetFilter();
  }
}

export const serializeFleetFilter = (filter: FleetFilter) => JSON.stringify(filter);

export interface FilterOption<V> {
  value: V;
  label: string;
}

export interface FleetFilterOptions {
  organizations: FilterOption<string>[];
  facilities: FilterOption<string>[];
  scrubberSystemTypes: FilterOption<string>[];
  numberOfScrubbers: FilterOption<number>[];
  systemManufacturers: FilterOption<string>[];
}

const byLabel = <V>(a: FilterOption<V>, b: FilterOption<V>) =>
  a.label.localeCompare(b.label, 'en', { sensitivity: 'base' });

function textOptions(values: Iterable<string>): FilterOption<string>[] {
  const distinct = [...new Set(values)];
  const named = distinct
    .filter((v) => v !== '')
    .map((v) => ({ value: v, label: v }))
    .sort(byLabel);
  // 'Not specified' goes last, after the real names.
  return distinct.includes('') ? [...named, { value: '', label: NOT_SPECIFIED }] : named;
}

/** The choices of each group: distinct values of the ships, sorted, with 'Not specified' for an empty type or manufacturer. */
export function filterOptions(facilities: readonly FilterableFacility[]): FleetFilterOptions {
  const organizations = new Map<string, string>();
  for (const f of facilities)
    organizations.set(f.primaryOrganizationId, f.primaryOrganizationName?.trim() || f.primaryOrganizationId);
  const scrubbers = [
    ...new Set(facilities.map((f) => f.numberOfScrubbers).filter((n): n is number => n !== null)),
  ];
  return {
    organizations: [...organizations].map(([value, label]) => ({ value, label })).sort(byLabel),
    facilities: facilities.map((f) => ({ value: f.id, label: f.name })).sort(byLabel),
    scrubberSystemTypes: textOptions(facilities.map((f) => orEmpty(f.scrubberSystemType))),
    numberOfScrubbers: scrubbers.sort((a, b) => a - b).map((n) => ({ value: n, label: String(n) })),
    systemManufacturers: textOptions(facilities.map((f) => orEmpty(f.systemManufacturer))),
  };
}
