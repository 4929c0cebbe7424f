import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type IClientOptions } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import { EdgeNode } from '@portal/edge';
import { readStreamSamples } from '../src/storage';
import { encodePayload } from '../src/features/live/payload';
import { startTestServer, type TestServer } from './harness';
import { TestEdgeNode, startTestLive, streamDataSource, uniqueGroup } from './live-fixtures';
import { mosquittoMissing, startTestMosquitto, type TestMosquitto } from './mosquitto-server';
import { waitFor } from './wait';

/**
 * Live data on a real Mosquitto (docs/decisions/0131-mosquitto-credentials-and-tls.md): a broker of this test's own,
 * started from the shipped deploy/mosquitto/mosquitto.conf (TLS only, the dynamic security plugin), the portal's host
 * on it over mqtts:// with MQTT_CA_FILE and MQTT_DYNSEC=on, and the ships' credentials provisioned and revoked through
 * the portal's own routes. Each case asserts on what was stored, after a barrier (a later message of the ship's own
 * that was stored), never after a sleep.
 */
const missing = mosquittoMissing();
if (missing) console.warn(`live-mosquitto.test.ts is skipped: ${missing}`);

const MINUTE = 60_000;

describe.skipIf(missing !== null)('live data on a real Mosquitto (TLS, ship credentials, topic ACLs)', () => {
  let broker: TestMosquitto;
  let server: TestServer;
  let started: Awaited<ReturnType<typeof startTestLive>>;
  const groupId = uniqueGroup();
  let shipA: string;
  let shipB: string;
  let shipC: string;
  let sourceA: string;
  let sourceB: string;
  let sourceC: string;
  let credentialA: { id: string; token: string };
  let edgeA: EdgeNode;
  const stateDirs: string[] = [];
  /** Two hours ago on the minute: the samples lie between then and now. */
  const t0 = Math.floor((Date.now() - 2 * 3600_000) / MINUTE) * MINUTE;
  const db = () => server.services.database.db;
  const tls = (): Partial<IClientOptions> => ({ ca: broker.ca });

  const provision = async (ship: string) => {
    const admin = await server.as('admin');
    const answer = await admin.post(`/api/facilities/${ship}/upload-credentials`);
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as { id: string; token: string };
  };
  const samplesOf = async (ship: string, dataSourceId?: string) =>
    readStreamSamples(db(), ship, {
      from: new Date(0),
      to: new Date(),
      ...(dataSourceId ? { dataSourceId } : {}),
    });
  const stored = (ship: string, time: number) =>
    waitFor(async () => (await samplesOf(ship)).some((s) => s.time === time), {
      what: `the sample of ${new Date(time).toISOString()} of ship ${ship} stored`,
    });

  /** The ship's edge node (packages/edge) signed in with a credential: user name the credential id, the broker's CA. */
  const edgeNode = (
    ship: string,
    dataSourceId: string,
    credential: { id: string; token: string },
    logs: string[] = [],
  ) => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'psdu-edge-'));
    stateDirs.push(stateDir);
    const node = new EdgeNode({
      mqttUrl: broker.url,
      groupId,
      facilityId: ship,
      username: credential.id,
      token: credential.token,
      stateDir,
      dataSources: [{ id: dataSourceId, channels: [{ name: 'SO2_ppm' }] }],
      mqtt: tls(),
      reconnectMinMs: 100,
      reconnectMaxMs: 400,
      log: (level, message) => logs.push(`${level}: ${message}`),
    });
    node.start();
    return node;
  };
  const sample = (dataSourceId: string, minute: number) => ({
    dataSourceId,
    channel: 'SO2_ppm',
    time: t0 + minute * MINUTE,
    value: minute,
  });

  /** How a connection attempt ends: 'connected', or the error or close that ended it. */
  const attempt = async (url: string, options: IClientOptions) => {
    const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 10_000, ...options });
    try {
      return await new Promise<string>((resolve) => {
        client.once('connect', () => resolve('connected'));
        client.once('error', (error) => resolve(`error: ${error.message}`));
        client.once('close', () => resolve('closed'));
      });
    } finally {
      client.end(true);
    }
  };

  beforeAll(async () => {
    broker = await startTestMosquitto();
    server = await startTestServer({
      jobs: 'send',
      env: {
        MQTT_URL: broker.portalUrl,
        MQTT_DYNSEC: 'on',
        MQTT_CA_FILE: broker.caFile,
        MQTT_GROUP_ID: groupId,
      },
    });
    [shipA, shipB, shipC] = Object.values(server.seed.facilityIds) as [string, string, string];
    sourceA = await streamDataSource(server, shipA);
    sourceB = await streamDataSource(server, shipB);
    sourceC = await streamDataSource(server, shipC);
    started = await startTestLive(server, 'mosquitto', groupId, {
      mqttUrl: broker.portalUrl,
      dynsec: true,
      ca: broker.ca,
    });
    credentialA = await provision(shipA);
    edgeA = edgeNode(shipA, sourceA, credentialA);
  });

  let clientsClosed = false;
  const closeClients = async () => {
    if (clientsClosed) return;
    clientsClosed = true;
    await edgeA?.stop();
    await started?.live.close();
  };

  afterAll(async () => {
    await closeClients();
    await server?.close();
    await broker?.stop();
    for (const dir of stateDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("stores what a ship's edge node publishes over TLS with its upload credential", async () => {
    edgeA.publish([sample(sourceA, 1), sample(sourceA, 2)]);
    await edgeA.drained();
    await stored(shipA, t0 + 2 * MINUTE);
    expect((await samplesOf(shipA, sourceA)).map((s) => s.value)).toEqual([1, 2]);
  });

  it("stores nothing for ship B from ship A's credential on B's topics; A may not read B's commands", async () => {
    const intruder = await TestEdgeNode.connect(broker.url, groupId, shipA, credentialA.token, {
      username: credentialA.id,
      mqtt: tls(),
    });
    try {
      // A whole forged session of ship B: births and data, as B's own edge node would send them.
      const forged = (type: string, deviceId?: string) =>
        `spBv1.0/${groupId}/${type}/${shipB}${deviceId ? `/${deviceId}` : ''}`;
      const publish = (topic: string, payload: Uint8Array) =>
        intruder.client.publishAsync(topic, Buffer.from(payload), { qos: 1 });
      await publish(
        forged('NBIRTH'),
        encodePayload({
          timestamp: Date.now(),
          seq: 0,
          metrics: [
            { name: 'bdSeq', type: 'UInt64', value: 1 },
            { name: 'Node Control/Rebirth', type: 'Boolean', value: false },
          ],
        }),
      );
      await publish(
        forged('DBIRTH', sourceB),
        encodePayload({
          timestamp: Date.now(),
          seq: 1,
          metrics: [{ name: 'SO2_ppm', alias: 1, type: 'Double', value: 0 }],
        }),
      );
      await publish(
        forged('DDATA', sourceB),
        encodePayload({
          timestamp: Date.now(),
          seq: 2,
          metrics: [{ alias: 1, type: 'Double', value: 666, timestamp: t0 + 10 * MINUTE }],
        }),
      );
      // The barrier: a later message of A's own on the same connection, stored.
      await intruder.nbirth();
      await intruder.dbirth(sourceA, [{ name: 'SO2_ppm', alias: 1 }]);
      await intruder.ddata(sourceA, [{ alias: 1, time: t0 + 11 * MINUTE, value: 11 }]);
      await stored(shipA, t0 + 11 * MINUTE);
      expect(await samplesOf(shipB)).toEqual([]);
      const links = await db().selectFrom('stream_links').select('facility_id').execute();
      expect(links.map((l) => l.facility_id)).not.toContain(shipB);
      // The subscription is refused (SUBACK 0x80).
      await expect(
        intruder.client.subscribeAsync(`spBv1.0/${groupId}/NCMD/${shipB}`, { qos: 1 }),
      ).rejects.toThrow(/Subscribe error/);
    } finally {
      await intruder.close();
    }
  });

  it('disconnects a credential when it is revoked, refuses it since, and stores nothing it sends', async () => {
    const credential = await provision(shipC);
    const logs: string[] = [];
    const node = edgeNode(shipC, sourceC, credential, logs);
    try {
      node.publish([sample(sourceC, 20)]);
      await node.drained();
      await stored(shipC, t0 + 20 * MINUTE);

      const admin = await server.as('admin');
      const revoked = await admin.delete(`/api/facilities/${shipC}/upload-credentials/${credential.id}`);
      expect(revoked.statusCode).toBe(204);
      // Mosquitto disconnects it; its next connections are refused, and what it publishes stays on its disk.
      await node.until(() => node.status !== 'online');
      node.publish([sample(sourceC, 21)]);
      await waitFor(() => logs.some((l) => /refused the upload token/.test(l)), {
        what: 'the edge node told that the broker refused its token',
      });
      expect(node.stats.pending).toBe(1);
      expect(
        await attempt(broker.url, { ...tls(), username: credential.id, password: credential.token }),
      ).toMatch(/not authori[sz]ed|bad user ?name or password/i);

      // The barrier: ship A's later sample, stored; nothing of C's after the revocation.
      edgeA.publish([sample(sourceA, 22)]);
      await edgeA.drained();
      await stored(shipA, t0 + 22 * MINUTE);
      expect((await samplesOf(shipC)).map((s) => s.time)).toEqual([t0 + 20 * MINUTE]);
    } finally {
      await node.stop();
    }
  });

  it('takes TLS with the CA only: a plain connection to the TLS port fails, so does TLS without the CA', async () => {
    const credentials = { username: credentialA.id, password: credentialA.token };
    expect(await attempt(broker.url, { ...tls(), ...credentials, clientId: 'psdu-tls-check' })).toBe(
      'connected',
    );
    expect(
      await attempt(`mqtt://127.0.0.1:${broker.port}`, { ...credentials, clientId: 'psdu-plain-check' }),
    ).not.toBe('connected');
    expect(await attempt(broker.url, { ...credentials, clientId: 'psdu-no-ca-check' })).toMatch(
      /certificate/i,
    );
  });

  it("carries the broker's CA in the ship's uploader package", async () => {
    const answer = await server.app.inject({
      method: 'GET',
      url: `/api/scripts/psdu/facilities/${shipA}?mode=edge-node`,
      headers: { authorization: `Bearer ${await server.tokenFor('admin')}` },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const files = unzipSync(new Uint8Array(answer.rawPayload));
    const config = JSON.parse(strFromU8(files['config.json']!)) as Record<string, unknown>;
    expect(config).toMatchObject({ mode: 'edge-node', mqttUrl: broker.url, mqttCaFile: 'broker-ca.pem' });
    expect(Buffer.from(files['broker-ca.pem']!).equals(broker.ca)).toBe(true);
  });

  it('makes no credential when the broker cannot take it (503), and the ship keeps the ones it had', async () => {
    const before = await db()
      .selectFrom('upload_credentials')
      .select('id')
      .where('facility_id', '=', shipB)
      .execute();
    // The last case: its clients go first, then the broker.
    await closeClients();
    await broker.stop();
    const admin = await server.as('admin');
    const answer = await admin.post(`/api/facilities/${shipB}/upload-credentials`);
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toMatchObject({ message: expect.stringMatching(/MQTT broker did not take/) });
    const after = await db()
      .selectFrom('upload_credentials')
      .select('id')
      .where('facility_id', '=', shipB)
      .execute();
    expect(after).toEqual(before);
  });
});
