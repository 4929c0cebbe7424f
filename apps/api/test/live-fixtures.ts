import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import pino from 'pino';
import { DEFAULT_DELIMITED_CONFIGURATION, READER_IDS } from '@portal/contracts/readers';
import { dataSourceDefinition, type DaySamples, type DemoShip } from '@portal/demo-fleet';
import { EdgeNode, type Sample } from '@portal/edge';
import { encodePayload, type UMetric } from '../src/features/live/payload';
import { startLive, type Live } from '../src/features/live';
import type { TouchedRanges } from '../src/features/live/execute';
import { createUploadCredential } from '../src/features/ship-info/credentials';
import type { TestServer } from './harness';
import { waitFor } from './wait';

/** The machine's Mosquitto (anonymous, shared by every engineer: each test uses a group of its own). */
export const MOSQUITTO_URL = process.env.LIVE_TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

export const uniqueGroup = () => `t-${randomUUID().slice(0, 8)}`;

/** A ship's data source for the stream (a delimited reader; its files would be the logger's). */
export async function streamDataSource(server: TestServer, facilityId: string, name = 'Live logger') {
  const row = await server.services.database.db
    .insertInto('facility_data_sources')
    .values({
      facility_id: facilityId,
      name: `${name} ${randomUUID().slice(0, 6)}`,
      note: null,
      reader_id: READER_IDS.delimited,
      reader_configuration: JSON.stringify(DEFAULT_DELIMITED_CONFIGURATION),
      measure_frequency_seconds: 60,
      sample_file_name: null,
      sample_file: null,
      sample_channels: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function uploadToken(server: TestServer, facilityId: string) {
  return createUploadCredential(server.services.database.db, facilityId, null);
}

/** What the host handed on to be executed: before (`handed`) and after (`requested`) the window was requested. */
export interface HandedRange {
  facilityId: string;
  /** Per data source, the first and last source time handed on. */
  touched: TouchedRanges;
}

/**
 * The live stream on a test server: the host (batches of 0 s unless `batchSeconds`; the machine's Mosquitto, or
 * `mqttUrl`'s broker, or the embedded one), the touched ranges it handed on and those whose window execution was
 * requested (onStreamSamplesStored done: the window-execution job is sent).
 */
export async function startTestLive(
  server: TestServer,
  broker: 'embedded' | 'mosquitto',
  groupId = uniqueGroup(),
  options: { mqttUrl?: string; batchSeconds?: number; dynsec?: boolean; ca?: Buffer } = {},
): Promise<{ live: Live; groupId: string; handed: HandedRange[]; requested: HandedRange[] }> {
  const handed: HandedRange[] = [];
  const requested: HandedRange[] = [];
  const live = await startLive(
    server.services,
    {
      MQTT_URL: broker === 'mosquitto' ? (options.mqttUrl ?? MOSQUITTO_URL) : undefined,
      MQTT_PORT: 0,
      MQTT_HOST: '127.0.0.1',
      MQTT_GROUP_ID: groupId,
      MQTT_HOST_ID: `host-${groupId}`,
      LIVE_EXECUTION_BATCH_SECONDS: options.batchSeconds ?? 0,
      MQTT_DYNSEC: options.dynsec ? 'on' : 'off',
      mqttCa: options.ca ?? null,
    },
    pino({ level: process.env.LIVE_TEST_LOG ?? 'silent' }),
    {
      onStored: async (facilityId, touched) => {
        handed.push({ facilityId, touched });
        const { onStreamSamplesStored } = await import('../src/features/live/execute');
        await onStreamSamplesStored(server.services, facilityId, touched);
        requested.push({ facilityId, touched });
      },
    },
  );
  return { live, groupId, handed, requested };
}

/** Waits until the window execution of a ship's samples up to `time` (source time) was requested. */
export function requestedThrough(
  requested: HandedRange[],
  facilityId: string,
  time: number,
  timeoutMs = 60_000,
) {
  const reaches = (r: HandedRange) => [...r.touched.values()].some((range) => range.to >= time);
  return waitFor(() => requested.some((r) => r.facilityId === facilityId && reaches(r)), {
    what: `the window execution of the streamed samples up to ${new Date(time).toISOString()}`,
    timeoutMs,
  });
}

/**
 * A demo ship's gateway on board: an edge node (packages/edge, with its disk buffer) that publishes the demo
 * logger's samples under the logger's channel names (the raw channels `configureDemoDataSource` maps), signed in
 * with the ship's upload token. `publish` hands a batch to the edge node (on disk when it returns) and answers the
 * first and last source time of its samples (a logger's gaps are none), or null when it has none.
 */
export function demoEdgeNode(
  ship: DemoShip,
  target: { facilityId: string; dataSourceId: string },
  options: { mqttUrl: string; groupId: string; token: string },
) {
  const mappings = dataSourceDefinition(ship).channelMappings;
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'psdu-edge-'));
  const node = new EdgeNode({
    mqttUrl: options.mqttUrl,
    groupId: options.groupId,
    facilityId: target.facilityId,
    token: options.token,
    stateDir,
    dataSources: [
      {
        id: target.dataSourceId,
        channels: mappings.map((m) => ({ name: m.source, unit: m.unit || null })),
      },
    ],
    reconnectMinMs: 200,
    log: (level, message) => {
      if (level !== 'info') console[level](`edge node of ${ship.name}: ${message}`);
    },
  });
  node.start();
  return {
    node,
    publish(samples: DaySamples): { from: number; to: number } | null {
      const batch: Sample[] = [];
      for (let i = 0; i < samples.timestamps.length; i++)
        for (const m of mappings) {
          const value = samples.channels[m.name]?.[i];
          // A logger's gap (NaN) is no sample: the edge node would skip it.
          if (value !== undefined && !Number.isNaN(value))
            batch.push({
              dataSourceId: target.dataSourceId,
              channel: m.source,
              time: samples.timestamps[i]!,
              value,
            });
        }
      if (batch.length === 0) return null;
      node.publish(batch);
      return { from: batch[0]!.time, to: batch.at(-1)!.time };
    },
    async stop() {
      await node.stop();
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

export interface DBirthChannel {
  name: string;
  alias: number;
  localId?: string;
}

/**
 * A ship's edge node as the contract has it (raw mqtt + sparkplug-payload): clientId psdu-<facilityId>, username the
 * facility id, password the upload token, NDEATH as its will; one seq across its messages.
 */
export class TestEdgeNode {
  seq = 0;
  readonly bdSeq = 1;
  readonly commands: { topic: string; payload: Buffer }[] = [];
  private constructor(
    readonly client: MqttClient,
    readonly groupId: string,
    readonly edgeNodeId: string,
  ) {
    client.on('message', (topic, payload) => this.commands.push({ topic, payload }));
  }

  static async connect(
    url: string,
    groupId: string,
    edgeNodeId: string,
    password: string,
    options: { username?: string; mqtt?: Partial<IClientOptions> } = {},
  ): Promise<TestEdgeNode> {
    const client = mqtt.connect(url, {
      ...options.mqtt,
      clientId: `psdu-${edgeNodeId}-${randomUUID().slice(0, 4)}`,
      username: options.username ?? edgeNodeId,
      password,
      clean: true,
      reconnectPeriod: 0,
      will: {
        topic: `spBv1.0/${groupId}/NDEATH/${edgeNodeId}`,
        payload: Buffer.from(encodePayload({ timestamp: Date.now(), metrics: [bdSeqMetric(1)] })),
        qos: 1,
        retain: false,
      },
    });
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', (error) => {
        client.end(true);
        reject(error);
      });
    });
    const node = new TestEdgeNode(client, groupId, edgeNodeId);
    await client.subscribeAsync(`spBv1.0/${groupId}/NCMD/${edgeNodeId}`, { qos: 1 });
    return node;
  }

  private topic(type: string, deviceId?: string) {
    return `spBv1.0/${this.groupId}/${type}/${this.edgeNodeId}${deviceId ? `/${deviceId}` : ''}`;
  }

  private nextSeq() {
    const seq = this.seq;
    this.seq = (this.seq + 1) % 256;
    return seq;
  }

  async publishRaw(type: string, bytes: Uint8Array, deviceId?: string) {
    await this.client.publishAsync(this.topic(type, deviceId), Buffer.from(bytes), { qos: 1 });
  }

  async nbirth() {
    this.seq = 0;
    const payload = encodePayload({
      timestamp: Date.now(),
      seq: this.nextSeq(),
      metrics: [bdSeqMetric(this.bdSeq), { name: 'Node Control/Rebirth', type: 'Boolean', value: false }],
    });
    await this.publishRaw('NBIRTH', payload);
  }

  async dbirth(deviceId: string, channels: DBirthChannel[]) {
    const payload = encodePayload({
      timestamp: Date.now(),
      seq: this.nextSeq(),
      metrics: channels.map((c): UMetric => ({
        name: c.name,
        alias: c.alias,
        type: 'Double',
        value: 0,
        ...(c.localId ? { properties: { localId: { type: 'String', value: c.localId } } } : {}),
      })),
    });
    await this.publishRaw('DBIRTH', payload, deviceId);
  }

  /** One DDATA: each sample by alias, with its own timestamp (and is_historical when replayed). */
  async ddata(
    deviceId: string,
    samples: { alias: number; time: number; value: number; historical?: boolean }[],
    options: { seq?: number } = {},
  ) {
    const payload = encodePayload({
      timestamp: Date.now(),
      seq: options.seq ?? this.nextSeq(),
      metrics: samples.map((s): UMetric => ({
        alias: s.alias,
        type: 'Double',
        value: s.value,
        timestamp: s.time,
        ...(s.historical ? { isHistorical: true } : {}),
      })),
    });
    await this.publishRaw('DDATA', payload, deviceId);
  }

  async close() {
    await this.client.endAsync(true);
  }
}

const bdSeqMetric = (value: number): UMetric => ({ name: 'bdSeq', type: 'UInt64', value });

/** Waits until the host has received `count` messages in all and handled them. */
export async function hostHandled(live: Live, count: number) {
  await waitFor(() => live.host.counts.messages >= count, {
    what: `the host to receive ${count} messages (has ${live.host.counts.messages})`,
  });
  await live.host.idle();
}
