import { describe, expect, it } from 'vitest';
import { MAINTENANCE_ADMIN_PATH, maintenanceViewShown } from './maintenance';

describe('maintenanceViewShown', () => {
  it('shows nothing but the maintenance view while flagged', () => {
    expect(maintenanceViewShown(true, '/', false)).toBe(true);
    expect(maintenanceViewShown(true, '/admin/messages', false)).toBe(true);
    expect(maintenanceViewShown(false, '/', false)).toBe(false);
  });

  it('keeps the maintenance screen reachable so it can be switched off', () => {
    expect(maintenanceViewShown(true, MAINTENANCE_ADMIN_PATH, false)).toBe(false);
    expect(maintenanceViewShown(true, `${MAINTENANCE_ADMIN_PATH}/`, false)).toBe(false);
    expect(maintenanceViewShown(true, `${MAINTENANCE_ADMIN_PATH}/../`, false)).toBe(true);
  });

  it('lets the sign-in return through only on the way to the maintenance screen', () => {
    expect(maintenanceViewShown(true, '/login', false)).toBe(true);
    expect(maintenanceViewShown(true, '/login', true)).toBe(false);
  });
});
