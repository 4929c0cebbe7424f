import fs from 'node:fs';
import path from 'node:path';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { DiskBuffer, type DroppedSamples, type Sample } from './buffer';
import {
  BDSEQ_METRIC,
  BIRTH_QOS,
  DATA_QOS,
  DEATH_QOS,
  BDSEQ_MODULO,
  DEFAULT_GROUP_ID,
  REBIRTH_METRIC,
  SEQ_MODULO,
  decodePayload,
  encodePayload,
  topicOf,
  type Metric,
} from './sparkplug';

export type { Sample } from './buffer';

/** A channel the edge node announces in its data source's DBIRTH. */
export interface ChannelDefinition {
  /** The channel's name exactly as in the logger file's header. */
  name: string;
  /** Its ISO 19848-style local id, where known. */
  localId?: string | null;
  unit?: string | null;
  datatype?: 'Double' | 'Boolean' | 'String';
}

/** A data source of the ship: a Sparkplug device of the edge node (device_id = the data source id). */
export interface DataSourceDefinition {
  id: string;
  channels?: ChannelDefinition[];
}

export type LogLevel = 'info' | 'warn' | 'error';
export type EdgeLog = (level: LogLevel, message: string) => void;

export interface EdgeNodeOptions {
  /** mqtt://, mqtts://, ws:// or wss:// address of the broker. */
  mqttUrl: string;
  /** The Sparkplug group_id (default `psdu`). */
  groupId?: string;
  /** The ship (facility) id: the edge_node_id and the MQTT user name. */
  facilityId: string;
  /** The ship's upload token: the MQTT password. */
  token: string;
  /**
   * The MQTT user name: the facility id unless given. The uploader gives the token's credential id, which a real
   * Mosquitto's dynamic security knows the credential by (the embedded broker takes either).
   */
  username?: string;
  /** Where the edge node keeps its buffer, channel aliases and session number. */
  stateDir: string;
  dataSources: DataSourceDefinition[];
  /** The store and forward buffer's bound in bytes (default 256 MB) and its segment size. */
  bufferMaxBytes?: number;
  bufferSegmentBytes?: number;
  /** Most metrics in one DDATA (default 500). */
  maxMetricsPerMessage?: number;
  /** Most DDATA waiting for their PUBACK at once (default 16). */
  maxInflight?: number;
  /** Wait before a new connection after a lost one: doubles from min to max (default 1 s to 60 s). */
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  /** Further MQTT options (TLS: ca, cert, key, rejectUnauthorized). */
  mqtt?: Partial<IClientOptions>;
  /** The clock of the payloads' own timestamps (the samples carry their source time). */
  now?: () => number;
  log?: EdgeLog;
}

export const DEFAULT_BUFFER_MAX_BYTES = 256 * 1024 * 1024;
const DEFAULT_MAX_METRICS = 500;
const DEFAULT_MAX_INFLIGHT = 16;
const STOP_WAIT_MS = 5000;

interface StoredChannel {
  alias: number;
  datatype: 'Double' | 'Boolean' | 'String';
  localId?: string;
  unit?: string;
}

interface NodeState {
  /** The bdSeq of the last MQTT CONNECT. */
  bdSeq: number;
  nextAlias: number;
  /** Per data source id, its channels by name. */
  channels: Record<string, Record<string, StoredChannel>>;
}

export type EdgeNodeStatus = 'offline' | 'connecting' | 'online' | 'stopped';

export interface EdgeNodeStats {
  status: EdgeNodeStatus;
  /** Samples on disk not yet acknowledged by the broker. */
  pending: number;
  bufferBytes: number;
  /** Samples dropped (buffer full) since the start. */
  dropped: number;
  /** DDATA acknowledged since the start. */
  sentMessages: number;
}

const datatypeOf = (value: Sample['value']): StoredChannel['datatype'] =>
  typeof value === 'boolean' ? 'Boolean' : typeof value === 'string' ? 'String' : 'Double';

/**
 * The ship side of the portal's Sparkplug B contract (docs/decisions/0121-edge-node.md): an edge node whose devices
 * are the ship's data sources. Samples given to `publish` are written to the disk buffer first and sent from there,
 * oldest first, as DDATA at QoS 1; a sample leaves the buffer when its PUBACK arrives. While the link is down they
 * pile up (bounded), and when it returns they are replayed with `is_historical`.
 */
export class EdgeNode {
  private readonly options: EdgeNodeOptions;
  private readonly groupId: string;
  private readonly now: () => number;
  private readonly log: EdgeLog;
  private readonly buffer: DiskBuffer;
  private readonly stateFile: string;
  private state: NodeState;
  private client: MqttClient | null = null;
  private statusValue: EdgeNodeStatus = 'offline';
  private seq = 0;
  /** Samples numbered from here on were written while this session was online: they go out live. */
  private liveFrom = Number.POSITIVE_INFINITY;
  /**
   * Samples from here on were written in this run before its first connection: live too, unless a connection failed
   * or was lost before it (then they were kept for a lost link, and are historical).
   */
  private readonly runStart: number;
  private linkFailed = false;
  private birthNeeded = false;
  private inflight = 0;
  private pumping = false;
  private reconnectDelay: number;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private sentMessages = 0;
  private readonly waiters = new Set<() => void>();

  constructor(options: EdgeNodeOptions) {
    this.options = options;
    this.groupId = options.groupId ?? DEFAULT_GROUP_ID;
    this.now = options.now ?? Date.now;
    this.log = options.log ?? ((level, message) => console[level](new Date().toISOString(), message));
    this.reconnectDelay = options.reconnectMinMs ?? 1000;
    fs.mkdirSync(options.stateDir, { recursive: true });
    this.stateFile = path.join(options.stateDir, 'edge-node.json');
    this.state = this.loadState();
    for (const source of options.dataSources) {
      this.state.channels[source.id] ??= {};
      for (const channel of source.channels ?? []) this.register(source.id, channel, undefined);
    }
    this.saveState();
    this.buffer = new DiskBuffer({
      dir: path.join(options.stateDir, 'buffer'),
      maxBytes: options.bufferMaxBytes ?? DEFAULT_BUFFER_MAX_BYTES,
      ...(options.bufferSegmentBytes ? { segmentBytes: options.bufferSegmentBytes } : {}),
      onDrop: (dropped) => this.logDrop(dropped),
    });
    this.runStart = this.buffer.nextIndex;
    if (this.buffer.pending > 0)
      this.log(
        'info',
        `${this.buffer.pending} samples buffered by an earlier run will be sent, oldest first`,
      );
  }

  get status(): EdgeNodeStatus {
    return this.statusValue;
  }

  get stats(): EdgeNodeStats {
    return {
      status: this.statusValue,
      pending: this.buffer.pending,
      bufferBytes: this.buffer.bytes,
      dropped: this.buffer.dropped,
      sentMessages: this.sentMessages,
    };
  }

  /** Connects (and keeps connecting after a lost link) until `stop`. */
  start(): void {
    if (this.statusValue === 'stopped') throw new Error('The edge node was stopped');
    this.connectNow();
  }

  /**
   * Takes samples in: on disk before this returns, sent when the link allows. A channel not announced yet is added
   * to its data source's DBIRTH (the edge node is born again before its data goes out). Missing values (NaN, null)
   * are not samples and are skipped.
   */
  publish(samples: readonly Sample[]): void {
    const kept: Sample[] = [];
    for (const sample of samples) {
      if (sample.value === null || (typeof sample.value === 'number' && !Number.isFinite(sample.value)))
        continue;
      if (!Number.isFinite(sample.time)) continue;
      if (!this.state.channels[sample.dataSourceId]?.[sample.channel]) {
        this.register(sample.dataSourceId, { name: sample.channel }, sample.value);
        this.saveState();
        this.birthNeeded = true;
      }
      kept.push(sample);
    }
    this.buffer.append(kept);
    this.wake();
  }

  /** Resolves once the broker acknowledged everything published so far (for tests and a clean stop). */
  drained(): Promise<void> {
    return this.until(() => this.buffer.pending === 0 && this.inflight === 0);
  }

  /** Resolves when `condition` holds, checked whenever the edge node's state changes. */
  until(condition: () => boolean): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (condition()) {
          this.waiters.delete(check);
          resolve();
        }
      };
      this.waiters.add(check);
    });
  }

  /** A clean stop: NDEATH published (an intentional disconnect sends no will), then DISCONNECT. */
  async stop(): Promise<void> {
    const client = this.client;
    const wasOnline = this.statusValue === 'online';
    this.setStatus('stopped');
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.client = null;
    if (!client) return;
    // Bounded: a link that died without saying so must not hold the stop (the broker sends the will then).
    const bounded = (work: Promise<unknown>) =>
      Promise.race([work, new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref())]);
    if (wasOnline)
      await bounded(
        client.publishAsync(topicOf(this.groupId, 'NDEATH', this.options.facilityId), this.deathPayload(), {
          qos: DEATH_QOS,
        }),
      );
    await bounded(client.endAsync());
    client.end(true);
  }

  private notify(): void {
    for (const check of [...this.waiters]) check();
  }

  private setStatus(status: EdgeNodeStatus): void {
    this.statusValue = status;
    this.notify();
  }

  private loadState(): NodeState {
    try {
      const stored = JSON.parse(fs.readFileSync(this.stateFile, 'utf8')) as NodeState;
      if (typeof stored.bdSeq === 'number' && typeof stored.nextAlias === 'number' && stored.channels)
        return stored;
    } catch {
      // First start (or an unreadable state file): aliases begin again, and the births say so.
    }
    return { bdSeq: BDSEQ_MODULO - 1, nextAlias: 1, channels: {} };
  }

  private saveState(): void {
    fs.writeFileSync(`${this.stateFile}.tmp`, JSON.stringify(this.state, null, 2));
    fs.renameSync(`${this.stateFile}.tmp`, this.stateFile);
  }

  private register(
    dataSourceId: string,
    channel: ChannelDefinition,
    value: Sample['value'] | undefined,
  ): void {
    const channels = (this.state.channels[dataSourceId] ??= {});
    const known = channels[channel.name];
    const datatype =
      channel.datatype ?? known?.datatype ?? (value === undefined ? 'Double' : datatypeOf(value));
    channels[channel.name] = {
      alias: known?.alias ?? this.state.nextAlias++,
      datatype,
      ...(channel.localId ? { localId: channel.localId } : known?.localId ? { localId: known.localId } : {}),
      ...(channel.unit ? { unit: channel.unit } : known?.unit ? { unit: known.unit } : {}),
    };
  }

  private logDrop(dropped: DroppedSamples): void {
    const range =
      dropped.firstTime !== null && dropped.lastTime !== null
        ? ` from ${new Date(dropped.firstTime).toISOString()} to ${new Date(dropped.lastTime).toISOString()}`
        : '';
    this.log(
      'warn',
      `The store and forward buffer is full (${this.buffer.bytes} bytes): dropped the ${dropped.count} oldest samples${range} (${this.buffer.dropped} dropped since the start)`,
    );
  }

  private nextSeq(): number {
    const seq = this.seq;
    this.seq = (this.seq + 1) % SEQ_MODULO;
    return seq;
  }

  private deathPayload(): Buffer {
    return Buffer.from(
      encodePayload({
        timestamp: this.now(),
        metrics: [{ name: BDSEQ_METRIC, type: 'UInt64', value: this.state.bdSeq }],
      }),
    );
  }

  private connectNow(): void {
    this.reconnectTimer = null;
    if (this.statusValue === 'stopped') return;
    // A new bdSeq for every MQTT CONNECT ([tck-id-payloads-nbirth-bdseq]), in the NDEATH (the will) and the NBIRTH of that session.
    this.state.bdSeq = (this.state.bdSeq + 1) % BDSEQ_MODULO;
    this.saveState();
    const { facilityId, token } = this.options;
    this.setStatus('connecting');
    const client = connect(this.options.mqttUrl, {
      ...this.options.mqtt,
      clientId: `psdu-${facilityId}`,
      username: this.options.username ?? facilityId,
      password: token,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 30_000,
      queueQoSZero: false,
      will: {
        topic: topicOf(this.groupId, 'NDEATH', facilityId),
        payload: this.deathPayload(),
        qos: DEATH_QOS,
        retain: false,
      },
    });
    this.client = client;
    let lost = false;
    const onLost = (reason: string) => {
      if (lost || this.client !== client) return;
      lost = true;
      this.linkFailed = true;
      this.client = null;
      this.liveFrom = Number.POSITIVE_INFINITY;
      this.inflight = 0;
      this.buffer.rewind();
      client.end(true);
      if (this.statusValue === 'stopped') return;
      this.setStatus('offline');
      this.log(
        'warn',
        `Link to the broker lost (${reason}); ${this.buffer.pending} samples buffered; next try in ${Math.round(this.reconnectDelay / 1000)} s`,
      );
      this.reconnectTimer = setTimeout(() => this.connectNow(), this.reconnectDelay);
      this.reconnectDelay = Math.min(this.reconnectDelay * 2, this.options.reconnectMaxMs ?? 60_000);
    };
    client.on('connect', () => void this.online(client).catch((error: Error) => onLost(error.message)));
    client.on('message', (topic, payload) => this.command(topic, payload));
    client.on('error', (error) => {
      const code = (error as { code?: number }).code;
      if (code === 4 || code === 5 || code === 134 || code === 135)
        this.log(
          'error',
          "The broker refused the upload token: it may have been revoked. Provision a new one on the ship's Info page.",
        );
      onLost(error.message);
    });
    client.on('close', () => onLost('connection closed'));
  }

  private async online(client: MqttClient): Promise<void> {
    // The node's commands are subscribed before the NBIRTH, so a rebirth asked at once is not missed.
    await client.subscribeAsync(topicOf(this.groupId, 'NCMD', this.options.facilityId), { qos: 1 });
    if (this.client !== client) return;
    this.reconnectDelay = this.options.reconnectMinMs ?? 1000;
    this.birthNeeded = true;
    this.liveFrom = this.linkFailed ? this.buffer.nextIndex : this.runStart;
    this.setStatus('online');
    this.log('info', `Online: ${this.buffer.pending} buffered samples to send`);
    this.wake();
  }

  private command(topic: string, payload: Buffer): void {
    if (topic !== topicOf(this.groupId, 'NCMD', this.options.facilityId)) return;
    try {
      const decoded = decodePayload(payload);
      if (decoded.metrics?.some((m) => m.name === REBIRTH_METRIC && m.value === true)) {
        this.log('info', 'Rebirth asked by the host');
        this.birthNeeded = true;
        this.wake();
      }
    } catch (error) {
      this.log('warn', `An NCMD that is not a Sparkplug B payload was ignored: ${(error as Error).message}`);
    }
  }

  /** NBIRTH (seq 0, [tck-id-topics-nbirth-seq-num]) and one DBIRTH per data source. Births at BIRTH_QOS. */
  private births(client: MqttClient): void {
    const { facilityId } = this.options;
    this.seq = 0;
    const timestamp = this.now();
    const node: Metric[] = [
      { name: BDSEQ_METRIC, type: 'UInt64', value: this.state.bdSeq },
      { name: REBIRTH_METRIC, type: 'Boolean', value: false },
    ];
    client.publish(
      topicOf(this.groupId, 'NBIRTH', facilityId),
      Buffer.from(encodePayload({ timestamp, seq: this.nextSeq(), metrics: node })),
      { qos: BIRTH_QOS },
    );
    for (const [dataSourceId, channels] of Object.entries(this.state.channels)) {
      const metrics: Metric[] = Object.entries(channels).map(([name, c]) => ({
        name,
        alias: c.alias,
        type: c.datatype,
        timestamp,
        value: null,
        isNull: true,
        ...(c.localId || c.unit
          ? {
              properties: {
                ...(c.localId ? { localId: { type: 'String' as const, value: c.localId } } : {}),
                ...(c.unit ? { unit: { type: 'String' as const, value: c.unit } } : {}),
              },
            }
          : {}),
      }));
      client.publish(
        topicOf(this.groupId, 'DBIRTH', facilityId, dataSourceId),
        Buffer.from(encodePayload({ timestamp, seq: this.nextSeq(), metrics })),
        { qos: BIRTH_QOS },
      );
    }
  }

  private wake(): void {
    this.notify();
    if (!this.pumping) this.pump();
  }

  /** Sends from the buffer while online and the in-flight window allows. */
  private pump(): void {
    this.pumping = true;
    try {
      const client = this.client;
      if (!client || this.statusValue !== 'online') return;
      if (this.birthNeeded) {
        this.birthNeeded = false;
        this.births(client);
      }
      const maxMetrics = this.options.maxMetricsPerMessage ?? DEFAULT_MAX_METRICS;
      const maxInflight = this.options.maxInflight ?? DEFAULT_MAX_INFLIGHT;
      while (this.inflight < maxInflight) {
        const batch = this.buffer.take(maxMetrics);
        if (!batch) break;
        if (batch.samples.length === 0) {
          this.buffer.ack(batch.from, batch.to);
          continue;
        }
        const dataSourceId = batch.samples[0]!.dataSourceId;
        const channels = (this.state.channels[dataSourceId] ??= {});
        // Samples an earlier run buffered under channels its lost state file knew: announced before they go out.
        const unknown = batch.samples.filter((sample) => !channels[sample.channel]);
        if (unknown.length > 0) {
          for (const sample of unknown) this.register(dataSourceId, { name: sample.channel }, sample.value);
          this.saveState();
          this.births(client);
        }
        const metrics: Metric[] = batch.samples.map((sample, i) => {
          const channel = channels[sample.channel]!;
          return {
            alias: channel.alias,
            type: channel.datatype,
            timestamp: sample.time,
            value: sample.value,
            ...(batch.from + i < this.liveFrom ? { isHistorical: true } : {}),
          };
        });
        this.inflight++;
        client.publish(
          topicOf(this.groupId, 'DDATA', this.options.facilityId, dataSourceId),
          Buffer.from(encodePayload({ timestamp: this.now(), seq: this.nextSeq(), metrics })),
          { qos: DATA_QOS },
          (error) => {
            if (this.client !== client) return;
            this.inflight--;
            if (!error) {
              this.buffer.ack(batch.from, batch.to);
              this.sentMessages++;
            }
            this.wake();
          },
        );
      }
    } finally {
      this.pumping = false;
      this.notify();
    }
  }
}
