import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_CODES } from '@portal/contracts/reports';
import { readAccessVersion } from '../src/features/auth/verify';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
const db = () => server.services.database.db;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** A North ship olav is not assigned to (the seed gives him the first two). */
async function unassignedNorthShip(): Promise<string> {
  const row = await sql<{ id: string }>`
    select f.id from facilities f
    where f.primary_organization_id = ${server.seed.organizationIds.north!}
      and f.id not in (select facility_id from user_facility_access where user_id = ${server.seed.userIds['north.olav']!})
    order by f.name limit 1`.execute(db());
  return row.rows[0]!.id;
}

const monthQuery = (facilityId: string) =>
  `from=2026-01-01T00:00:00.000Z&to=2026-01-31T23:59:59.999Z&facilityId=${facilityId}`;

describe('cached callers and fleets follow every change of access at once', () => {
  it('moves the access version with users, organizations, ships and access, not with a ship data range', async () => {
    const ship = await unassignedNorthShip();
    const olav = server.seed.userIds['north.olav']!;
    const steps: [string, () => Promise<unknown>, boolean][] = [
      [
        'assign a ship',
        () => db().insertInto('user_facility_access').values({ user_id: olav, facility_id: ship }).execute(),
        true,
      ],
      [
        'unassign it',
        () =>
          db()
            .deleteFrom('user_facility_access')
            .where('user_id', '=', olav)
            .where('facility_id', '=', ship)
            .execute(),
        true,
      ],
      [
        'rename a ship',
        () =>
          db()
            .updateTable('facilities')
            .set({ name: 'Renamed by the test' })
            .where('id', '=', ship)
            .execute(),
        true,
      ],
      [
        'change a role',
        () => db().updateTable('users').set({ role: 'User' }).where('id', '=', olav).execute(),
        true,
      ],
      [
        'rename an organization',
        () =>
          db()
            .updateTable('organizations')
            .set({ name: 'Nordic Bulk Carriers' })
            .where('id', '=', server.seed.organizationIds.north!)
            .execute(),
        true,
      ],
      [
        'share a ship',
        () =>
          db()
            .insertInto('organization_facility_access')
            .values({ organization_id: server.seed.organizationIds.south!, facility_id: ship })
            .execute(),
        true,
      ],
      [
        'stop sharing it',
        () =>
          db()
            .deleteFrom('organization_facility_access')
            .where('organization_id', '=', server.seed.organizationIds.south!)
            .where('facility_id', '=', ship)
            .execute(),
        true,
      ],
      [
        'update a ship data range',
        () => db().updateTable('facilities').set({ data_coverage: 50 }).where('id', '=', ship).execute(),
        false,
      ],
    ];
    for (const [step, change, moves] of steps) {
      const before = await readAccessVersion(db());
      await change();
      const after = await readAccessVersion(db());
      expect(after !== before, step).toBe(moves);
    }
  });

  it('shows a ship assigned by hand in SQL on the next call, and hides it on the next call after', async () => {
    const ship = await unassignedNorthShip();
    const olav = await server.as('north.olav');
    const shipReport = `/api/reports/${REPORT_CODES.shipMarpolCompliance}/data?${monthQuery(ship)}`;
    // Warm every cache: the caller, the fleet, the answer.
    expect((await olav.get(shipReport)).statusCode).toBe(404);
    const before = (await olav.get('/api/facilities')).json() as { id: string }[];
    expect(before.map((f) => f.id)).not.toContain(ship);

    await db()
      .insertInto('user_facility_access')
      .values({ user_id: server.seed.userIds['north.olav']!, facility_id: ship })
      .execute();
    expect((await olav.get(shipReport)).statusCode).toBe(200);
    expect(((await olav.get('/api/facilities')).json() as { id: string }[]).map((f) => f.id)).toContain(ship);

    await db()
      .deleteFrom('user_facility_access')
      .where('user_id', '=', server.seed.userIds['north.olav']!)
      .where('facility_id', '=', ship)
      .execute();
    expect((await olav.get(shipReport)).statusCode).toBe(404);
  });

  it('refuses a signed-in user on the next call once the account is gone or signed out by hand', async () => {
    const lee = await server.as('south.lee');
    expect((await lee.get('/api/facilities')).statusCode).toBe(200);
    await db()
      .updateTable('users')
      .set({ tokens_valid_after: sql`now() + interval '1 second'` })
      .where('id', '=', server.seed.userIds['south.lee']!)
      .execute();
    const refused = await lee.get('/api/facilities');
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('Your session has ended. Please sign in again.');
  });

  it('takes a role change made by hand on the next call', async () => {
    const olav = await server.as('north.olav');
    const olavId = server.seed.userIds['north.olav']!;
    const asUser = (await olav.get('/api/facilities')).json() as { id: string }[];
    const assigned = await db()
      .selectFrom('user_facility_access')
      .select('facility_id')
      .where('user_id', '=', olavId)
      .execute();
    expect(asUser).toHaveLength(assigned.length);
    await db().updateTable('users').set({ role: 'UserAdmin' }).where('id', '=', olavId).execute();
    try {
      const asUserAdmin = (await olav.get('/api/facilities')).json() as { id: string }[];
      const northShips = await db()
        .selectFrom('facilities')
        .select('id')
        .where('primary_organization_id', '=', server.seed.organizationIds.north!)
        .execute();
      expect(asUserAdmin.length).toBeGreaterThanOrEqual(northShips.length);
      expect(northShips.length).toBeGreaterThan(assigned.length);
    } finally {
      await db().updateTable('users').set({ role: 'User' }).where('id', '=', olavId).execute();
    }
    expect((await olav.get('/api/facilities')).json()).toHaveLength(assigned.length);
  });
});
