/**
 * The Sparkplug B topics of the portal's contract (docs/decisions/0120-live-sparkplug-host.md), as pure rules.
 * Sparkplug 3.0 §4.1: `spBv1.0/<group_id>/<message_type>/<edge_node_id>[/<device_id>]`
 * (tck-id-topic-structure-namespace-a); the host's state `spBv1.0/STATE/<host_id>` (§4.1.3).
 */

export const NAMESPACE = 'spBv1.0';

export const EDGE_MESSAGE_TYPES = ['NBIRTH', 'NDEATH', 'DBIRTH', 'DDEATH', 'NDATA', 'DDATA'] as const;
export const COMMAND_MESSAGE_TYPES = ['NCMD', 'DCMD'] as const;
export type EdgeMessageType = (typeof EDGE_MESSAGE_TYPES)[number];
export type MessageType = EdgeMessageType | (typeof COMMAND_MESSAGE_TYPES)[number];

export interface SparkplugTopic {
  groupId: string;
  type: MessageType;
  edgeNodeId: string;
  deviceId: string | null;
}

const TYPES: readonly string[] = [...EDGE_MESSAGE_TYPES, ...COMMAND_MESSAGE_TYPES];
/** The message types that name a device (a data source) in their topic's fifth level. */
const DEVICE_TYPES: readonly string[] = ['DBIRTH', 'DDEATH', 'DDATA', 'DCMD'];

/** A Sparkplug topic's parts, or null for anything else (the STATE topic, another namespace, a wrong shape). */
export function parseTopic(topic: string): SparkplugTopic | null {
  const parts = topic.split('/');
  if (parts.length < 4 || parts.length > 5 || parts[0] !== NAMESPACE) return null;
  const [, groupId, type, edgeNodeId, deviceId] = parts as [string, string, string, string, string?];
  if (!groupId || !edgeNodeId || !TYPES.includes(type)) return null;
  const needsDevice = DEVICE_TYPES.includes(type);
  if (needsDevice !== (deviceId !== undefined) || deviceId === '') return null;
  return { groupId, type: type as MessageType, edgeNodeId, deviceId: deviceId ?? null };
}

export const topicOf = (t: SparkplugTopic) =>
  [NAMESPACE, t.groupId, t.type, t.edgeNodeId, ...(t.deviceId ? [t.deviceId] : [])].join('/');

/** The host application's STATE topic (retained, JSON `{"online": bool, "timestamp": ms}`). */
export const stateTopic = (hostId: string) => `${NAMESPACE}/STATE/${hostId}`;

/** What the host subscribes: everything of its group. */
export const groupFilter = (groupId: string) => `${NAMESPACE}/${groupId}/#`;
