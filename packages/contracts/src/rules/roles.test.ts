import { describe, expect, it } from 'vitest';
import {
  administrationPath,
  canConfigureShips,
  canManageAllOrganizations,
  canToggleFacilitiesMode,
  canUseReportConfigurator,
  fleetFilterGroupsFor,
  isAdmin,
  mayWriteLedger,
  rolesFromClaim,
} from './roles';

describe('rolesFromClaim', () => {
  it('reads a single value or a list', () => {
    expect(rolesFromClaim('UserAdmin')).toEqual(['UserAdmin']);
    expect(rolesFromClaim(['User', 'SystemAdmin'])).toEqual(['User', 'SystemAdmin']);
  });

  it('drops unknown values and duplicates', () => {
    expect(rolesFromClaim(['User', 'Root', 42, null, 'User', 'useradmin'])).toEqual(['User']);
    expect(rolesFromClaim('Superuser')).toEqual([]);
    expect(rolesFromClaim(undefined)).toEqual([]);
    expect(rolesFromClaim({ role: 'User' })).toEqual([]);
  });
});

describe('permissions by role', () => {
  it('counts SystemAdmin and UserAdmin as admin', () => {
    expect(isAdmin(['SystemAdmin'])).toBe(true);
    expect(isAdmin(['UserAdmin'])).toBe(true);
    expect(isAdmin(['User'])).toBe(false);
    expect(isAdmin([])).toBe(false);
  });

  it('leads each admin to their administration page', () => {
    expect(administrationPath(['SystemAdmin'], 'org-1')).toBe('/admin/organizations');
    expect(administrationPath(['UserAdmin', 'SystemAdmin'], 'org-1')).toBe('/admin/organizations');
    expect(administrationPath(['UserAdmin'], 'org-1')).toBe('/admin/org-1/manage');
    expect(administrationPath(['UserAdmin'], null)).toBeNull();
    expect(administrationPath(['User'], 'org-1')).toBeNull();
  });

  it('keeps configuration, report configurator and all-organization management for SystemAdmin', () => {
    for (const check of [
      canUseReportConfigurator,
      canConfigureShips,
      canManageAllOrganizations,
      canToggleFacilitiesMode,
    ]) {
      expect(check(['SystemAdmin'])).toBe(true);
      expect(check(['UserAdmin'])).toBe(false);
      expect(check(['User'])).toBe(false);
    }
  });

  it('gives every role the ship filter and SystemAdmin all groups', () => {
    expect(fleetFilterGroupsFor(['User'])).toEqual(['facilities']);
    expect(fleetFilterGroupsFor(['UserAdmin'])).toEqual(['facilities']);
    expect(fleetFilterGroupsFor(['SystemAdmin'])).toEqual([
      'organizations',
      'facilities',
      'scrubberSystemTypes',
      'numberOfScrubbers',
      'systemManufacturers',
    ]);
  });
});

describe('mayWriteLedger', () => {
  it('shows the ledger write controls to every role but Verifier', () => {
    for (const role of ['SystemAdmin', 'UserAdmin', 'User'] as const)
      expect(mayWriteLedger([role])).toBe(true);
    expect(mayWriteLedger(['Verifier'])).toBe(false);
  });

  it('shows them to nobody without a role, nor to a verifier that also has another role', () => {
    expect(mayWriteLedger([])).toBe(false);
    expect(mayWriteLedger(['User', 'Verifier'])).toBe(false);
  });
});
