import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EdgeNode, type EdgeNodeOptions } from '../src/edge-node';
import { encodePayload, toNumber, topicOf } from '../src/sparkplug';
import {
  BROKER_URL,
  LinkProxy,
  SimulatedClock,
  Subscriber,
  dataSamples,
  tempDir,
  uniqueGroup,
} from '../src/testing';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 28, 8, 0);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  groupId: string;
  facilityId: string;
  dataSourceId: string;
  stateDir: string;
  subscriber: Subscriber;
  clock: SimulatedClock;
}

async function setup(): Promise<Setup> {
  const groupId = uniqueGroup();
  const subscriber = await Subscriber.start(groupId);
  cleanups.push(() => subscriber.stop());
  return {
    groupId,
    facilityId: randomUUID(),
    dataSourceId: randomUUID(),
    stateDir: tempDir(),
    subscriber,
    clock: new SimulatedClock(T0),
  };
}

function edgeNode(s: Setup, overrides: Partial<EdgeNodeOptions> = {}): { node: EdgeNode; logs: string[] } {
  const logs: string[] = [];
  const node = new EdgeNode({
    mqttUrl: BROKER_URL,
    groupId: s.groupId,
    facilityId: s.facilityId,
    token: 'psdu_test-token',
    stateDir: s.stateDir,
    dataSources: [
      {
        id: s.dataSourceId,
        channels: [
          {
            name: 'SO2 [ppm]',
            unit: 'ppm',
            localId: '/dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-concentration',
          },
          { name: 'CO2 [%]', unit: '%' },
        ],
      },
    ],
    reconnectMinMs: 20,
    reconnectMaxMs: 200,
    now: s.clock.now,
    log: (level, message) => logs.push(`${level}: ${message}`),
    ...overrides,
  });
  cleanups.push(() => node.stop());
  return { node, logs };
}

/** One sample a minute of both channels from `from` on, the values numbering the minutes. */
const minutes = (dataSourceId: string, from: number, count: number) =>
  Array.from({ length: count }, (_, i) => [
    { dataSourceId, channel: 'SO2 [ppm]', time: from + i * MINUTE, value: 100 + i },
    { dataSourceId, channel: 'CO2 [%]', time: from + i * MINUTE, value: 5 + i / 100 },
  ]);

describe('the edge node against Mosquitto', () => {
  it('is born as the contract says and sends data by alias, with source times and a wrapping seq', async () => {
    const s = await setup();
    const { node } = edgeNode(s, { maxMetricsPerMessage: 2 });
    node.start();
    await s.subscriber.until((m) => m.some((x) => x.type === 'DBIRTH'));

    const [nbirth] = s.subscriber.of('NBIRTH');
    expect(nbirth!.topic).toBe(`spBv1.0/${s.groupId}/NBIRTH/${s.facilityId}`);
    expect(toNumber(nbirth!.payload.seq)).toBe(0);
    const nodeMetrics = Object.fromEntries((nbirth!.payload.metrics ?? []).map((m) => [m.name, m]));
    expect(nodeMetrics.bdSeq!.type).toBe('UInt64');
    expect(nodeMetrics['Node Control/Rebirth']).toMatchObject({ type: 'Boolean', value: false });

    const [dbirth] = s.subscriber.of('DBIRTH');
    expect(dbirth!.topic).toBe(`spBv1.0/${s.groupId}/DBIRTH/${s.facilityId}/${s.dataSourceId}`);
    expect(toNumber(dbirth!.payload.seq)).toBe(1);
    const birth = (dbirth!.payload.metrics ?? []).map((m) => ({
      name: m.name,
      alias: toNumber(m.alias),
      type: m.type,
      localId: m.properties?.localId?.value,
      unit: m.properties?.unit?.value,
    }));
    expect(birth).toEqual([
      {
        name: 'SO2 [ppm]',
        alias: 1,
        type: 'Double',
        localId: '/dnv-v2/vis-3-4a/411.1/C101.31/meta/qty-concentration',
        unit: 'ppm',
      },
      { name: 'CO2 [%]', alias: 2, type: 'Double', localId: undefined, unit: '%' },
    ]);

    // 300 minutes, one DDATA each (two metrics a message): the seq passes 255 and starts again at 0.
    for (const row of minutes(s.dataSourceId, T0, 300)) node.publish(row);
    await node.drained();
    await s.subscriber.until((m) => m.filter((x) => x.type === 'DDATA').length === 300);

    const seqs = s.subscriber.messages.map((m) => toNumber(m.payload.seq));
    expect(seqs.slice(0, 3)).toEqual([0, 1, 2]);
    seqs.slice(1).forEach((seq, i) => expect(seq).toBe((seqs[i]! + 1) % 256));
    expect(seqs).toContain(255);
    expect(seqs.filter((seq) => seq === 0)).toHaveLength(2);

    const samples = dataSamples(s.subscriber, s.dataSourceId);
    expect(samples).toHaveLength(600);
    expect(samples.slice(0, 2)).toEqual([
      { alias: 1, time: T0, value: 100, historical: false },
      { alias: 2, time: T0, value: 5, historical: false },
    ]);
    expect(samples.at(-2)).toEqual({ alias: 1, time: T0 + 299 * MINUTE, value: 399, historical: false });
    // The payload's own timestamp is the edge node's clock; each metric's is its source time.
    expect(toNumber(s.subscriber.of('DDATA')[0]!.payload.timestamp)).toBe(s.clock.ms);
  });

  it('is born again on an NCMD Node Control/Rebirth, with seq 0 and the same bdSeq', async () => {
    const s = await setup();
    const { node } = edgeNode(s);
    node.start();
    await s.subscriber.until((m) => m.some((x) => x.type === 'DBIRTH'));
    node.publish(minutes(s.dataSourceId, T0, 1).flat());
    await s.subscriber.until((m) => m.some((x) => x.type === 'DDATA'));

    await s.subscriber.client.publishAsync(
      topicOf(s.groupId, 'NCMD', s.facilityId),
      Buffer.from(
        encodePayload({
          timestamp: Date.now(),
          metrics: [{ name: 'Node Control/Rebirth', type: 'Boolean', value: true }],
        }),
      ),
      { qos: 1 },
    );
    await s.subscriber.until((m) => m.filter((x) => x.type === 'DBIRTH').length === 2);
    const births = s.subscriber.of('NBIRTH');
    expect(births).toHaveLength(2);
    expect(toNumber(births[1]!.payload.seq)).toBe(0);
    const bdSeq = (b: (typeof births)[number]) =>
      toNumber(b.payload.metrics!.find((m) => m.name === 'bdSeq')!.value);
    expect(bdSeq(births[1]!)).toBe(bdSeq(births[0]!));
    expect(toNumber(s.subscriber.of('DBIRTH')[1]!.payload.seq)).toBe(1);
  });

  it('announces a channel first seen in the data with a new birth before its data', async () => {
    const s = await setup();
    const { node } = edgeNode(s);
    node.start();
    await s.subscriber.until((m) => m.some((x) => x.type === 'DBIRTH'));
    node.publish([{ dataSourceId: s.dataSourceId, channel: 'Scrubber On', time: T0, value: true }]);
    await node.drained();
    await s.subscriber.until((m) => m.some((x) => x.type === 'DDATA'));
    const births = s.subscriber.of('DBIRTH');
    expect(births).toHaveLength(2);
    const added = births[1]!.payload.metrics!.find((m) => m.name === 'Scrubber On')!;
    expect(added).toMatchObject({ type: 'Boolean' });
    const [sample] = dataSamples(s.subscriber);
    expect(sample).toEqual({ alias: toNumber(added.alias), time: T0, value: true, historical: false });
    // The announced DBIRTH comes before the data that uses it.
    const order = s.subscriber.messages.map((m) => m.type);
    expect(order.lastIndexOf('DBIRTH')).toBeLessThan(order.indexOf('DDATA'));
  });

  it('leaves its NDEATH with the NBIRTH bdSeq when its connection dies without a word, and is born again', async () => {
    const s = await setup();
    const proxy = await LinkProxy.start();
    cleanups.push(() => proxy.stop());
    const { node } = edgeNode(s, { mqttUrl: proxy.url });
    node.start();
    await s.subscriber.until((m) => m.some((x) => x.type === 'DBIRTH'));

    proxy.abort();
    await s.subscriber.until((m) => m.some((x) => x.type === 'NDEATH'));
    const bdSeqOf = (type: 'NBIRTH' | 'NDEATH', i: number) =>
      toNumber(s.subscriber.of(type)[i]!.payload.metrics!.find((m) => m.name === 'bdSeq')!.value);
    const [death] = s.subscriber.of('NDEATH');
    expect(death!.topic).toBe(`spBv1.0/${s.groupId}/NDEATH/${s.facilityId}`);
    expect(bdSeqOf('NDEATH', 0)).toBe(bdSeqOf('NBIRTH', 0));

    // It connects again by itself: a new session, a new bdSeq.
    await s.subscriber.until((m) => m.filter((x) => x.type === 'NBIRTH').length === 2);
    expect(bdSeqOf('NBIRTH', 1)).toBe((bdSeqOf('NBIRTH', 0) + 1) % 256);
  });

  it('keeps 20 minutes of a cut link on disk and replays every sample once, oldest first, flagged historical', async () => {
    const s = await setup();
    const proxy = await LinkProxy.start();
    cleanups.push(() => proxy.stop());
    const { node } = edgeNode(s, { mqttUrl: proxy.url });
    node.start();
    await node.until(() => node.status === 'online');
    node.publish(minutes(s.dataSourceId, T0, 1).flat());
    await node.drained();

    proxy.cut();
    await node.until(() => node.status === 'offline');
    // The link is down for 20 minutes of the feed's clock: one sample a minute of each channel piles up.
    const cutFrom = T0 + MINUTE;
    for (const row of minutes(s.dataSourceId, cutFrom, 20)) {
      s.clock.advance(MINUTE);
      node.publish(row);
    }
    expect(node.stats.pending).toBe(40);
    expect(fs.readdirSync(path.join(s.stateDir, 'buffer')).some((f) => f.endsWith('.jsonl'))).toBe(true);

    proxy.restore();
    await node.drained();
    await s.subscriber.until(() => dataSamples(s.subscriber).length === 42);

    const samples = dataSamples(s.subscriber, s.dataSourceId);
    expect(samples.slice(0, 2).map((x) => x.historical)).toEqual([false, false]);
    const replayed = samples.slice(2);
    expect(replayed).toEqual(
      Array.from({ length: 20 }, (_, i) => [
        { alias: 1, time: cutFrom + i * MINUTE, value: 100 + i, historical: true },
        { alias: 2, time: cutFrom + i * MINUTE, value: 5 + i / 100, historical: true },
      ]).flat(),
    );
    // Sent means acknowledged: nothing is left on disk.
    expect(node.stats.pending).toBe(0);
    expect(fs.readdirSync(path.join(s.stateDir, 'buffer')).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
  });

  it('drops the oldest samples when the buffer is full, says so, and replays the rest oldest first', async () => {
    const s = await setup();
    const proxy = await LinkProxy.start();
    cleanups.push(() => proxy.stop());
    const { node, logs } = edgeNode(s, { mqttUrl: proxy.url, bufferMaxBytes: 4096, bufferSegmentBytes: 512 });
    node.start();
    await node.until(() => node.status === 'online');
    proxy.cut();
    await node.until(() => node.status === 'offline');

    for (const row of minutes(s.dataSourceId, T0, 200)) node.publish(row);
    const { dropped, pending, bufferBytes } = node.stats;
    expect(dropped).toBeGreaterThan(0);
    expect(dropped + pending).toBe(400);
    expect(bufferBytes).toBeLessThanOrEqual(4096);
    expect(
      logs.some(
        (l) => l.startsWith('warn: The store and forward buffer is full') && l.includes('dropped the'),
      ),
    ).toBe(true);
    expect(logs.find((l) => l.includes('dropped the'))).toContain(new Date(T0).toISOString());

    proxy.restore();
    await node.drained();
    await s.subscriber.until(() => dataSamples(s.subscriber).length === pending);
    const samples = dataSamples(s.subscriber);
    const times = samples.map((x) => x.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // What is left is the newest: the last minute arrived, the first did not.
    expect(times.at(-1)).toBe(T0 + 199 * MINUTE);
    expect(times[0]).toBeGreaterThan(T0);
    expect(samples.every((x) => x.historical)).toBe(true);
  });

  it('replays after a restart what an earlier run could not send', async () => {
    const s = await setup();
    const proxy = await LinkProxy.start();
    cleanups.push(() => proxy.stop());
    proxy.cut();
    const first = edgeNode(s, { mqttUrl: proxy.url });
    first.node.start();
    for (const row of minutes(s.dataSourceId, T0, 20)) first.node.publish(row);
    expect(first.node.stats.pending).toBe(40);
    await first.node.stop();

    const second = edgeNode(s);
    expect(second.node.stats.pending).toBe(40);
    expect(second.logs).toContain('info: 40 samples buffered by an earlier run will be sent, oldest first');
    // A sample of the new run, taken in while its first connection is being made: live, after the old ones.
    second.node.publish(minutes(s.dataSourceId, T0 + 20 * MINUTE, 1)[0]!.slice(0, 1));
    second.node.start();
    await second.node.drained();
    await s.subscriber.until(() => dataSamples(s.subscriber).length === 41);
    const all = dataSamples(s.subscriber);
    expect(all.at(-1)).toMatchObject({ time: T0 + 20 * MINUTE, historical: false });
    const samples = all.slice(0, 40);
    expect(samples.map((x) => x.time)).toEqual(
      minutes(s.dataSourceId, T0, 20)
        .flat()
        .map((x) => x.time),
    );
    expect(samples.every((x) => x.historical)).toBe(true);
    // The aliases of the earlier run are kept.
    expect(new Set(samples.map((x) => x.alias))).toEqual(new Set([1, 2]));
    expect(second.node.stats.pending).toBe(0);
  });
});
