import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInFlow, startTestServer, type TestServer } from './harness';

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

describe('adding users', () => {
  it('lets a UserAdmin add a user to the own organization, who can then sign in', async () => {
    const northAdmin = await server.as('north.admin');
    const created = await northAdmin.post(`/api/organizations/${org.north}/users`, {
      username: 'north.kari',
      password: 'Kari12345',
      roles: ['User'],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ username: 'north.kari', roles: ['User'], facilityIds: [] });
    expect((await signInFlow(server.app, 'north.kari', 'Kari12345')).accessToken).toBeTruthy();
    const users = (await northAdmin.get(`/api/organizations/${org.north}/users`)).json();
    expect(users.map((u: { username: string }) => u.username)).toContain('north.kari');
  });

  it('answers the password policy texts and "Username is required"', async () => {
    const northAdmin = await server.as('north.admin');
    const cases: [Record<string, unknown>, string][] = [
      [{ username: '', password: 'Abcd1234', roles: ['User'] }, 'Username is required'],
      [{ username: 'x1', password: 'Ab1', roles: ['User'] }, 'Must be minimum 8 characters'],
      [{ username: 'x2', password: 'abcdefgh', roles: ['User'] }, 'Password must contain at least 1 number'],
      [{ username: 'x3', password: '12345678', roles: ['User'] }, 'Password must contain at least 1 letter'],
      [{ username: 'x4', password: 'abcd 1234', roles: ['User'] }, 'No spaces allowed'],
    ];
    for (const [body, text] of cases) {
      const response = await northAdmin.post(`/api/organizations/${org.north}/users`, body);
      expect(response.statusCode, text).toBe(400);
      expect(Object.values(response.json().fields ?? {})).toContain(text);
    }
  });

  it('refuses a username that exists already, in any case', async () => {
    const response = await (
      await server.as('north.admin')
    ).post(`/api/organizations/${org.north}/users`, {
      username: 'SOUTH.LEE',
      password: 'Abcd1234',
      roles: ['User'],
    });
    expect(response.statusCode).toBe(409);
  });

  it('refuses a username with an invisible character inside, or one that looks like an existing one', async () => {
    const northAdmin = await server.as('north.admin');
    const add = (username: string) =>
      northAdmin.post(`/api/organizations/${org.north}/users`, {
        username,
        password: 'Abcd1234',
        roles: ['User'],
      });
    const hidden = await add('north\u200b.admin');
    expect(hidden.statusCode).toBe(400);
    expect(hidden.json().fields.username).toBe('Cannot contain invisible characters');
    // A Cyrillic о, "rn" for "m", a Ukrainian і in capitals: each reads as north.admin.
    for (const lookAlike of ['nоrth.admin', 'north.adrnin', 'NORTH.ADMІN']) {
      const response = await add(lookAlike);
      expect(response.statusCode, lookAlike).toBe(409);
      expect(response.json().fields.username).toBe('Looks the same as an existing username: choose another');
    }
    // Renaming an existing user to a look-alike is refused too; keeping one's own name is not.
    const renamed = await northAdmin.put(`/api/users/${user['north.olav']}`, {
      username: 'north.anna',
      roles: ['User'],
    });
    expect(renamed.statusCode).toBe(409);
    const kept = await northAdmin.put(`/api/users/${user['north.olav']}`, {
      username: 'north.olav',
      roles: ['User'],
    });
    expect(kept.statusCode).toBe(200);
    const users = (await northAdmin.get(`/api/organizations/${org.north}/users`)).json();
    expect(users.filter((u: { username: string }) => /adm/i.test(u.username))).toHaveLength(1);
  });

  it('keeps a UserAdmin out of other organizations (404) and a User out of user management (403)', async () => {
    const northAdmin = await server.as('north.admin');
    const response = await northAdmin.post(`/api/organizations/${org.south}/users`, {
      username: 'spy',
      password: 'Abcd1234',
      roles: ['User'],
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Organization not found');
    expect(
      (
        await northAdmin.put(`/api/users/${user['south.lee']}`, {
          username: 'south.lee',
          roles: ['UserAdmin'],
        })
      ).statusCode,
    ).toBe(404);
    expect((await northAdmin.delete(`/api/users/${user['south.lee']}`)).statusCode).toBe(404);
    const anna = await server.as('north.anna');
    expect(
      (
        await anna.post(`/api/organizations/${org.north}/users`, {
          username: 'x9',
          password: 'Abcd1234',
          roles: ['User'],
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await anna.put(`/api/users/${user['north.olav']}`, { username: 'north.olav', roles: ['UserAdmin'] }))
        .statusCode,
    ).toBe(403);
  });

  it('does not let a UserAdmin make a SystemAdmin, and allows SystemAdmin only in the provider organization', async () => {
    const northAdmin = await server.as('north.admin');
    expect(
      (
        await northAdmin.post(`/api/organizations/${org.north}/users`, {
          username: 'north.boss',
          password: 'Abcd1234',
          roles: ['SystemAdmin'],
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await northAdmin.put(`/api/users/${user['north.olav']}`, {
          username: 'north.olav',
          roles: ['SystemAdmin'],
        })
      ).statusCode,
    ).toBe(403);
    const admin = await server.as('admin');
    expect(
      (
        await admin.post(`/api/organizations/${org.north}/users`, {
          username: 'north.boss',
          password: 'Abcd1234',
          roles: ['SystemAdmin'],
        })
      ).statusCode,
    ).toBe(400);
    const provider = await admin.post(`/api/organizations/${org.provider}/users`, {
      username: 'provider.ops',
      password: 'Abcd1234',
      roles: ['SystemAdmin'],
    });
    expect(provider.statusCode).toBe(201);
    expect(provider.json().roles).toEqual(['SystemAdmin']);
  });

  it('refuses more or less than one role', async () => {
    const northAdmin = await server.as('north.admin');
    expect(
      (
        await northAdmin.post(`/api/organizations/${org.north}/users`, {
          username: 'two',
          password: 'Abcd1234',
          roles: ['User', 'UserAdmin'],
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await northAdmin.post(`/api/organizations/${org.north}/users`, {
          username: 'none',
          password: 'Abcd1234',
          roles: [],
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('updating and deleting users', () => {
  it("changes username and role; the role applies on the user's next request", async () => {
    const northAdmin = await server.as('north.admin');
    const created = (
      await northAdmin.post(`/api/organizations/${org.north}/users`, {
        username: 'north.temp',
        password: 'Temp12345',
        roles: ['User'],
      })
    ).json();
    const token = (await signInFlow(server.app, 'north.temp', 'Temp12345')).accessToken!;
    const asTemp = (url: string) => server.app.inject({ url, headers: { authorization: `Bearer ${token}` } });
    expect((await asTemp(`/api/organizations/${org.north}/users`)).statusCode).toBe(403);
    const updated = await northAdmin.put(`/api/users/${created.id}`, {
      username: 'north.temp2',
      roles: ['UserAdmin'],
    });
    expect(updated.json()).toMatchObject({ username: 'north.temp2', roles: ['UserAdmin'] });
    expect((await asTemp(`/api/organizations/${org.north}/users`)).statusCode).toBe(200);
  });

  it("sends the password only when given; a new password ends the user's sessions", async () => {
    const northAdmin = await server.as('north.admin');
    const created = (
      await northAdmin.post(`/api/organizations/${org.north}/users`, {
        username: 'north.pw',
        password: 'First1234',
        roles: ['User'],
      })
    ).json();
    await northAdmin.put(`/api/users/${created.id}`, { username: 'north.pw', roles: ['User'] });
    const old = (await signInFlow(server.app, 'north.pw', 'First1234')).accessToken!;
    await northAdmin.put(`/api/users/${created.id}`, {
      username: 'north.pw',
      roles: ['User'],
      password: 'Second1234',
    });
    expect(
      (await server.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${old}` } }))
        .statusCode,
    ).toBe(401);
    expect((await signInFlow(server.app, 'north.pw', 'First1234')).accessToken).toBeUndefined();
    expect((await signInFlow(server.app, 'north.pw', 'Second1234')).accessToken).toBeTruthy();
  });

  it('deletes a user, whose token is refused at once; nobody deletes themselves', async () => {
    const northAdmin = await server.as('north.admin');
    const created = (
      await northAdmin.post(`/api/organizations/${org.north}/users`, {
        username: 'north.gone',
        password: 'Gone12345',
        roles: ['User'],
      })
    ).json();
    const token = (await signInFlow(server.app, 'north.gone', 'Gone12345')).accessToken!;
    expect((await northAdmin.delete(`/api/users/${created.id}`)).statusCode).toBe(204);
    expect(
      (await server.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
    ).toBe(401);
    expect((await northAdmin.delete(`/api/users/${user['north.admin']}`)).statusCode).toBe(400);
    expect((await northAdmin.delete('/api/users/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('answers a malformed id as a missing one, also when the body is not valid', async () => {
    const admin = await server.as('admin');
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const body of [
      { username: 'renamed.user', roles: ['User'] },
      { username: '', roles: [] },
    ]) {
      const answers = await Promise.all(
        [missing, 'not-a-uuid'].map(async (id) => {
          const response = await admin.put(`/api/users/${id}`, body);
          const { requestId: _, ...rest } = response.json();
          return [response.statusCode, rest];
        }),
      );
      expect(answers[1], JSON.stringify(body)).toEqual(answers[0]);
    }
    const removed = await Promise.all(
      [missing, 'not-a-uuid'].map(async (id) => (await admin.delete(`/api/users/${id}`)).json().message),
    );
    expect(removed).toEqual(['User not found', 'User not found']);
  });

  it('keeps a UserAdmin of the provider organization away from its SystemAdmin', async () => {
    const admin = await server.as('admin');
    await admin.post(`/api/organizations/${org.provider}/users`, {
      username: 'provider.useradmin',
      password: 'Prov12345',
      roles: ['UserAdmin'],
    });
    const token = (await signInFlow(server.app, 'provider.useradmin', 'Prov12345')).accessToken!;
    const response = await server.app.inject({
      method: 'DELETE',
      url: `/api/users/${user.admin}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('visits', () => {
  it('records the FacilityDocuments visit for the caller only', async () => {
    const anna = await server.as('north.anna');
    const visit = await anna.put(`/api/users/${user['north.anna']}/visit`, { section: 'FacilityDocuments' });
    expect(visit.statusCode).toBe(200);
    expect(visit.json()).toMatchObject({ section: 'FacilityDocuments', visitedOn: expect.any(String) });
    expect(
      (await anna.put(`/api/users/${user['north.olav']}/visit`, { section: 'FacilityDocuments' })).statusCode,
    ).toBe(403);
    expect(
      (await anna.put(`/api/users/${user['south.lee']}/visit`, { section: 'FacilityDocuments' })).statusCode,
    ).toBe(404);
    expect(
      (await anna.put(`/api/users/${user['north.anna']}/visit`, { section: 'Elsewhere' })).statusCode,
    ).toBe(400);
  });
});
