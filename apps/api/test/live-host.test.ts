import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRawSamples, readStreamSamples } from '../src/storage';
import { streamHealth } from '../src/features/live';
import { decodePayload } from '../src/features/live/payload';
import { STREAM_FUTURE_TOLERANCE_MS } from '../src/features/live/rules';
import { startTestServer, type TestServer } from './harness';
import { TestEdgeNode, hostHandled, startTestLive, streamDataSource, uploadToken } from './live-fixtures';
import { waitFor } from './wait';

/**
 * The portal as a Sparkplug B host (issue 33, docs/decisions/0120-live-sparkplug-host.md), against the machine's
 * Mosquitto (a group of this test's own) and against the embedded broker: an edge node publishes with a raw mqtt
 * client and sparkplug-payload, as the contract says, and the samples are read back through storage, as the engine
 * reads them.
 */
const MINUTE = 60_000;
const LOCAL_ID = '/dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-temperature';

describe.each(['mosquitto', 'embedded'] as const)('the Sparkplug host on %s', (broker) => {
  let server: TestServer;
  let started: Awaited<ReturnType<typeof startTestLive>>;
  let ship: string;
  let source: string;
  let token: string;
  let edge: TestEdgeNode;
  /** Two hours ago on the minute: the stream's samples lie between then and now. */
  const t0 = Math.floor((Date.now() - 2 * 3600_000) / MINUTE) * MINUTE;
  const db = () => server.services.database.db;
  const url = () => started.live.brokerUrl;
  const rawSeries = async (from: number, to: number) =>
    (await readRawSamples(db(), ship, { from: new Date(from), to: new Date(to), dataSourceId: source }))[0];

  beforeAll(async () => {
    server = await startTestServer({ jobs: 'send' });
    ship = Object.values(server.seed.facilityIds)[0]!;
    source = await streamDataSource(server, ship);
    // A mapped channel with a local id: the DBIRTH's metric of another name finds it by its localId.
    await db()
      .insertInto('data_source_channels')
      .values({
        facility_id: ship,
        data_source_id: source,
        source: 'EGT_1',
        name: 'EXHAUST_TEMPERATURE',
        data_type: 'Double',
        unit: '°C',
        description: null,
        local_id: LOCAL_ID,
      })
      .execute();
    token = (await uploadToken(server, ship)).token;
    started = await startTestLive(server, broker);
    edge = await TestEdgeNode.connect(url(), started.groupId, ship, token);
    await edge.nbirth();
    await edge.dbirth(source, [
      { name: 'SO2_ppm', alias: 1 },
      { name: 'exhaust gas temp 1', alias: 2, localId: LOCAL_ID },
      { name: 'NEW_GATEWAY_TAG', alias: 3 },
    ]);
    await hostHandled(started.live, 2);
  });

  /** The edge node's births again (after another connection of the same ship reset them). */
  async function birthsAgain() {
    const before = started.live.host.counts.messages;
    await edge.nbirth();
    await edge.dbirth(source, [{ name: 'SO2_ppm', alias: 1 }]);
    await hostHandled(started.live, before + 2);
  }

  afterAll(async () => {
    await edge?.close();
    await started?.live.close();
    await server?.close();
  });

  it('stores birth + data as samples the engine reads, by local id first, then by name, new names as new channels', async () => {
    const before = started.live.host.counts.messages;
    await edge.ddata(source, [
      { alias: 1, time: t0, value: 12.5 },
      { alias: 2, time: t0, value: 341 },
      { alias: 3, time: t0, value: 7 },
      { alias: 1, time: t0 + MINUTE, value: 13 },
    ]);
    await hostHandled(started.live, before + 1);
    const series = await rawSeries(t0, t0 + MINUTE);
    expect(series && [...series.timestamps]).toEqual([t0, t0 + MINUTE]);
    expect([...series!.columns.SO2_ppm!]).toEqual([12.5, 13]);
    expect(series!.columns.EGT_1![0]).toBe(341);
    expect(series!.columns['exhaust gas temp 1']).toBeUndefined();
    expect(series!.columns.NEW_GATEWAY_TAG![0]).toBe(7);
    // The ship's link is online, its data range covers the samples, and their execution is queued.
    const health = await streamHealth(db(), ship, { from: new Date(t0), to: new Date() });
    expect(health.link?.online).toBe(true);
    // The window execution of the ship's stored minutes is asked for (features/executions/live.ts): its job sent.
    const job = await waitFor(
      async () =>
        (
          await sql<{ name: string }>`
            select name from pgboss.job where name = 'window-execution' and data->>'facilityId' = ${ship}`.execute(
            db(),
          )
        ).rows[0],
      { what: 'the window execution of the streamed samples' },
    );
    expect(job.name).toBe('window-execution');
    const range = await db()
      .selectFrom('facilities')
      .select(['data_timestamp_max'])
      .where('id', '=', ship)
      .executeTakeFirstOrThrow();
    expect(new Date(range.data_timestamp_max!).getTime()).toBeGreaterThanOrEqual(t0 + MINUTE);
  });

  it('the same data published twice changes nothing', async () => {
    const samples = [
      { alias: 1, time: t0 + 2 * MINUTE, value: 14 },
      { alias: 2, time: t0 + 2 * MINUTE, value: 342 },
    ];
    const before = started.live.host.counts.messages;
    await edge.ddata(source, samples);
    await hostHandled(started.live, before + 1);
    const once = await readStreamSamples(db(), ship, { from: new Date(t0), to: new Date() });
    const handed = started.handed.length;
    await edge.ddata(source, samples);
    await edge.ddata(
      source,
      samples.map((s) => ({ ...s, value: s.value + 1000 })),
    );
    await hostHandled(started.live, before + 3);
    expect(await readStreamSamples(db(), ship, { from: new Date(t0), to: new Date() })).toEqual(once);
    // Nothing new was stored, so nothing was handed on to be executed.
    expect(started.handed.length).toBe(handed);
  });

  it('a burst of 200 messages is stored whole in a few group commits; a lone message after it is stored at once', async () => {
    // An hour before the other tests' times: none of them reads it.
    const start = t0 - 60 * MINUTE;
    const before = { ...started.live.host.counts };
    // 200 DDATA of one second each, published without waiting for one another (the replay after a cut link, flagged
    // historical so that the later tests' live times stay the latest): the host handles them in order and writes
    // their samples in groups.
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        edge.ddata(source, [{ alias: 1, time: start + i * 1000, value: i, historical: true }]),
      ),
    );
    await hostHandled(started.live, before.messages + 200);
    const counts = started.live.host.counts;
    expect(counts.stored - before.stored).toBe(200);
    expect(counts.groups - before.groups).toBeLessThan(100);
    const burst = await readStreamSamples(db(), ship, {
      from: new Date(start),
      to: new Date(start + 199_000),
    });
    expect(burst.map((s) => s.value)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    // A lone message: written although nothing follows it (no waiting for a group to fill).
    const lone = new Date(start + 300_000);
    await edge.ddata(source, [{ alias: 1, time: lone.getTime(), value: 7, historical: true }]);
    await waitFor(async () => (await readStreamSamples(db(), ship, { from: lone, to: lone })).length === 1, {
      what: 'the lone message stored',
    });
  });

  it('a 20-minute gap replayed later with is_historical and its original times is stored in place, twice changes nothing', async () => {
    const start = t0 + 10 * MINUTE;
    const live = (from: number, to: number) =>
      Array.from({ length: (to - from) / MINUTE + 1 }, (_, i) => ({
        alias: 1,
        time: from + i * MINUTE,
        value: i,
      }));
    const before = started.live.host.counts.messages;
    await edge.ddata(source, live(start, start + 4 * MINUTE));
    // The link is cut for 20 minutes; the ship comes back with live data after the gap...
    await edge.ddata(source, live(start + 25 * MINUTE, start + 27 * MINUTE));
    await hostHandled(started.live, before + 2);
    const gap = await rawSeries(start + 5 * MINUTE, start + 24 * MINUTE);
    expect(gap?.timestamps.length ?? 0).toBe(0);
    // ...then replays what it kept, flagged historical, with the times the samples were taken.
    const buffered = live(start + 5 * MINUTE, start + 24 * MINUTE).map((s) => ({
      ...s,
      value: 100 + s.value,
      historical: true,
    }));
    await edge.ddata(source, buffered.slice(0, 10));
    await edge.ddata(source, buffered.slice(10));
    await hostHandled(started.live, before + 4);
    const filled = await rawSeries(start, start + 27 * MINUTE);
    expect([...filled!.timestamps]).toEqual(live(start, start + 27 * MINUTE).map((s) => s.time));
    const stored = await readStreamSamples(db(), ship, {
      from: new Date(start + 5 * MINUTE),
      to: new Date(start + 24 * MINUTE),
    });
    expect(stored.length).toBe(20);
    expect(stored.every((s) => s.isHistorical)).toBe(true);
    // Replayed a second time: nothing changes, and late data is no clock going backwards.
    const whole = () =>
      readStreamSamples(db(), ship, { from: new Date(start), to: new Date(start + 27 * MINUTE) });
    const once = await whole();
    await edge.ddata(
      source,
      buffered.map((s) => ({ ...s, value: s.value + 1000 })),
    );
    await hostHandled(started.live, before + 5);
    expect(await whole()).toEqual(once);
    const again = await rawSeries(start, start + 27 * MINUTE);
    expect([...again!.columns.SO2_ppm!]).toEqual([...filled!.columns.SO2_ppm!]);
    const health = await streamHealth(db(), ship, { from: new Date(t0), to: new Date() });
    expect(health.findings.filter((f) => f.kind === 'clockBackwards')).toEqual([]);
  });

  it('a sample from the future is refused and shown as a data health finding; the others of its message are stored', async () => {
    const future = Date.now() + STREAM_FUTURE_TOLERANCE_MS + 3600_000;
    const before = started.live.host.counts.messages;
    await edge.ddata(source, [
      { alias: 1, time: future, value: 99 },
      { alias: 1, time: t0 + 40 * MINUTE, value: 40 },
    ]);
    await hostHandled(started.live, before + 1);
    expect((await rawSeries(future - 1, future + 1))?.timestamps.length ?? 0).toBe(0);
    expect((await rawSeries(t0 + 40 * MINUTE, t0 + 40 * MINUTE))?.columns.SO2_ppm?.[0]).toBe(40);
    const answer = await (
      await server.as('north.admin')
    ).get(
      `/api/facilities/${ship}/data-health?from=${new Date(t0).toISOString()}&to=${new Date().toISOString()}`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const health = answer.json();
    const finding = health.stream.findings.find((f: { kind: string }) => f.kind === 'future');
    expect(finding).toMatchObject({ kind: 'future', sourceTime: new Date(future).toISOString() });
    expect(finding.detail).toMatchObject({ channel: 'SO2_ppm', value: 99 });
    expect(health.stream.link.online).toBe(true);
  });

  it('a live sample well before the latest live one is stored and flagged as the clock going backwards', async () => {
    const before = started.live.host.counts.messages;
    await edge.ddata(source, [{ alias: 1, time: t0 + 60 * MINUTE, value: 60 }]);
    await edge.ddata(source, [{ alias: 1, time: t0 + 50 * MINUTE, value: 50 }]);
    await hostHandled(started.live, before + 2);
    expect((await rawSeries(t0 + 50 * MINUTE, t0 + 50 * MINUTE))?.columns.SO2_ppm?.[0]).toBe(50);
    const health = await streamHealth(db(), ship, { from: new Date(t0), to: new Date() });
    expect(
      health.findings.some(
        (f) => f.kind === 'clockBackwards' && f.sourceTime === new Date(t0 + 50 * MINUTE).toISOString(),
      ),
    ).toBe(true);
  });

  it('a sequence gap is recorded and the ship is asked for a rebirth (NCMD)', async () => {
    const before = started.live.host.counts.messages;
    edge.seq = (edge.seq + 3) % 256;
    await edge.ddata(source, [{ alias: 1, time: t0 + 61 * MINUTE, value: 61 }]);
    await hostHandled(started.live, before + 1);
    const command = await waitFor(() => edge.commands.find((c) => c.topic.endsWith(`/NCMD/${ship}`)), {
      what: 'the rebirth request',
    });
    const rebirth = decodePayload(command.payload).metrics?.find((m) => m.name === 'Node Control/Rebirth');
    expect(rebirth?.value).toBe(true);
    const health = await streamHealth(db(), ship, { from: new Date(0), to: new Date() });
    expect(health.findings.some((f) => f.kind === 'sequenceGap')).toBe(true);
    // The data of the message that showed the gap is kept.
    expect((await rawSeries(t0 + 61 * MINUTE, t0 + 61 * MINUTE))?.columns.SO2_ppm?.[0]).toBe(61);
    // The rebirth: a new sequence from 0, and the channels again.
    await birthsAgain();
  });

  it('survives a malformed payload: a clear log line, a finding, and the next message is stored', async () => {
    const before = started.live.host.counts.messages;
    await edge.publishRaw('DDATA', Buffer.from('not a sparkplug payload \xff\xff\xff'), source);
    edge.seq = (edge.seq + 1) % 256; // the broken message used a seq, as a real one would
    await edge.ddata(source, [{ alias: 1, time: t0 + 62 * MINUTE, value: 62 }]);
    await hostHandled(started.live, before + 2);
    expect((await rawSeries(t0 + 62 * MINUTE, t0 + 62 * MINUTE))?.columns.SO2_ppm?.[0]).toBe(62);
    const health = await streamHealth(db(), ship, { from: new Date(0), to: new Date() });
    const malformed = health.findings.find((f) => f.kind === 'malformed');
    expect(malformed?.detail).toMatchObject({ topic: `spBv1.0/${started.groupId}/DDATA/${ship}/${source}` });
    expect(started.live.host.counts.malformed).toBeGreaterThanOrEqual(1);
  });

  it('the NDEATH (the MQTT will of a lost connection) marks the link offline', async () => {
    const lost = await TestEdgeNode.connect(url(), started.groupId, ship, token);
    await lost.nbirth();
    await waitFor(
      async () => (await streamHealth(db(), ship, { from: new Date(0), to: new Date() })).link?.online,
      {
        what: 'the link online',
      },
    );
    // The connection is lost without a DISCONNECT: the broker publishes the will.
    lost.client.stream.destroy();
    await waitFor(
      async () =>
        (await streamHealth(db(), ship, { from: new Date(0), to: new Date() })).link?.online === false,
      { what: 'the link offline after the NDEATH' },
    );
    await lost.client.endAsync(true);
    await birthsAgain();
    expect((await streamHealth(db(), ship, { from: new Date(0), to: new Date() })).link?.online).toBe(true);
  });

  if (broker === 'mosquitto') {
    it('ignores edge node ids that are not ships of this portal', async () => {
      const stranger = randomUUID();
      const other = await TestEdgeNode.connect(url(), started.groupId, stranger, 'anything');
      const before = started.live.host.counts;
      const ignored = before.ignored;
      const messages = before.messages;
      await other.nbirth();
      await other.dbirth(source, [{ name: 'SO2_ppm', alias: 1 }]);
      await other.ddata(source, [{ alias: 1, time: t0 + 70 * MINUTE, value: 70 }]);
      await hostHandled(started.live, messages + 3);
      expect(started.live.host.counts.ignored).toBe(ignored + 3);
      expect((await rawSeries(t0 + 70 * MINUTE, t0 + 70 * MINUTE))?.timestamps.length ?? 0).toBe(0);
      const rows = await db().selectFrom('stream_links').select('facility_id').execute();
      expect(rows.map((r) => r.facility_id)).not.toContain(stranger);
      await other.close();
    });
  }

  if (broker === 'embedded') {
    const refusedConnect = async (username: string, password: string) => {
      const client = mqtt.connect(url(), {
        username,
        password,
        reconnectPeriod: 0,
        clientId: `psdu-${randomUUID()}`,
      });
      try {
        return await new Promise<string>((resolve) => {
          client.once('connect', () => resolve('connected'));
          client.once('error', (error) => resolve(error.message));
        });
      } finally {
        client.end(true);
      }
    };

    it("refuses wrong credentials, another ship's token and an unknown edge node", async () => {
      expect(await refusedConnect(ship, 'psdu_wrong')).toMatch(/Bad username or password/i);
      const otherShip = Object.values(server.seed.facilityIds)[1]!;
      expect(await refusedConnect(otherShip, token)).toMatch(/Bad username or password/i);
      expect(await refusedConnect(randomUUID(), token)).toMatch(/Bad username or password/i);
      expect(await refusedConnect('', '')).toMatch(/Bad username or password/i);
    });

    it("admits a ship by its credential's id as the user name too (a real Mosquitto's, decision 0131)", async () => {
      const { row, token: second } = await uploadToken(server, ship);
      const admitted = await TestEdgeNode.connect(url(), started.groupId, ship, second, { username: row.id });
      await admitted.close();
      // Another credential's id with this token: refused.
      expect(await refusedConnect(row.id, token)).toMatch(/Bad username or password/i);
    });

    it('refuses a revoked token', async () => {
      const { row, token: revoked } = await uploadToken(server, ship);
      const allowed = await TestEdgeNode.connect(url(), started.groupId, ship, revoked);
      await allowed.close();
      await db()
        .updateTable('upload_credentials')
        .set({ revoked_on: new Date() })
        .where('id', '=', row.id)
        .execute();
      expect(await refusedConnect(ship, revoked)).toMatch(/Bad username or password/i);
    });

    it("lets a ship publish only under its own edge node id: another ship's topic closes its connection", async () => {
      const otherShip = Object.values(server.seed.facilityIds)[1]!;
      const otherSource = await streamDataSource(server, otherShip);
      const intruder = await TestEdgeNode.connect(url(), started.groupId, ship, token);
      const closed = new Promise<void>((resolve) => intruder.client.once('close', () => resolve()));
      const forged = `spBv1.0/${started.groupId}/DDATA/${otherShip}/${otherSource}`;
      intruder.client.publish(forged, Buffer.from('x'), { qos: 0 });
      await closed;
      await intruder.client.endAsync(true);
      // The ship's own edge node still streams; nothing arrived for the other ship.
      const before = started.live.host.counts.messages;
      await edge.ddata(source, [{ alias: 1, time: t0 + 63 * MINUTE, value: 63 }]);
      await hostHandled(started.live, before + 1);
      const other = await readStreamSamples(db(), otherShip, { from: new Date(0), to: new Date() });
      expect(other).toEqual([]);
    });
  }
});
