/**
 * The onboard uploader's config.json (features/ship-info/package.ts writes it). Read by the uploader program
 * (main.ts, bundled into psdu-uploader.mjs), never by the server.
 */
export interface UploaderDataSource {
  id: string;
  name: string;
  /** How the portal reads this data source's files (the edge node parses them as the portal does). */
  readerId?: string;
  readerConfiguration?: unknown;
  utcOffsetMinutes?: number;
  /** The channels the portal knows, announced in the DBIRTH: the logger's name, unit, ISO 19848-style local id. */
  channels?: { name: string; unit?: string | null; localId?: string | null }[];
}

export interface UploaderConfig {
  serverUrl: string;
  facilityId: string;
  shipName?: string;
  token?: string;
  /** `upload`: files over HTTPS (the default); `edge-node`: samples over MQTT Sparkplug B. */
  mode?: 'upload' | 'edge-node';
  watchFolder?: string;
  stateFile?: string;
  pollSeconds?: number;
  settleSeconds?: number;
  dataSourceId: string | null;
  dataSources: UploaderDataSource[];
  /** The edge node's broker (mqtt:// or mqtts://) and Sparkplug group. */
  mqttUrl?: string;
  groupId?: string;
  /** A CA certificate file (PEM) for an mqtts:// broker with a private CA. */
  mqttCaFile?: string;
  /** Where the edge node keeps its buffer and state, and the buffer's bound in megabytes (default 256). */
  edgeStateDir?: string;
  bufferMegabytes?: number;
}

/** The edge node's store and forward bound when config.json names none. */
export const DEFAULT_BUFFER_MEGABYTES = 256;

export type UploaderLog = (...parts: unknown[]) => void;
