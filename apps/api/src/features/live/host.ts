import mqtt, { type MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import { storeStreamSamples, type StreamSample } from '../../storage';
import type { Services } from '../../services';
import { widen, type TouchedRanges } from './execute';
import {
  decodePayload,
  encodePayload,
  sampleValue,
  stringProperty,
  toNumber,
  type UPayload,
} from './payload';
import {
  knownShip,
  rawChannelsByLocalId,
  recordFindings,
  setLink,
  shipDataSource,
  touchLink,
  type StreamFindingInput,
} from './queries';
import { clockCheck, sequenceContinues } from './rules';
import { groupFilter, parseTopic, stateTopic, topicOf, type SparkplugTopic } from './topics';

/**
 * The portal as a Sparkplug B host application (docs/decisions/0120-live-sparkplug-host.md): it subscribes its
 * group, publishes its STATE, keeps per edge node (ship) the alias -> channel map of its DBIRTHs, checks each
 * message's seq (a gap: a finding and an NCMD rebirth request), marks the ship's link offline on NDEATH/DDEATH, and
 * stores DDATA's samples through storage/samples.ts after the clock check. What it stored is handed on per ship
 * and batch to `onStored` (features/live/execute.ts onStreamSamplesStored).
 *
 * Messages are handled one after the other in arrival order (MQTT keeps one publisher's order on a topic at one
 * QoS, and the host subscribes the whole group at QoS 1), so the seq check sees them as sent.
 *
 * Their samples are stored in groups (a group commit): a message's samples wait while more messages are queued
 * behind it, and are written, with those of the messages before it, once the queue is empty or the group holds
 * GROUP_MAX_SAMPLES. A lone message is written at once; a burst (a fleet's minute, a replay after a cut link) in a
 * few statements rather than one commit per message, which bounded ingest at 45-97 messages/s on PostgreSQL
 * (docs/decisions/0128-where-one-postgresql-stops.md: the host waited for the commit's WAL flush 49-78 % of the time).
 */
export interface SparkplugHostOptions {
  url: string;
  username?: string;
  password?: string;
  /** The CA certificate (PEM) of an mqtts:// broker with a private CA (MQTT_CA_FILE). */
  ca?: Buffer;
  groupId: string;
  hostId: string;
  /** How often the touched ranges are handed on (0: after each message). */
  batchMs: number;
  log: Logger;
  onStored: (facilityId: string, touched: TouchedRanges) => Promise<void>;
  /** The portal's clock (tests move it). */
  now?: () => number;
}

interface Channel {
  dataSourceId: string;
  channel: string;
}

interface EdgeNode {
  facilityId: string;
  /** The last seq seen; null before a birth or after a death. */
  seq: number | null;
  bdSeq: number | null;
  /** alias -> channel, from the DBIRTHs since the last NBIRTH (aliases are unique within the edge node). */
  aliases: Map<number, Channel>;
  /** data source -> its metric names -> channel (a DDATA metric that carries its name instead of its alias). */
  names: Map<string, Map<string, Channel>>;
  /** The latest live source time per data source, for the clock check. */
  latestLive: Map<string, number>;
  lastRebirthRequest: number;
  /** Messages that came before a birth the host knows, kept (bounded) and handled after the next DBIRTH. */
  waiting: { topic: SparkplugTopic; payload: UPayload }[];
}

/** A rebirth is asked for at most this often per edge node (a burst of gaps asks once). */
const REBIRTH_INTERVAL_MS = 5_000;
/** Messages kept per edge node while its birth is awaited. */
const WAITING_MAX = 1_000;
/** How long a known/unknown answer for an edge node id is kept. */
const KNOWN_TTL_MS = 60_000;
/** The most samples a group commit waits for (storeStreamSamples writes them in statements of its own size). */
export const GROUP_MAX_SAMPLES = 5_000;

export class SparkplugHost {
  private client: MqttClient | null = null;
  private readonly nodes = new Map<string, EdgeNode>();
  private readonly known = new Map<string, { ship: boolean; until: number }>();
  private chain: Promise<void> = Promise.resolve();
  private pending = 0;
  /** Samples handled but not yet written: the current group. */
  private group: StreamSample[] = [];
  private touched = new Map<string, TouchedRanges>();
  private lastMessage = new Map<string, Date>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly now: () => number;
  /** Counters the bench and the tests read. */
  readonly counts = {
    messages: 0,
    stored: 0,
    duplicates: 0,
    refused: 0,
    malformed: 0,
    ignored: 0,
    rebirths: 0,
    /** Groups written (storeStreamSamples calls): fewer than the messages with data when they come in bursts. */
    groups: 0,
  };

  constructor(
    private readonly services: Services,
    private readonly options: SparkplugHostOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  private get db() {
    return this.services.database.db;
  }

  async start(): Promise<void> {
    const { options } = this;
    const timestamp = this.now();
    const state = (online: boolean) => JSON.stringify({ online, timestamp });
    const client = mqtt.connect(options.url, {
      clientId: `${options.hostId}-${Math.random().toString(16).slice(2, 10)}`,
      username: options.username,
      password: options.password,
      ...(options.ca ? { ca: options.ca } : {}),
      clean: true,
      reconnectPeriod: 2_000,
      // Sparkplug 3.0 §7.3: the host's death certificate is its STATE will, retained, with the birth's timestamp.
      will: { topic: stateTopic(options.hostId), payload: Buffer.from(state(false)), qos: 1, retain: true },
    });
    this.client = client;
    client.on('message', (topic, payload) => this.enqueue(topic, payload));
    client.on('error', (error) => options.log.warn({ err: error }, 'MQTT: %s', error.message));
    let subscribed: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (subscribed = resolve));
    // On every (re)connect: the group's subscription, then the host's birth (Sparkplug 3.0 §7.3: subscribe first).
    client.on('connect', () => {
      client.subscribe(groupFilter(options.groupId), { qos: 1 }, (error) => {
        if (error) return options.log.error({ err: error }, 'MQTT: the subscription was refused');
        client.publish(stateTopic(options.hostId), state(true), { qos: 1, retain: true });
        subscribed();
      });
    });
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => {
        client.end(true);
        reject(error);
      };
      client.once('error', fail);
      client.once('connect', () => {
        client.off('error', fail);
        resolve();
      });
    });
    await ready;
    if (options.batchMs > 0) {
      this.timer = setInterval(() => void this.flush(), options.batchMs);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const client = this.client;
    if (client?.connected) {
      await new Promise<void>((resolve) =>
        client.publish(
          stateTopic(this.options.hostId),
          JSON.stringify({ online: false, timestamp: this.now() }),
          { qos: 1, retain: true },
          () => resolve(),
        ),
      );
    }
    await this.idle();
    await client?.endAsync();
    this.client = null;
  }

  /** Resolves when every message received so far is handled and its samples handed on (tests, the bench). */
  async idle(): Promise<void> {
    while (this.pending > 0) await this.chain;
    await this.flush();
  }

  private enqueue(topic: string, payload: Buffer): void {
    this.pending++;
    this.chain = this.chain
      .then(() => this.handle(topic, payload))
      // The last queued message (pending counts the one just handled) or a full group: write the group.
      .then(() =>
        this.pending <= 1 || this.group.length >= GROUP_MAX_SAMPLES ? this.storeGroup() : undefined,
      )
      .catch((error: unknown) =>
        this.options.log.error(
          { err: error, topic },
          'Live: a message could not be handled: %s',
          String(error),
        ),
      )
      .finally(() => {
        this.pending--;
        if (this.options.batchMs === 0) void this.flush();
      });
  }

  /** Hands the touched ranges on, per ship: one call per ship and batch. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const touched = this.touched;
      const seen = this.lastMessage;
      this.touched = new Map();
      this.lastMessage = new Map();
      for (const [facilityId, at] of seen) await touchLink(this.db, facilityId, at);
      for (const [facilityId, range] of touched) {
        try {
          await this.options.onStored(facilityId, range);
        } catch (error) {
          // The samples are stored; the next batch of the ship (or Run) executes them.
          this.options.log.error(
            { err: error, facilityId },
            'Live: the execution of streamed samples was not queued',
          );
        }
      }
    });
    return this.flushing;
  }

  private async isShip(edgeNodeId: string): Promise<boolean> {
    const cached = this.known.get(edgeNodeId);
    const now = Date.now();
    if (cached && cached.until > now) return cached.ship;
    const ship = await knownShip(this.db, edgeNodeId);
    this.known.set(edgeNodeId, { ship, until: now + KNOWN_TTL_MS });
    return ship;
  }

  private async handle(topicText: string, bytes: Buffer): Promise<void> {
    const topic = parseTopic(topicText);
    // The host's own commands come back through its subscription of the group: not counted, not read.
    if (topic?.type === 'NCMD' || topic?.type === 'DCMD') return;
    this.counts.messages++;
    if (!topic || topic.groupId !== this.options.groupId) return;
    if (!(await this.isShip(topic.edgeNodeId))) {
      this.counts.ignored++;
      return;
    }
    let payload: UPayload;
    try {
      payload = decodePayload(bytes);
    } catch (error) {
      this.counts.malformed++;
      const reason = (error as Error).message;
      this.options.log.warn(
        { topic: topicText, bytes: bytes.length },
        `Live: a ${topic.type} of ship ${topic.edgeNodeId} is no Sparkplug B payload (${reason}); it was skipped and recorded`,
      );
      await recordFindings(this.db, [
        {
          facilityId: topic.edgeNodeId,
          dataSourceId: null,
          kind: 'malformed',
          sourceTime: null,
          detail: {
            topic: topicText,
            bytes: bytes.length,
            reason,
            base64: bytes.subarray(0, 1024).toString('base64'),
          },
        },
      ]);
      return;
    }
    this.lastMessage.set(topic.edgeNodeId, new Date(this.now()));
    await this.dispatch(topic, payload);
  }

  private node(facilityId: string): EdgeNode {
    let node = this.nodes.get(facilityId);
    if (!node) {
      node = {
        facilityId,
        seq: null,
        bdSeq: null,
        aliases: new Map(),
        names: new Map(),
        latestLive: new Map(),
        lastRebirthRequest: -Infinity,
        waiting: [],
      };
      this.nodes.set(facilityId, node);
    }
    return node;
  }

  private async dispatch(topic: SparkplugTopic, payload: UPayload): Promise<void> {
    const node = this.node(topic.edgeNodeId);
    const seq = toNumber(payload.seq);
    switch (topic.type) {
      case 'NBIRTH': {
        node.seq = seq;
        node.bdSeq = toNumber(payload.metrics?.find((m) => m.name === 'bdSeq')?.value);
        node.aliases.clear();
        node.names.clear();
        await setLink(this.db, node.facilityId, true);
        return;
      }
      case 'NDEATH': {
        // A will of an older session (another bdSeq) says nothing of the current one (Sparkplug 3.0 §7.1.1).
        const bdSeq = toNumber(payload.metrics?.find((m) => m.name === 'bdSeq')?.value);
        if (node.bdSeq !== null && bdSeq !== null && bdSeq !== node.bdSeq) return;
        node.seq = null;
        await setLink(this.db, node.facilityId, false);
        return;
      }
    }
    await this.checkSequence(node, topic, seq);
    switch (topic.type) {
      case 'DBIRTH':
        await this.deviceBirth(node, topic, payload);
        return;
      case 'DDEATH':
        await setLink(this.db, node.facilityId, false);
        return;
      case 'DDATA':
        await this.deviceData(node, topic, payload);
        return;
      default:
        return; // NDATA: the node's own metrics are not channels.
    }
  }

  private async checkSequence(node: EdgeNode, topic: SparkplugTopic, seq: number | null): Promise<void> {
    if (seq !== null && sequenceContinues(node.seq, seq)) {
      node.seq = seq;
      return;
    }
    const expected = node.seq === null ? null : (node.seq + 1) % 256;
    node.seq = seq;
    if (expected !== null) {
      await recordFindings(this.db, [
        {
          facilityId: node.facilityId,
          dataSourceId: topic.deviceId,
          kind: 'sequenceGap',
          sourceTime: null,
          detail: { expected, received: seq, topic: topicOf(topic) },
        },
      ]);
    }
    this.requestRebirth(node);
  }

  /** NCMD `Node Control/Rebirth` = true (Sparkplug 3.0 tck-id-operational-behavior-host-reordering-rebirth). */
  private requestRebirth(node: EdgeNode): void {
    const now = Date.now();
    if (now - node.lastRebirthRequest < REBIRTH_INTERVAL_MS || !this.client) return;
    node.lastRebirthRequest = now;
    this.counts.rebirths++;
    const ncmd = encodePayload({
      timestamp: this.now(),
      metrics: [{ name: 'Node Control/Rebirth', type: 'Boolean', value: true }],
    });
    const topic = topicOf({
      groupId: this.options.groupId,
      type: 'NCMD',
      edgeNodeId: node.facilityId,
      deviceId: null,
    });
    this.client.publish(topic, Buffer.from(ncmd), { qos: 0 });
    this.options.log.info(`Live: asked ship ${node.facilityId} for a rebirth`);
  }

  private async deviceBirth(node: EdgeNode, topic: SparkplugTopic, payload: UPayload): Promise<void> {
    const dataSourceId = topic.deviceId!;
    if (!(await shipDataSource(this.db, node.facilityId, dataSourceId))) {
      this.counts.ignored++;
      this.options.log.warn(
        `Live: ship ${node.facilityId} sent a DBIRTH for ${dataSourceId}, not one of its data sources`,
      );
      return;
    }
    const byLocalId = await rawChannelsByLocalId(this.db, dataSourceId);
    const names = new Map<string, Channel>();
    for (const [alias, channel] of node.aliases)
      if (channel.dataSourceId === dataSourceId) node.aliases.delete(alias);
    for (const metric of payload.metrics ?? []) {
      if (!metric.name) continue;
      // By the channel's local id first, then by its name (the logger header's); an unknown one becomes a raw
      // channel of its own name, as a new column of a file does.
      const localId = stringProperty(metric, 'localId');
      const channel: Channel = {
        dataSourceId,
        channel: (localId && byLocalId.get(localId)) || metric.name,
      };
      names.set(metric.name, channel);
      const alias = toNumber(metric.alias);
      if (alias !== null) node.aliases.set(alias, channel);
    }
    node.names.set(dataSourceId, names);
    await setLink(this.db, node.facilityId, true);
    const waiting = node.waiting.filter((w) => w.topic.deviceId === dataSourceId);
    node.waiting = node.waiting.filter((w) => w.topic.deviceId !== dataSourceId);
    for (const w of waiting) await this.deviceData(node, w.topic, w.payload);
  }

  private async deviceData(node: EdgeNode, topic: SparkplugTopic, payload: UPayload): Promise<void> {
    const dataSourceId = topic.deviceId!;
    const names = node.names.get(dataSourceId);
    if (!names) {
      // Data before a birth the host knows (it started after the ship's birth): kept until the rebirth it asked for.
      if (node.waiting.length < WAITING_MAX) node.waiting.push({ topic, payload });
      else this.options.log.warn(`Live: ship ${node.facilityId} sends data without a birth; not kept`);
      this.requestRebirth(node);
      return;
    }
    const now = this.now();
    const payloadTime = toNumber(payload.timestamp);
    const samples: StreamSample[] = [];
    const findings: StreamFindingInput[] = [];
    let unknownAlias = false;
    for (const metric of payload.metrics ?? []) {
      const alias = toNumber(metric.alias);
      const channel =
        (alias !== null ? node.aliases.get(alias) : undefined) ??
        (metric.name ? names.get(metric.name) : undefined);
      if (!channel || channel.dataSourceId !== dataSourceId) {
        unknownAlias = true;
        continue;
      }
      const time = toNumber(metric.timestamp) ?? payloadTime;
      if (time === null) continue;
      const isHistorical = metric.isHistorical === true;
      const sample: StreamSample = {
        facilityId: node.facilityId,
        dataSourceId,
        channel: channel.channel,
        time,
        value: sampleValue(metric),
        isHistorical,
      };
      const finding = clockCheck(sample, node.latestLive.get(dataSourceId) ?? null, now);
      if (finding) {
        findings.push({
          facilityId: node.facilityId,
          dataSourceId,
          kind: finding,
          sourceTime: time,
          detail: {
            channel: sample.channel,
            value: sample.value,
            isHistorical,
            receivedOn: new Date(now).toISOString(),
            ...(finding === 'clockBackwards'
              ? { latest: new Date(node.latestLive.get(dataSourceId)!).toISOString() }
              : {}),
          },
        });
        if (finding === 'future') {
          this.counts.refused++;
          continue;
        }
      }
      if (!isHistorical)
        node.latestLive.set(dataSourceId, Math.max(time, node.latestLive.get(dataSourceId) ?? -Infinity));
      samples.push(sample);
    }
    if (unknownAlias) this.requestRebirth(node);
    // One finding per kind and message is enough to show; the detail names the first sample.
    const shown = [...new Map(findings.map((f) => [f.kind, f])).values()].map((f) => ({
      ...f,
      detail: { ...f.detail, samples: findings.filter((g) => g.kind === f.kind).length },
    }));
    await recordFindings(this.db, shown);
    for (const sample of samples) this.group.push(sample);
  }

  /** Writes the current group (idempotent per ship, channel and source time: a replayed sample changes nothing). */
  private async storeGroup(): Promise<void> {
    if (this.group.length === 0) return;
    const samples = this.group;
    this.group = [];
    try {
      const stored = await storeStreamSamples(this.db, samples);
      this.counts.groups++;
      this.counts.stored += stored.inserted;
      this.counts.duplicates += stored.duplicates;
      for (const [facilityId, range] of stored.touched) widen(this.touched, facilityId, range);
    } catch (error) {
      // Not stored: the ship's edge node replays what the portal has not acknowledged only after a lost link, so
      // the count is logged for the operator; a file upload of the same time fills the gap.
      this.options.log.error(
        { err: error, samples: samples.length },
        'Live: %d streamed samples could not be stored',
        samples.length,
      );
    }
  }
}
