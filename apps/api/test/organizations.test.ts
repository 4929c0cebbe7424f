import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness';
import { DEMO_USERS } from '../src/seed/platform';

let server: TestServer;
let org: Record<string, string>;
let user: Record<string, string>;
beforeAll(async () => {
  server = await startTestServer();
  ({ organizationIds: org, userIds: user } = server.seed);
});
afterAll(async () => {
  await server?.close();
});

const northShips = () =>
  server.services.database.db
    .selectFrom('facilities')
    .select(['id', 'name'])
    .where('primary_organization_id', '=', org.north!)
    .orderBy('name')
    .execute();
const southShips = () =>
  server.services.database.db
    .selectFrom('facilities')
    .select(['id', 'name'])
    .where('primary_organization_id', '=', org.south!)
    .orderBy('name')
    .execute();
/** North's ship that the demo shares with South, and North's ships that are not shared. */
const sharedShip = async () => {
  const row = await server.services.database.db
    .selectFrom('organization_facility_access')
    .select('facility_id')
    .where('organization_id', '=', org.south!)
    .executeTakeFirstOrThrow();
  return { id: row.facility_id };
};
const unsharedNorthShips = async () => {
  const shared = await sharedShip();
  return (await northShips()).filter((s) => s.id !== shared.id);
};
const idsOf = (list: { id: string }[]) => list.map((x) => x.id);

describe('organizations list and detail', () => {
  it('lists every organization for a SystemAdmin, with ship and user counts', async () => {
    const list = (await (await server.as('admin')).get('/api/organizations')).json();
    expect(list.map((o: { name: string }) => o.name)).toEqual([
      'Nordic Bulk Carriers',
      'Scrubber Service Provider',
      'Southern Cross Tankers',
    ]);
    const north = list.find((o: { id: string }) => o.id === org.north);
    expect(north).toMatchObject({
      email: 'fleet@nordicbulk.example',
      // Its demo users, the verifier among them (a user of the organization it verifies).
      userCount: DEMO_USERS.filter((u) => u.organization === 'north').length,
      facilityCount: (await northShips()).length,
    });
  });

  it('lists only the own organization for a UserAdmin and a User', async () => {
    for (const name of ['north.admin', 'north.anna']) {
      const list = (await (await server.as(name)).get('/api/organizations')).json();
      expect(list.map((o: { id: string }) => o.id)).toEqual([org.north]);
    }
  });

  it('answers the detail with link key, linked organizations and assignable roles', async () => {
    const detail = (
      await (await server.as('north.admin')).get(`/api/organizations/${org.north}/organization`)
    ).json();
    expect(detail.linkKey).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(detail.linkedOrganizations).toEqual([
      { id: org.south, name: 'Southern Cross Tankers', facilityIds: [(await sharedShip()).id] },
    ]);
    expect(detail.roles.map((r: { name: string }) => r.name)).toEqual(['UserAdmin', 'User']);
    expect(detail.roles[0]).toMatchObject({ displayName: 'Administrator', summary: expect.any(String) });
  });

  it('offers SystemAdmin only in the provider organization and only to a SystemAdmin', async () => {
    const admin = await server.as('admin');
    const provider = (await admin.get(`/api/organizations/${org.provider}/organization`)).json();
    expect(provider.roles.map((r: { name: string }) => r.name)).toEqual(['SystemAdmin', 'UserAdmin', 'User']);
    const north = (await admin.get(`/api/organizations/${org.north}/organization`)).json();
    expect(north.roles.map((r: { name: string }) => r.name)).toEqual(['UserAdmin', 'User']);
  });

  it('answers "Organization not found" for a missing organization, and hides other organizations from a UserAdmin', async () => {
    const admin = await server.as('admin');
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await admin.get(`/api/organizations/${id}/organization`);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Organization not found');
    }
    const northAdmin = await server.as('north.admin');
    for (const url of [
      `/api/organizations/${org.south}/organization`,
      `/api/organizations/${org.south}/users`,
    ]) {
      const response = await northAdmin.get(url);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Organization not found');
    }
  });

  it('refuses the own organization detail to a User with 403', async () => {
    expect(
      (await (await server.as('north.anna')).get(`/api/organizations/${org.north}/organization`)).statusCode,
    ).toBe(403);
  });
});

describe('creating and updating organizations', () => {
  it('creates an organization with a 7-character link key, SystemAdmin only', async () => {
    const admin = await server.as('admin');
    const created = await admin.post('/api/organizations', {
      name: 'Baltic Feeders',
      email: 'ops@baltic.example',
      phone: '+46 1',
      priority: false,
      linkKey: 'Abc1234',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Baltic Feeders',
      linkKey: 'Abc1234',
      facilityCount: 0,
      userCount: 0,
      linkedOrganizations: [],
    });
    const generated = await admin.post('/api/organizations', {
      name: 'Arctic Reefers',
      email: '',
      phone: '',
    });
    expect(generated.json().linkKey).toMatch(/^[A-Za-z0-9]{7}$/);
    expect(
      (
        await (
          await server.as('north.admin')
        ).post('/api/organizations', { name: 'Mine', email: '', phone: '' })
      ).statusCode,
    ).toBe(403);
  });

  it('refuses a missing name, a bad e-mail, a bad link key and a duplicate name with the form texts', async () => {
    const admin = await server.as('admin');
    const noName = await admin.post('/api/organizations', { name: ' ', email: '' });
    expect(noName.statusCode).toBe(400);
    expect(Object.values(noName.json().fields)).toContain('Name is required');
    const badEmail = await admin.post('/api/organizations', { name: 'X Lines', email: 'not-an-email' });
    expect(Object.values(badEmail.json().fields)).toContain('E-mail must be valid');
    const badKey = await admin.post('/api/organizations', { name: 'Y Lines', email: '', linkKey: 'ab-12' });
    expect(badKey.statusCode).toBe(400);
    const duplicate = await admin.post('/api/organizations', { name: 'nordic bulk carriers', email: '' });
    expect(duplicate.statusCode).toBe(409);
  });

  it('lets a UserAdmin change contact details of the own organization but not name or priority', async () => {
    const northAdmin = await server.as('north.admin');
    const ok = await northAdmin.put(`/api/organizations/${org.north}/update-organization`, {
      name: 'Nordic Bulk Carriers',
      email: 'new@nordicbulk.example',
      phone: '+47 1',
      priority: false,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ email: 'new@nordicbulk.example', phone: '+47 1' });
    const rename = await northAdmin.put(`/api/organizations/${org.north}/update-organization`, {
      name: 'Nordic Renamed',
      email: '',
      phone: '',
      priority: false,
    });
    expect(rename.statusCode).toBe(403);
    const priority = await northAdmin.put(`/api/organizations/${org.north}/update-organization`, {
      name: 'Nordic Bulk Carriers',
      email: '',
      phone: '',
      priority: true,
    });
    expect(priority.statusCode).toBe(403);
    const other = await northAdmin.put(`/api/organizations/${org.south}/update-organization`, {
      name: 'Southern Cross Tankers',
      email: '',
      phone: '',
      priority: false,
    });
    expect(other.statusCode).toBe(404);
  });

  it('lets a SystemAdmin rename and set priority', async () => {
    const admin = await server.as('admin');
    const created = (await admin.post('/api/organizations', { name: 'Rename Me', email: '' })).json();
    const renamed = await admin.put(`/api/organizations/${created.id}/update-organization`, {
      name: 'Renamed Lines',
      email: 'a@b.example',
      phone: '',
      priority: true,
    });
    expect(renamed.json()).toMatchObject({ name: 'Renamed Lines', priority: true });
    expect(
      (
        await admin.put('/api/organizations/00000000-0000-4000-8000-000000000000/update-organization', {
          name: 'Z',
          email: '',
        })
      ).json().message,
    ).toBe('Organization not found');
  });
});

describe('linking organizations', () => {
  it("links by the other organization's key, both ways, and unlinks", async () => {
    const admin = await server.as('admin');
    const baltic = (await admin.get('/api/organizations'))
      .json()
      .find((o: { name: string }) => o.name === 'Baltic Feeders');
    const northAdmin = await server.as('north.admin');
    const linked = await northAdmin.post(`/api/organizations/${org.north}/Abc1234/organization-link`);
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toEqual({ id: baltic.id, name: 'Baltic Feeders' });
    const balticDetail = (await admin.get(`/api/organizations/${baltic.id}/organization`)).json();
    expect(balticDetail.linkedOrganizations.map((l: { id: string }) => l.id)).toEqual([org.north]);
    expect(
      (await northAdmin.post(`/api/organizations/${org.north}/Abc1234/organization-link`)).statusCode,
    ).toBe(409);

    expect((await northAdmin.delete(`/api/organizations/${org.north}/${baltic.id}`)).statusCode).toBe(204);
    expect(
      (await admin.get(`/api/organizations/${baltic.id}/organization`)).json().linkedOrganizations,
    ).toEqual([]);
  });

  it("refuses an unknown key, the own key, a malformed key, and another organization's links", async () => {
    const northAdmin = await server.as('north.admin');
    const own = (await northAdmin.get(`/api/organizations/${org.north}/organization`)).json().linkKey;
    expect(
      (await northAdmin.post(`/api/organizations/${org.north}/Zzzzzz9/organization-link`)).statusCode,
    ).toBe(404);
    expect(
      (await northAdmin.post(`/api/organizations/${org.north}/${own}/organization-link`)).statusCode,
    ).toBe(400);
    const malformed = await northAdmin.post(`/api/organizations/${org.north}/abc/organization-link`);
    expect(malformed.statusCode).toBe(400);
    expect(JSON.stringify(malformed.json())).toContain('Key must be 7 characters');
    // South's links are not North's business.
    expect(
      (await northAdmin.post(`/api/organizations/${org.south}/Abc1234/organization-link`)).statusCode,
    ).toBe(404);
    expect((await northAdmin.delete(`/api/organizations/${org.south}/${org.north}`)).statusCode).toBe(404);
    expect(
      (await (await server.as('north.anna')).delete(`/api/organizations/${org.north}/${org.south}`))
        .statusCode,
    ).toBe(403);
  });
});

describe('ship access', () => {
  it('lets the owner share a ship with a linked organization and take it back; the linked organization sees it on its next request', async () => {
    const [second] = await unsharedNorthShips();
    const northAdmin = await server.as('north.admin');
    const southAdmin = await server.as('south.admin');
    const seen = async () => idsOf((await southAdmin.get('/api/facilities')).json());
    expect(await seen()).not.toContain(second!.id);
    expect(
      (await northAdmin.post(`/api/organizations/${org.south}/${second!.id}/organization-facility-link`))
        .statusCode,
    ).toBe(204);
    expect(await seen()).toContain(second!.id);
    const detail = (await northAdmin.get(`/api/organizations/${org.north}/organization`)).json();
    expect(detail.linkedOrganizations[0].facilityIds).toContain(second!.id);
    expect(
      (await northAdmin.delete(`/api/organizations/${org.south}/${second!.id}/organization-facility-link`))
        .statusCode,
    ).toBe(204);
    expect(await seen()).not.toContain(second!.id);
  });

  it("refuses to share with an organization that is not linked, and refuses sharing another owner's ship", async () => {
    const [first] = await northShips();
    const [southShip] = await southShips();
    const northAdmin = await server.as('north.admin');
    expect(
      (await northAdmin.post(`/api/organizations/${org.provider}/${first!.id}/organization-facility-link`))
        .statusCode,
    ).toBe(404);
    // South's ship that North does not see: not revealed.
    expect(
      (await northAdmin.post(`/api/organizations/${org.north}/${southShip!.id}/organization-facility-link`))
        .statusCode,
    ).toBe(404);
  });

  it('lets a secondary organization remove its own access', async () => {
    const first = await sharedShip();
    const southAdmin = await server.as('south.admin');
    expect(idsOf((await southAdmin.get('/api/facilities')).json())).toContain(first!.id);
    expect(
      (await southAdmin.delete(`/api/organizations/${org.south}/${first!.id}/organization-facility-link`))
        .statusCode,
    ).toBe(204);
    expect(idsOf((await southAdmin.get('/api/facilities')).json())).not.toContain(first!.id);
    // South's user who had it assigned loses it too.
    expect(idsOf((await (await server.as('south.maria')).get('/api/facilities')).json())).not.toContain(
      first!.id,
    );
    await (
      await server.as('north.admin')
    ).post(`/api/organizations/${org.south}/${first!.id}/organization-facility-link`);
  });

  it("gives and takes a user's access; revoked access applies to the user's next request with the same token", async () => {
    const [, third] = await unsharedNorthShips();
    const northAdmin = await server.as('north.admin');
    const olav = await server.as('north.olav');
    const olavSees = async () => idsOf((await olav.get('/api/facilities')).json());
    expect(await olavSees()).not.toContain(third!.id);
    expect(
      (
        await northAdmin.post(
          `/api/organizations/facilities/${user['north.olav']}/${third!.id}/user-facility-link`,
        )
      ).statusCode,
    ).toBe(204);
    expect(await olavSees()).toContain(third!.id);
    const users = (await northAdmin.get(`/api/organizations/${org.north}/users`)).json();
    expect(users.find((u: { id: string }) => u.id === user['north.olav']).facilityIds).toContain(third!.id);
    expect(
      (
        await northAdmin.delete(
          `/api/organizations/facilities/${user['north.olav']}/${third!.id}/user-facility-link`,
        )
      ).statusCode,
    ).toBe(204);
    expect(await olavSees()).not.toContain(third!.id);
    expect((await olav.get(`/api/facilities/${third!.id}/facility`)).statusCode).toBe(404);
  });

  it("keeps a UserAdmin away from another organization's users and ships (404), and a User away from access (403)", async () => {
    const [southShip] = await southShips();
    const [northShip] = await northShips();
    const northAdmin = await server.as('north.admin');
    const otherUser = await northAdmin.post(
      `/api/organizations/facilities/${user['south.lee']}/${southShip!.id}/user-facility-link`,
    );
    expect(otherUser.statusCode).toBe(404);
    expect(otherUser.json().message).toBe('User not found');
    const otherShip = await northAdmin.post(
      `/api/organizations/facilities/${user['north.anna']}/${southShip!.id}/user-facility-link`,
    );
    expect(otherShip.statusCode).toBe(404);
    expect(otherShip.json().message).toBe('Ship not found');
    expect(
      (
        await (
          await server.as('north.anna')
        ).post(`/api/organizations/facilities/${user['north.olav']}/${northShip!.id}/user-facility-link`)
      ).statusCode,
    ).toBe(403);
  });
});

describe('transferring a ship', () => {
  it('tells whether a ship is shared, and moves it: the old owner and secondary organizations lose it', async () => {
    const admin = await server.as('admin');
    const shared = await sharedShip();
    expect(
      (await admin.get(`/api/organizations/facilities/${shared!.id}/has-secondary-organizations`)).json(),
    ).toBe(true);
    const [notShared] = await unsharedNorthShips();
    expect(
      (await admin.get(`/api/organizations/facilities/${notShared!.id}/has-secondary-organizations`)).json(),
    ).toBe(false);

    const moved = await admin.post(`/api/organizations/${org.provider}/${shared!.id}/migrate-facility`);
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toEqual({ id: org.provider, name: 'Scrubber Service Provider' });
    for (const name of ['north.admin', 'north.anna', 'south.admin', 'south.maria']) {
      const client = await server.as(name);
      expect(idsOf((await client.get('/api/facilities')).json())).not.toContain(shared!.id);
      expect((await client.get(`/api/facilities/${shared!.id}/facility`)).statusCode).toBe(404);
    }
    expect(
      (await admin.get(`/api/organizations/facilities/${shared!.id}/has-secondary-organizations`)).json(),
    ).toBe(false);
    // Back to North for the tests after this one.
    await admin.post(`/api/organizations/${org.north}/${shared!.id}/migrate-facility`);
  });

  it('refuses the current owner as target, an unknown organization, and anyone but a SystemAdmin', async () => {
    const admin = await server.as('admin');
    const [first] = await northShips();
    expect(
      (await admin.post(`/api/organizations/${org.north}/${first!.id}/migrate-facility`)).statusCode,
    ).toBe(400);
    const unknown = await admin.post(
      `/api/organizations/00000000-0000-4000-8000-000000000000/${first!.id}/migrate-facility`,
    );
    expect(unknown.json().message).toBe('Organization not found');
    expect(
      (
        await (
          await server.as('north.admin')
        ).post(`/api/organizations/${org.south}/${first!.id}/migrate-facility`)
      ).statusCode,
    ).toBe(403);
    const [southShip] = await southShips();
    expect(
      (
        await (
          await server.as('north.admin')
        ).post(`/api/organizations/${org.north}/${southShip!.id}/migrate-facility`)
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await (
          await server.as('north.admin')
        ).get(`/api/organizations/facilities/${southShip!.id}/has-secondary-organizations`)
      ).statusCode,
    ).toBe(404);
  });
});
