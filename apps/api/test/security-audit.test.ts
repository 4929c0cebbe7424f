import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInFlow, startTestServer, type TestServer } from './harness';
import { buildWorld, type IsolationWorld } from './isolation/fixtures';

/** The audit log: sign-ins, approvals, transfers, access changes and deletions each leave an entry only a SystemAdmin reads. */

let server: TestServer;
let world: IsolationWorld;
beforeAll(async () => {
  server = await startTestServer();
  world = await buildWorld(server);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function entries(action: string) {
  return server.services.database.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action)
    .execute();
}

describe('audit log', () => {
  it('records each significant action with who did it and on what', async () => {
    const admin = await server.as('admin');
    const northAdmin = await server.as('north.admin');
    const { userIds, organizationIds } = server.seed;
    await signInFlow(server.app, 'north.olav', 'wrong-password1');
    const actions: [string, () => Promise<{ statusCode: number }>, string | undefined][] = [
      // access changes
      [
        'access.user.revoke',
        () =>
          northAdmin.delete(
            `/api/organizations/facilities/${userIds['north.olav']}/${world.north.facility}/user-facility-link`,
          ),
        world.north.facility,
      ],
      [
        'access.user.grant',
        () =>
          northAdmin.post(
            `/api/organizations/facilities/${userIds['north.olav']}/${world.north.facility}/user-facility-link`,
          ),
        world.north.facility,
      ],
      [
        'access.organization.revoke',
        () =>
          admin.delete(
            `/api/organizations/${organizationIds.north}/${world.sharedSouthFacility}/organization-facility-link`,
          ),
        world.sharedSouthFacility,
      ],
      [
        'access.organization.grant',
        () =>
          admin.post(
            `/api/organizations/${organizationIds.north}/${world.sharedSouthFacility}/organization-facility-link`,
          ),
        world.sharedSouthFacility,
      ],
      [
        'user.update',
        () =>
          northAdmin.put(`/api/users/${userIds['north.olav']}`, {
            username: 'north.olav',
            roles: ['UserAdmin'],
          }),
        userIds['north.olav'],
      ],
      // approvals
      [
        'calculation.approve',
        async () => {
          const calculation = await server.services.database.db
            .selectFrom('measurement_field_calculations')
            .select(['id', 'measurement_field_id'])
            .where('id', '=', world.north.measurementCalculation)
            .executeTakeFirstOrThrow();
          const base = `/api/algorithm/facility/${world.north.facility}/measurement-field/${calculation.measurement_field_id}/calculations`;
          const draft = await admin.post(base, {
            transformAlgorithm: 'return 1;',
            inputIds: [],
            comment: 'audit',
            outputType: 'Double',
          });
          expect(draft.statusCode).toBe(201);
          const approved = await admin.put(`${base}/${draft.json().calculation.id}/approve`, {
            validFrom: '2025-01-01T00:00:00.000Z',
          });
          return approved;
        },
        undefined,
      ],
      // transfer
      [
        'facility.transfer',
        () =>
          admin.post(`/api/organizations/${organizationIds.north}/${world.south.facility}/migrate-facility`),
        world.south.facility,
      ],
      // deletions
      [
        'channel.delete',
        () =>
          admin.delete(
            `/api/algorithm/facilitydatasource/${world.north.dataSource}/facilitydatasourcechannels/${world.north.channel}`,
          ),
        world.north.channel,
      ],
      [
        'datafile.delete',
        () =>
          admin.delete(
            `/api/algorithm/facilitydatasource/${world.north.dataSource}/file/${world.north.file}`,
          ),
        undefined,
      ],
      ['message.delete', () => admin.delete(`/api/messages/${world.north.message}`), world.north.message],
      [
        'facility.revoke-upload-credential',
        () =>
          admin.delete(
            `/api/facilities/${world.north.facility}/upload-credentials/${world.north.credential}`,
          ),
        world.north.facility,
      ],
      ['user.delete', () => northAdmin.delete(`/api/users/${userIds['north.olav']}`), userIds['north.olav']],
    ];
    const missing: string[] = [];
    for (const [action, run, subject] of actions) {
      const response = await run();
      expect(response.statusCode, action).toBeLessThan(300);
      const rows = await entries(action);
      if (!rows.length) {
        missing.push(action);
        continue;
      }
      if (subject)
        expect(
          rows.some((r) => r.subject === subject),
          `${action} names ${subject}`,
        ).toBe(true);
    }
    expect(missing).toEqual([]);
    expect((await entries('sign-in')).length).toBeGreaterThan(0);
    expect((await entries('sign-in.failed')).some((r) => r.subject === 'north.olav')).toBe(true);
  });

  it('is readable by a SystemAdmin only', async () => {
    const admin = await server.as('admin');
    const response = await admin.get('/api/settings/audit-log?limit=1000');
    expect(response.statusCode).toBe(200);
    const actions = (response.json() as { action: string }[]).map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining(['sign-in', 'sign-in.failed', 'facility.transfer', 'user.delete']),
    );
    for (const username of ['north.admin', 'north.anna', 'south.admin']) {
      expect((await (await server.as(username)).get('/api/settings/audit-log')).statusCode, username).toBe(
        403,
      );
    }
  });
});
