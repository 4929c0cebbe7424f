import { describe, expect, it } from 'vitest';
import { matchRoutes } from 'react-router';
import { MAINTENANCE_ADMIN_PATH, maintenanceViewShown } from './maintenance';
import { maintenanceRoutes } from './router';

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

describe('the route table during maintenance', () => {
  /** The path of the route a URL ends on. */
  const target = (url: string) => matchRoutes(maintenanceRoutes, url)?.at(-1)?.route.path;

  it('has the maintenance console at /admin/maintenance, with no shell around it, and sign-in on the way', () => {
    expect(target(MAINTENANCE_ADMIN_PATH)).toBe(MAINTENANCE_ADMIN_PATH);
    // The console is a route of its own: nothing above it (the shell's layout route is not in this table).
    expect(matchRoutes(maintenanceRoutes, MAINTENANCE_ADMIN_PATH)).toHaveLength(1);
    expect(target('/login')).toBe('/login');
    expect(target('/logoff')).toBe('/logoff');
  });

  it('answers any other path with the maintenance view', () => {
    for (const url of [
      '/',
      '/admin/organizations',
      '/facilities/overview',
      '/ship/x',
      '/admin/maintenance/x',
    ])
      expect(target(url), url).toBe('*');
  });
});
