import sparkplugPayload from 'sparkplug-payload';
import type { UMetric, UPayload } from 'sparkplug-payload/lib/sparkplugbpayload';

/**
 * The Sparkplug B pieces of the portal's contract (docs/decisions/0121-edge-node.md), from the Eclipse Sparkplug 3.0.0
 * specification. Each constant names its requirement id ([tck-id-...]) as the specification and its compatibility kit
 * (TCK) list them; the section numbers given were read in the TCK's requirement list and an Eclipse Tahu issue that
 * quote the specification (secondary sources), the others were not checked and are not given.
 */

/** [tck-id-topic-structure-namespace-a]: the namespace element of every Sparkplug B topic. */
export const NAMESPACE = 'spBv1.0';
/** The portal's default group_id (the contract; `groupId` in the edge node's configuration). */
export const DEFAULT_GROUP_ID = 'psdu';
/** §6.4.19 and [tck-id-payloads-ndata-seq-inc]: seq runs 0..255, then returns to 0. */
export const SEQ_MODULO = 256;
/** [tck-id-payloads-nbirth-bdseq], [tck-id-payloads-ndeath-bdseq]: bdSeq runs 0..255 like seq, one step per CONNECT. */
export const BDSEQ_MODULO = 256;
/** The NBIRTH's Boolean metric a host sets to true in an NCMD to ask for births (the contract). */
export const REBIRTH_METRIC = 'Node Control/Rebirth';
/**
 * §4.2.1.1.2 ([tck-id-topics-nbirth-mqtt]) and the DBIRTH's [tck-id-topics-dbirth-mqtt]: births at QoS 0, not retained.
 * Secondary source: the text of the Eclipse Sparkplug TCK's requirement list, which quotes the specification.
 */
export const BIRTH_QOS = 0;
/** [tck-id-message-flow-edge-node-birth-publish-will-message-qos]: the will (NDEATH) at QoS 1, not retained. */
export const DEATH_QOS = 1;
/**
 * DDATA at QoS 1, a deliberate departure from §4.2.2.2.2 ([tck-id-topics-ddata-mqtt]: QoS 0): the store and forward
 * deletes a sample only on its PUBACK (docs/decisions/0121-edge-node.md).
 */
export const DATA_QOS = 1;
/** The NBIRTH's and the NDEATH's session number metric ([tck-id-payloads-nbirth-bdseq]). */
export const BDSEQ_METRIC = 'bdSeq';

export type MessageType = 'NBIRTH' | 'NDEATH' | 'DBIRTH' | 'DDEATH' | 'NDATA' | 'DDATA' | 'NCMD' | 'DCMD';

/** The contract's topics: `spBv1.0/<group_id>/<message_type>/<edge_node_id>[/<device_id>]`. */
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
