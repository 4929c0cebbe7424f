import { describe, expect, it } from 'vitest';
import { organizationsFromFacilities } from './organizations-api';

describe('organizationsFromFacilities', () => {
  it('gives each owner once, by name', () => {
    const ships = [
      { primaryOrganizationId: 's', primaryOrganizationName: 'Southern Cross Tankers' },
      { primaryOrganizationId: 'n', primaryOrganizationName: 'Nordic Bulk Carriers' },
      { primaryOrganizationId: 's', primaryOrganizationName: 'Southern Cross Tankers' },
    ];
    expect(organizationsFromFacilities(ships)).toEqual([
      { id: 'n', name: 'Nordic Bulk Carriers' },
      { id: 's', name: 'Southern Cross Tankers' },
    ]);
  });
});
