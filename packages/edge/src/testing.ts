/** Test helpers against the machine's Mosquitto: a raw Sparkplug subscriber, a TCP proxy the test cuts, a simulated clock. */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { connect, type MqttClient } from 'mqtt';
import { decodePayload, parseTopic, toNumber, type MessageType, type Payload } from './sparkplug';

/** The machine's Mosquitto (anonymous), shared with other engineers: every test uses a group of its own. */
export const BROKER_URL = 'mqtt://127.0.0.1:1883';
const BROKER_PORT = 1883;

export const uniqueGroup = () => `test-edge-${randomUUID().slice(0, 8)}`;
export const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'psdu-edge-'));

export interface Received {
  topic: string;
  type: MessageType;
  edgeNodeId: string;
  deviceId?: string;
  payload: Payload;
}

/** A raw Sparkplug subscriber of one group (QoS 1), decoding every message with sparkplug-payload. */
export class Subscriber {
  readonly messages: Received[] = [];
  private readonly waiters = new Set<() => void>();
  private constructor(
    readonly client: MqttClient,
    readonly groupId: string,
  ) {
    client.on('message', (topic, payload) => {
      const parsed = parseTopic(topic);
      if (!parsed) return;
      this.messages.push({ topic, ...parsed, payload: decodePayload(payload) });
      for (const check of [...this.waiters]) check();
    });
  }

  static async start(groupId: string): Promise<Subscriber> {
    const client = await connectAsync();
    await client.subscribeAsync(`spBv1.0/${groupId}/#`, { qos: 1 });
    return new Subscriber(client, groupId);
  }

  of(type: MessageType): Received[] {
    return this.messages.filter((m) => m.type === type);
  }

  /** Resolves when `condition` holds over the messages received (checked at each message). */
  until(condition: (messages: Received[]) => boolean): Promise<void> {
    if (condition(this.messages)) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (condition(this.messages)) {
          this.waiters.delete(check);
          resolve();
        }
      };
      this.waiters.add(check);
    });
  }

  async stop(): Promise<void> {
    await this.client.endAsync();
  }
}

function connectAsync(): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = connect(BROKER_URL, {
      clientId: `test-sub-${randomUUID()}`,
      clean: true,
      reconnectPeriod: 0,
    });
    client.once('connect', () => resolve(client));
    client.once('error', reject);
  });
}

/**
 * A TCP proxy between the edge node and the broker that the test controls: `cut()` destroys every connection and
 * refuses new ones (the link is down), `restore()` lets connections through again, `abort()` destroys the
 * connections without a word (an ungraceful disconnect: the broker sends the will) and keeps accepting.
 */
export class LinkProxy {
  private readonly sockets = new Set<net.Socket>();
  private up = true;
  private constructor(
    private readonly server: net.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<LinkProxy> {
    const holder: { proxy?: LinkProxy } = {};
    const server = net.createServer((client) => holder.proxy!.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.proxy = new LinkProxy(server, `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
    return holder.proxy;
  }

  private accept(client: net.Socket): void {
    if (!this.up) {
      client.destroy();
      return;
    }
    const upstream = net.connect(BROKER_PORT, '127.0.0.1');
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  get connections(): number {
    return this.sockets.size / 2;
  }

  abort(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  cut(): void {
    this.up = false;
    this.abort();
  }

  restore(): void {
    this.up = true;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A simulated clock: the test moves it, the edge node reads it. */
export class SimulatedClock {
  constructor(public ms: number) {}
  now = () => this.ms;
  advance(ms: number) {
    this.ms += ms;
    return this.ms;
  }
}

/** The DDATA samples received, flattened: alias, source time, value, historical. */
export function dataSamples(subscriber: Subscriber, deviceId?: string) {
  return subscriber
    .of('DDATA')
    .filter((m) => deviceId === undefined || m.deviceId === deviceId)
    .flatMap((m) =>
      (m.payload.metrics ?? []).map((metric) => ({
        alias: toNumber(metric.alias),
        time: toNumber(metric.timestamp),
        value: metric.value,
        historical: metric.isHistorical === true,
      })),
    );
}
