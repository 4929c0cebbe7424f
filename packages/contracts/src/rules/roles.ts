import { ROLE_NAMES, type Role } from './constants';
import type { FleetFilterGroup } from './fleet-filter';

/** What each role sees (spec part 1 section 6, part 2 section 6). The API checks again on every route. */

export type { Role } from './constants';

const isRole = (v: unknown): v is Role =>
  typeof v === 'string' && (ROLE_NAMES as readonly string[]).includes(v);

/** The role claim of the access token is a single value or a list; unknown values are dropped, duplicates kept once. */
export function rolesFromClaim(claim: unknown): Role[] {
  const values = Array.isArray(claim) ? claim : [claim];
  return [...new Set(values.filter(isRole))];
}

export const isSystemAdmin = (roles: readonly Role[]) => roles.includes('SystemAdmin');

/** The Administration menu item counts both SystemAdmin and UserAdmin as admin. */
export const isAdmin = (roles: readonly Role[]) =>
  roles.includes('SystemAdmin') || roles.includes('UserAdmin');

/** Where the Administration menu item leads, or null when it is not shown. */
export function administrationPath(
  roles: readonly Role[],
  organizationId: string | null | undefined,
): string | null {
  if (isSystemAdmin(roles)) return '/admin/organizations';
  if (roles.includes('UserAdmin') && organizationId)
    return `/admin/${encodeURIComponent(organizationId)}/manage`;
  return null;
}

/** Report Configurator menu item and the data export shortcut on widgets. */
export const canUseReportConfigurator = (roles: readonly Role[]) => isSystemAdmin(roles);

/** Edit ship, New ship and Configure buttons. */
export const canConfigureShips = (roles: readonly Role[]) => isSystemAdmin(roles);

/** SystemAdmin sees all organizations, the organization switcher, and may edit an organization's name and priority. */
export const canManageAllOrganizations = (roles: readonly Role[]) => isSystemAdmin(roles);

/** The fleet filter groups a role may use. Everyone has the ship filter; the rest are SystemAdmin's. */
export function fleetFilterGroupsFor(roles: readonly Role[]): FleetFilterGroup[] {
  return isSystemAdmin(roles)
    ? ['organizations', 'facilities', 'scrubberSystemTypes', 'numberOfScrubbers', 'systemManufacturers']
    : ['facilities'];
}

/** The include/exclude toggle of the ship filter. */
export const canToggleFacilitiesMode = (roles: readonly Role[]) => isSystemAdmin(roles);

/**
 * Whether the web shows the ledger's write controls (new and changed bunker delivery notes, tank soundings, noon
 * report imports, record book entries and their corrections): every role but Verifier, which reads the ledger of
 * its years only (docs/decisions/0115-verifier.md). The API refuses a verifier's writes anyway.
 */
export const mayWriteLedger = (roles: readonly Role[]) => roles.length > 0 && !roles.includes('Verifier');
