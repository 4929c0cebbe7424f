import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ID_MESSAGES } from '@portal/contracts/local-id';
import { startTestServer, type TestServer } from './harness';
import { createCsvDataSource } from './upload-helpers';

/**
 * A channel's ISO 19848-style local id (issue 33, docs/decisions/0120-live-sparkplug-host.md "Channel identity"):
 * set and changed with the channel calls (`localId`), refused with local-id.ts's reason, kept when a call leaves it
 * out, and exported in the uploader package's configuration (the edge node's DBIRTH carries it).
 */
const TEMPERATURE = '/dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-temperature';
const PRESSURE = '/dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-pressure';

let server: TestServer;
let ship: string;
let url: string;

beforeAll(async () => {
  server = await startTestServer();
  ship = server.seed.facilityIds.straits_pioneer!;
  const source = await createCsvDataSource(server, ship, { name: 'Gateway', isPrimary: false });
  url = `/api/algorithm/facilitydatasource/${source}/facilitydatasourcechannels`;
});
afterAll(async () => {
  await server?.close();
});

describe('channel local id', () => {
  let channelId: string;

  it('is accepted on create (trimmed), answered and listed; none is null', async () => {
    const admin = await server.as('admin');
    const created = await admin.post(url, {
      source: 'T_EXH',
      name: 'EXHAUST_TEMP',
      dataType: 'Double',
      unit: 'degC',
      localId: `  ${TEMPERATURE} `,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ name: 'EXHAUST_TEMP', localId: TEMPERATURE });
    channelId = created.json().id;
    const plain = await admin.post(url, { source: 'P_EXH', name: 'EXHAUST_PRESSURE', dataType: 'Double' });
    expect(plain.json().localId).toBeNull();
    const listed = (await admin.get(url)).json() as { name: string; localId: string | null }[];
    expect(Object.fromEntries(listed.map((c) => [c.name, c.localId]))).toEqual({
      EXHAUST_TEMP: TEMPERATURE,
      EXHAUST_PRESSURE: null,
    });
  });

  it('refuses a malformed one with a 400 naming the field, and stores nothing', async () => {
    const admin = await server.as('admin');
    for (const [localId, message] of [
      ['411.1/C101.31/meta/qty-temperature', LOCAL_ID_MESSAGES.shape],
      ['/dnv-v2/vis-3-4a/411.1/C101.31', LOCAL_ID_MESSAGES.shape],
      ['/dnv-v2/vis 3/411.1/meta/qty-temperature', LOCAL_ID_MESSAGES.characters],
      ['/dnv-v2/<script>/meta/qty-x', LOCAL_ID_MESSAGES.characters],
      [`/dnv-v2/${'a'.repeat(300)}/meta/qty-x`, LOCAL_ID_MESSAGES.tooLong],
    ] as const) {
      const refused = await admin.post(url, { source: 'X', name: 'REFUSED', dataType: 'Double', localId });
      expect(refused.statusCode, localId).toBe(400);
      expect(refused.json().fields, localId).toEqual({ localId: message });
    }
    const changed = await admin.put(`${url}/${channelId}`, {
      source: 'T_EXH',
      name: 'EXHAUST_TEMP',
      dataType: 'Double',
      localId: 'temperature',
    });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().fields).toEqual({ localId: LOCAL_ID_MESSAGES.shape });
    const listed = (await admin.get(url)).json() as { name: string; localId: string | null }[];
    expect(listed.map((c) => c.name)).not.toContain('REFUSED');
    expect(listed.find((c) => c.name === 'EXHAUST_TEMP')?.localId).toBe(TEMPERATURE);
  });

  it('is kept when an update leaves it out, changed when given, cleared by an empty text', async () => {
    const admin = await server.as('admin');
    const body = { source: 'T_EXH', name: 'EXHAUST_TEMP', dataType: 'Double', unit: 'degC' };
    const kept = await admin.put(`${url}/${channelId}`, { ...body, description: 'after the turbocharger' });
    expect(kept.json()).toMatchObject({ description: 'after the turbocharger', localId: TEMPERATURE });
    expect((await admin.put(`${url}/${channelId}`, { ...body, localId: PRESSURE })).json().localId).toBe(
      PRESSURE,
    );
    expect((await admin.put(`${url}/${channelId}`, { ...body, localId: '' })).json().localId).toBeNull();
    expect((await admin.put(`${url}/${channelId}`, { ...body, localId: TEMPERATURE })).json().localId).toBe(
      TEMPERATURE,
    );
  });

  it("is kept, set or refused by the list's replacement (PUT of the whole list)", async () => {
    const admin = await server.as('admin');
    type Listed = { id: string; source: string; name: string; dataType: string; unit: string | null };
    const listed = (await admin.get(url)).json() as Listed[];
    const item = (name: string) => {
      const { id, source, dataType, unit } = listed.find((c) => c.name === name)!;
      return { id, source, name, dataType, unit };
    };
    const localIds = (answer: { json(): { name: string; localId: string | null }[] }) =>
      Object.fromEntries(answer.json().map((c) => [c.name, c.localId]));
    // Left out: both keep theirs.
    const same = await admin.put(url, [item('EXHAUST_TEMP'), item('EXHAUST_PRESSURE')]);
    expect(same.statusCode, same.body).toBe(200);
    expect(localIds(same)).toEqual({ EXHAUST_TEMP: TEMPERATURE, EXHAUST_PRESSURE: null });
    const refused = await admin.put(url, [
      item('EXHAUST_TEMP'),
      { ...item('EXHAUST_PRESSURE'), localId: '/dnv-v2/only' },
    ]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ '1.localId': LOCAL_ID_MESSAGES.shape });
    const set = await admin.put(url, [
      item('EXHAUST_TEMP'),
      { ...item('EXHAUST_PRESSURE'), localId: PRESSURE },
    ]);
    expect(localIds(set)).toEqual({ EXHAUST_TEMP: TEMPERATURE, EXHAUST_PRESSURE: PRESSURE });
  });

  it('comes back with a mapping a list removed and a later list brings back with its id (an Undo)', async () => {
    const admin = await server.as('admin');
    type Listed = { id: string; source: string; name: string; dataType: string; unit: string | null };
    const listed = (await admin.get(url)).json() as Listed[];
    const item = (name: string) => {
      const { id, source, dataType, unit } = listed.find((c) => c.name === name)!;
      return { id, source, name, dataType, unit };
    };
    const removed = await admin.put(url, [item('EXHAUST_TEMP')]);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().map((c: { name: string }) => c.name)).toEqual(['EXHAUST_TEMP']);
    // Brought back with its id, its local id left out (as a list made before it had one would send it).
    const back = await admin.put(url, [item('EXHAUST_TEMP'), item('EXHAUST_PRESSURE')]);
    expect(back.statusCode, back.body).toBe(200);
    expect(
      Object.fromEntries(
        back
          .json()
          .map((c: { id: string; name: string; localId: string | null }) => [c.name, [c.id, c.localId]]),
      ),
    ).toEqual({
      EXHAUST_TEMP: [item('EXHAUST_TEMP').id, TEMPERATURE],
      EXHAUST_PRESSURE: [item('EXHAUST_PRESSURE').id, PRESSURE],
    });
  });

  it("is exported in the uploader package's channels, for the edge node's DBIRTH", async () => {
    const token = await server.tokenFor('admin');
    const response = await server.app.inject({
      method: 'GET',
      url: `/api/scripts/psdu/facilities/${ship}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    const config = JSON.parse(strFromU8(unzipSync(new Uint8Array(response.rawPayload))['config.json']!)) as {
      dataSources: { name: string; channels?: { name: string; unit: string | null; localId?: string }[] }[];
    };
    const gateway = config.dataSources.find((d) => d.name === 'Gateway');
    expect(gateway?.channels).toEqual([
      { name: 'P_EXH', unit: null, localId: PRESSURE },
      { name: 'T_EXH', unit: 'degC', localId: TEMPERATURE },
    ]);
  });
});
