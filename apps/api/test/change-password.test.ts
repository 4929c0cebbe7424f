import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInFlow, startTestServer, type TestServer } from './harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('PATCH /api/users/{id}/change-password', () => {
  it('changes the own password: the new one signs in, the old one no longer does', async () => {
    const lee = await server.as('south.lee');
    const id = server.seed.userIds['south.lee']!;
    const response = await lee.patch(`/api/users/${id}/change-password`, {
      currentPassword: 'Lee123456',
      newPassword: 'NewPass123',
    });
    expect(response.statusCode).toBe(204);
    expect((await signInFlow(server.app, 'south.lee', 'NewPass123')).accessToken).toBeTruthy();
    expect((await signInFlow(server.app, 'south.lee', 'Lee123456')).accessToken).toBeUndefined();
    const audit = await server.services.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_id', '=', id)
      .where('action', '=', 'password.change')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('refuses a wrong current password with a field message', async () => {
    const anna = await server.as('north.anna');
    const response = await anna.patch(`/api/users/${server.seed.userIds['north.anna']}/change-password`, {
      currentPassword: 'wrong-one1',
      newPassword: 'Another123',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ currentPassword: 'The current password is not correct' });
  });

  it('applies the password policy of the forms', async () => {
    const anna = await server.as('north.anna');
    const url = `/api/users/${server.seed.userIds['north.anna']}/change-password`;
    const cases: [string, string][] = [
      ['short1', 'Must be minimum 8 characters'],
      ['longenough', 'Password must contain at least 1 number'],
      ['12345678', 'Password must contain at least 1 letter'],
      ['with space 1', 'No spaces allowed'],
    ];
    for (const [newPassword, message] of cases) {
      const response = await anna.patch(url, { currentPassword: 'Anna12345', newPassword });
      expect(response.statusCode, newPassword).toBe(400);
      expect(response.json().fields.newPassword).toBe(message);
    }
    expect((await anna.patch(url, { newPassword: 'Valid1234' })).statusCode).toBe(400);
  });

  it("refuses anyone else's password, in the same organization or another, even for an admin", async () => {
    const body = { currentPassword: 'Olav12345', newPassword: 'Taken1234' };
    expect(
      (
        await (
          await server.as('north.anna')
        ).patch(`/api/users/${server.seed.userIds['north.olav']}/change-password`, body)
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await (
          await server.as('north.admin')
        ).patch(`/api/users/${server.seed.userIds['north.olav']}/change-password`, body)
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await (
          await server.as('admin')
        ).patch(`/api/users/${server.seed.userIds['north.olav']}/change-password`, body)
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await (
          await server.as('south.maria')
        ).patch(`/api/users/${server.seed.userIds['north.olav']}/change-password`, body)
      ).statusCode,
    ).toBe(403);
    expect((await signInFlow(server.app, 'north.olav', 'Olav12345')).accessToken).toBeTruthy();
  });

  it('limits guessing of the current password', async () => {
    const maria = await server.as('south.maria');
    const url = `/api/users/${server.seed.userIds['south.maria']}/change-password`;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await maria.patch(url, { currentPassword: `guess${i}xx`, newPassword: 'Another123' })).statusCode,
      );
    // Ten a minute per session (one was spent by the previous test).
    const limited = statuses.indexOf(429);
    expect(limited).toBeGreaterThanOrEqual(8);
    expect(statuses.slice(0, limited).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(limited).every((s) => s === 429)).toBe(true);
  });
});
