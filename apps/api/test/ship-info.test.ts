import { builtinModules } from 'node:module';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveUploadCredential } from '../src/features/ship-info/credentials';
import { startTestServer, type TestServer } from './harness';

let server: TestServer;
let org: Record<string, string>;
let northShip: { id: string; name: string };
let southShip: { id: string; name: string };
beforeAll(async () => {
  server = await startTestServer();
  org = server.seed.organizationIds;
  const db = server.services.database.db;
  northShip = await db
    .selectFrom('facilities')
    .select(['id', 'name'])
    .where('primary_organization_id', '=', org.north!)
    .orderBy('name')
    .executeTakeFirstOrThrow();
  southShip = await db
    .selectFrom('facilities')
    .select(['id', 'name'])
    .where('primary_organization_id', '=', org.south!)
    .orderBy('name')
    .executeTakeFirstOrThrow();
});
afterAll(async () => {
  await server?.close();
});

const infoBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'MV Nordic Star',
  imo: '9300001',
  scrubberSystemType: 'Hybrid',
  numberOfScrubbers: 2,
  totalEffectKW: 12000.5,
  systemManufacturer: 'Wartsila',
  startDate: '2024-03-05',
  endDate: null,
  imageBase64: null,
  ...overrides,
});
/** A data URL of `bytes` decoded bytes. */
const imageOf = (bytes: number, type = 'image/png') =>
  `data:${type};base64,${Buffer.alloc(bytes, 7).toString('base64')}`;

describe('ship info', () => {
  it('answers the ship to whoever sees it, and "Ship not found" to others', async () => {
    const response = await (await server.as('north.anna')).get(`/api/facilities/${northShip.id}/facility`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: northShip.id,
      name: northShip.name,
      primaryOrganizationId: org.north,
    });
    const other = await (await server.as('north.admin')).get(`/api/facilities/${southShip.id}/facility`);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe('Ship not found');
  });

  it('saves the fields; dates at the start of the UTC day, an empty manufacturer as null', async () => {
    const admin = await server.as('admin');
    const saved = await admin.put(
      `/api/facilities/${northShip.id}/facility`,
      infoBody({ startDate: '2024-03-05T17:45:00Z', endDate: '2025-01-31' }),
    );
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      name: 'MV Nordic Star',
      imo: '9300001',
      scrubberSystemType: 'Hybrid',
      numberOfScrubbers: 2,
      totalEffectKW: 12000.5,
      systemManufacturer: 'Wartsila',
      startDate: '2024-03-05T00:00:00.000Z',
      endDate: '2025-01-31T00:00:00.000Z',
    });
    const empty = await admin.put(
      `/api/facilities/${northShip.id}/facility`,
      infoBody({ systemManufacturer: '  ', scrubberSystemType: '' }),
    );
    expect(empty.json()).toMatchObject({ systemManufacturer: null, scrubberSystemType: null });
  });

  it('answers "Name is required" and the other field texts', async () => {
    const admin = await server.as('admin');
    const noName = await admin.put(`/api/facilities/${northShip.id}/facility`, infoBody({ name: ' ' }));
    expect(noName.statusCode).toBe(400);
    expect(noName.json().fields.name).toBe('Name is required');
    const badType = await admin.put(
      `/api/facilities/${northShip.id}/facility`,
      infoBody({ scrubberSystemType: 'Closed Loop' }),
    );
    expect(badType.statusCode).toBe(400);
    const fraction = await admin.put(
      `/api/facilities/${northShip.id}/facility`,
      infoBody({ numberOfScrubbers: 1.5 }),
    );
    expect(fraction.json().fields.numberOfScrubbers).toBe('Must be a whole number');
  });

  it('keeps an image under 500000 bytes and refuses a larger one or a non-image', async () => {
    const admin = await server.as('admin');
    const small = imageOf(499_999);
    expect(
      (await admin.put(`/api/facilities/${northShip.id}/facility`, infoBody({ imageBase64: small }))).json()
        .imageBase64,
    ).toBe(small);
    const large = await admin.put(
      `/api/facilities/${northShip.id}/facility`,
      infoBody({ imageBase64: imageOf(500_000) }),
    );
    expect(large.statusCode).toBe(400);
    expect(large.json().message).toBe('Ship image must be less than 500 kB!');
    expect(
      (
        await admin.put(
          `/api/facilities/${northShip.id}/facility`,
          infoBody({ imageBase64: imageOf(100, 'text/html') }),
        )
      ).statusCode,
    ).toBe(400);
    expect((await admin.get(`/api/facilities/${northShip.id}/facility`)).json().imageBase64).toBe(small);
  });

  it("is configuration: a UserAdmin gets 403 on the own ship and 404 on another's", async () => {
    const northAdmin = await server.as('north.admin');
    expect((await northAdmin.put(`/api/facilities/${northShip.id}/facility`, infoBody())).statusCode).toBe(
      403,
    );
    expect((await northAdmin.put(`/api/facilities/${southShip.id}/facility`, infoBody())).statusCode).toBe(
      404,
    );
  });
});

describe('Automate file upload', () => {
  let dataSourceIds: string[] = [];
  beforeAll(async () => {
    const db = server.services.database.db;
    const rows = await db
      .insertInto('facility_data_sources')
      .values([
        {
          facility_id: northShip.id,
          name: 'Scrubber_PLC',
          reader_id: 'delimited',
          reader_configuration: '{}',
          measure_frequency_seconds: 60,
          is_primary: true,
        },
        {
          facility_id: northShip.id,
          name: 'Engine_Log',
          reader_id: 'delimited',
          reader_configuration: '{}',
          measure_frequency_seconds: 60,
        },
      ])
      .returning('id')
      .execute();
    dataSourceIds = rows.map((r) => r.id);
  });

  it('provisions a credential shown once, stored hashed, which the upload route accepts for this ship only', async () => {
    const admin = await server.as('admin');
    const provisioned = await admin.post(`/api/facilities/${northShip.id}/upload-credentials`);
    expect(provisioned.statusCode).toBe(201);
    const { id, token } = provisioned.json();
    expect(token).toMatch(new RegExp(`^psdu_${id}_[A-Za-z0-9_-]{43}$`));
    const stored = await server.services.database.db
      .selectFrom('upload_credentials')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // The secret is what follows the id (it may hold '_' itself, so not the last piece of a split).
    expect(stored.secret_hash).not.toContain(token.slice(`psdu_${id}_`.length));
    expect(await resolveUploadCredential(server.services.database.db, `Bearer ${token}`)).toEqual({
      facilityId: northShip.id,
    });
    const listed = (await admin.get(`/api/facilities/${northShip.id}/upload-credentials`)).json();
    expect(listed[0]).toMatchObject({ id, revokedOn: null, lastUsedOn: expect.any(String) });
    expect(JSON.stringify(listed)).not.toContain(token);
  });

  it('refuses a wrong secret, a malformed header and a revoked credential', async () => {
    const admin = await server.as('admin');
    const { id, token } = (await admin.post(`/api/facilities/${northShip.id}/upload-credentials`)).json();
    const db = server.services.database.db;
    const wrong = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect(await resolveUploadCredential(db, `Bearer ${wrong}`)).toBeNull();
    expect(await resolveUploadCredential(db, token)).toBeNull();
    expect(await resolveUploadCredential(db, undefined)).toBeNull();
    expect((await admin.delete(`/api/facilities/${northShip.id}/upload-credentials/${id}`)).statusCode).toBe(
      204,
    );
    expect(await resolveUploadCredential(db, `Bearer ${token}`)).toBeNull();
    expect((await admin.delete(`/api/facilities/${southShip.id}/upload-credentials/${id}`)).statusCode).toBe(
      404,
    );
  });

  it('builds the package: a zip named after the lowercased ship, with both uploaders, config and README', async () => {
    const admin = await server.as('admin');
    const { token } = (await admin.post(`/api/facilities/${northShip.id}/upload-credentials`)).json();
    const name = (await admin.get(`/api/facilities/${northShip.id}/facility`)).json().name as string;
    const response = await server.app.inject({
      url: `/api/scripts/psdu/facilities/${northShip.id}`,
      headers: { authorization: `Bearer ${await server.tokenFor('admin')}`, 'x-upload-token': token },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain(`filename="${name.toLowerCase()}.zip"`);
    const files = unzipSync(new Uint8Array(response.rawPayload));
    expect(Object.keys(files).sort()).toEqual([
      'README.md',
      'config.json',
      'psdu-uploader.mjs',
      'psdu-uploader.ps1',
    ]);
    const config = JSON.parse(strFromU8(files['config.json']!));
    // Files in the watch folder go to the primary data source; subfolders named like a data source to that one.
    expect(config).toMatchObject({ facilityId: northShip.id, token, dataSourceId: dataSourceIds[0] });
    expect(config.dataSources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: dataSourceIds[0], name: 'Scrubber_PLC' }),
        expect.objectContaining({ id: dataSourceIds[1], name: 'Engine_Log' }),
      ]),
    );
    // One file that needs Node.js and nothing else: it imports and requires Node's own modules only (ws, inside
    // mqtt, tries two optional native add-ons and does without them).
    const bundle = strFromU8(files['psdu-uploader.mjs']!);
    const imported = [
      ...[...bundle.matchAll(/^import .* from ["']([^"']+)["'];?$/gm)].map((m) => m[1]!),
      ...[...bundle.matchAll(/__require\("([^"]+)"\)/g)].map((m) => m[1]!),
    ];
    expect(imported.length).toBeGreaterThan(0);
    const optional = ['bufferutil', 'utf-8-validate'];
    expect(
      imported.filter(
        (name) => !builtinModules.includes(name.replace(/^node:/, '')) && !optional.includes(name),
      ),
    ).toEqual([]);
  });

  it("builds a package without a token when none comes along, and refuses another ship's token", async () => {
    const admin = await server.as('admin');
    const plain = await server.app.inject({
      url: `/api/scripts/psdu/facilities/${northShip.id}`,
      headers: { authorization: `Bearer ${await server.tokenFor('admin')}` },
    });
    expect(plain.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(plain.rawPayload));
    expect(JSON.parse(strFromU8(files['config.json']!)).token).toBe('');
    expect(strFromU8(files['README.md']!)).toContain('Press Provision');
    const { token: southToken } = (
      await admin.post(`/api/facilities/${southShip.id}/upload-credentials`)
    ).json();
    const response = await server.app.inject({
      url: `/api/scripts/psdu/facilities/${northShip.id}`,
      headers: { authorization: `Bearer ${await server.tokenFor('admin')}`, 'x-upload-token': southToken },
    });
    expect(response.statusCode).toBe(400);
  });

  it('answers the package failure text for a ship without data sources', async () => {
    const response = await (await server.as('admin')).get(`/api/scripts/psdu/facilities/${southShip.id}`);
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toContain(
      'An error occurred compiling a PSDU package for this ship. Please try again.',
    );
  });

  it("is SystemAdmin's: a UserAdmin gets 403 on the own ship, 404 on another's", async () => {
    const northAdmin = await server.as('north.admin');
    expect((await northAdmin.post(`/api/facilities/${northShip.id}/upload-credentials`)).statusCode).toBe(
      403,
    );
    expect((await northAdmin.get(`/api/scripts/psdu/facilities/${northShip.id}`)).statusCode).toBe(403);
    expect((await northAdmin.get(`/api/scripts/psdu/facilities/${southShip.id}`)).statusCode).toBe(404);
  });
});
