import { describe, expect, it } from 'vitest';
import { matchRoutes } from 'react-router';
import type { Role } from '@portal/contracts/rules';
import { mayOpen, requiredRoles } from '../lib/access';
import { routes } from './router';

const ship = '1c6058dc-b296-4c92-b2cf-f30254d3947e';
const org = 'f401cd48-e835-4070-82e7-3320896e4beb';

/** Whether a user with `roles` may open `path` by the real route table. */
const opens = (roles: Role[], path: string) => {
  const matches = matchRoutes(routes, path);
  expect(matches, path).not.toBeNull();
  return mayOpen(roles, requiredRoles(matches!.map((m) => m.route)));
};

const SYSTEM_ADMIN_ONLY_PATHS = [
  '/report-config',
  '/report-config/overview',
  '/report-config/calculation-queue',
  '/report-config/data-export',
  '/report-config/detail',
  `/report-config/detail/${ship}`,
  `/facilities/${ship}/config`,
  `/facilities/${ship}/config/info`,
  `/facilities/${ship}/config/channels`,
  `/facilities/${ship}/config/calculation-queue`,
  `/facilities/${ship}/config/list`,
  `/facilities/${ship}/config/detail`,
  '/admin/organizations',
  '/admin/messages',
];
const EVERYONE_PATHS = [
  '/',
  `/ship/${ship}`,
  '/facilities/overview',
  `/facilities/${ship}/files`,
  '/service/pureserv',
  '/service/documents',
  '/help',
  '/legal',
  '/profile',
  '/KPIWidgetPreview',
  '/no/such/page',
];

describe('which roles may open which route', () => {
  it('a SystemAdmin opens every route', () => {
    for (const path of [...SYSTEM_ADMIN_ONLY_PATHS, ...EVERYONE_PATHS, `/admin/${org}/manage`])
      expect(opens(['SystemAdmin'], path), path).toBe(true);
  });

  it('a UserAdmin and a User open no SystemAdmin-only route (configuration, reports, organizations, messages)', () => {
    for (const path of SYSTEM_ADMIN_ONLY_PATHS) {
      expect(opens(['UserAdmin'], path), path).toBe(false);
      expect(opens(['User'], path), path).toBe(false);
    }
  });

  it("a UserAdmin opens an organization's administration, a User does not", () => {
    expect(opens(['UserAdmin'], `/admin/${org}/manage`)).toBe(true);
    expect(opens(['UserAdmin'], '/admin')).toBe(true);
    expect(opens(['User'], `/admin/${org}/manage`)).toBe(false);
    expect(opens(['User'], '/admin')).toBe(false);
  });

  it('dashboards, ships, upload, service and the info pages are for every role', () => {
    for (const path of EVERYONE_PATHS)
      for (const role of ['UserAdmin', 'User'] as Role[]) expect(opens([role], path), path).toBe(true);
  });

  it('a verifier opens its verification and, of a ship, the fuel records and the record book only', () => {
    for (const path of [
      '/',
      '/verification',
      '/verification/2026',
      `/facilities/${ship}/fuel-records`,
      `/facilities/${ship}/record-book`,
    ])
      expect(opens(['Verifier'], path), path).toBe(true);
    for (const path of [
      `/ship/${ship}`,
      `/ship/${ship}/map`,
      `/ship/${ship}/carbon`,
      '/map',
      '/KPIWidgetPreview',
      '/facilities/overview',
      `/facilities/${ship}/files`,
      `/facilities/${ship}/events`,
      `/facilities/${ship}/inspection-packs`,
      `/facilities/${ship}/voyages/${ship}`,
      `/facilities/${ship}/config/info`,
      '/events',
      `/events/${ship}`,
      '/service/pureserv',
      '/service/documents',
      '/report-config/overview',
      `/admin/${org}/manage`,
      `/verification/${org}/2026`,
    ])
      expect(opens(['Verifier'], path), path).toBe(false);
  });

  it('every other role opens the fuel records and the record book', () => {
    for (const role of ['SystemAdmin', 'UserAdmin', 'User'] as Role[])
      for (const path of [`/facilities/${ship}/fuel-records`, `/facilities/${ship}/record-book`])
        expect(opens([role], path), path).toBe(true);
  });

  it('a user without a role opens only the unrestricted routes', () => {
    expect(opens([], '/')).toBe(true);
    expect(opens([], '/report-config/overview')).toBe(false);
  });

  it('a child route cannot widen what its parent allows', () => {
    const parent = { handle: { roles: ['SystemAdmin'] } };
    const child = { handle: { roles: ['SystemAdmin', 'UserAdmin', 'User'] } };
    expect(mayOpen(['User'], requiredRoles([parent, child]))).toBe(false);
  });
});
