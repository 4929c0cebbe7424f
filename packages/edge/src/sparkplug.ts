import sparkplugPayload from 'sparkplug-payload';
import type { UMetric, UPayload } from 'sparkplug-payload/lib/sparkplugbpayload';

/**
 * The Sparkplug B pieces of the portal's contract (docs/decisions/0121-edge-node.md). Section numbers are those of
 * the Eclipse Sparkplug 3.0.0 specification.
 */

/** §4.1.1: the namespace element of every Sparkplug B topic. */
export const NAMESPACE = 'spBv1.0';
/** The portal's default group_id (the contract; `groupId` in the edge node's configuration). */
export const DEFAULT_GROUP_ID = 'psdu';
/** §6.4.19 and [tck-id-payloads-ndata-seq-inc]: seq runs 0..255, then returns to 0. */
export const SEQ_MODULO = 256;
/** §6.4.20 / [tck-id-payloads-nbirth-bdseq]: bdSeq runs 0..255 like seq, one step per MQTT CONNECT. */
export const BDSEQ_MODULO = 256;
/** §8.2 (Node Control/Rebirth): the NBIRTH's Boolean metric a host sets to true in an NCMD to ask for births. */
export const REBIRTH_METRIC = 'Node Control/Rebirth';
/** §6.4.20: the NBIRTH's and the NDEATH's session number metric. */
export const BDSEQ_METRIC = 'bdSeq';

export type MessageType = 'NBIRTH' | 'NDEATH' | 'DBIRTH' | 'DDEATH' | 'NDATA' | 'DDATA' | 'NCMD' | 'DCMD';

/** §4.1: `spBv1.0/<group_id>/<message_type>/<edge_node_id>[/<device_id>]`. */
export function topicOf(groupId: string, type: MessageType, edgeNodeId: string, deviceId?: string): string {
  return [NAMESPACE, groupId, type, edgeNodeId, ...(deviceId === undefined ? [] : [deviceId])].join('/');
}

export interface ParsedTopic {
  groupId: string;
  type: MessageType;
  edgeNodeId: string;
  deviceId?: string;
}

export function parseTopic(topic: string): ParsedTopic | null {
  const [namespace, groupId, type, edgeNodeId, deviceId, ...rest] = topic.split('/');
  if (namespace !== NAMESPACE || !groupId || !type || !edgeNodeId || rest.length > 0) return null;
  return { groupId, type: type as MessageType, edgeNodeId, ...(deviceId ? { deviceId } : {}) };
}

export type { UMetric as Metric, UPayload as Payload };

// sparkplug-payload is CommonJS with `get(namespace)`: the codec of the namespace, made once.
const codec = sparkplugPayload.get(NAMESPACE)!;

export function encodePayload(payload: UPayload): Uint8Array {
  return codec.encodePayload(payload);
}

export function decodePayload(bytes: Uint8Array): UPayload {
  return codec.decodePayload(bytes);
}

/** A UInt64, Int64 or Long value as a plain number (timestamps, bdSeq, seq, aliases are far below 2^53). */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (value && typeof value === 'object' && 'toNumber' in value)
    return (value as { toNumber(): number }).toNumber();
  return Number(value);
}
