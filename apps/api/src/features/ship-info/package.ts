import fs from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { DEFAULT_GROUP_ID } from '@portal/edge/sparkplug';
import { DEFAULT_BUFFER_MEGABYTES, type UploaderConfig } from './uploader/config';

const uploaderDir = new URL('./uploader/', import.meta.url);
const read = (name: string) => fs.readFileSync(new URL(name, uploaderDir));
/** The uploader as one file (uploader/main.ts bundled by scripts/uploader-build.ts; `npm run build` makes it). */
export const UPLOADER_BUNDLE = new URL('../../../dist/uploader/psdu-uploader.mjs', import.meta.url);

function readBundle(): Buffer {
  try {
    return fs.readFileSync(UPLOADER_BUNDLE);
  } catch {
    throw new Error(`The onboard uploader is not built (${UPLOADER_BUNDLE.pathname}): run npm run build`);
  }
}

export interface PackageDataSource {
  id: string;
  name: string;
  isPrimary: boolean;
  /** How the portal reads its files: the edge node parses them the same way. */
  readerId?: string;
  readerConfiguration?: unknown;
  utcOffsetMinutes?: number;
  /** Its channels as the logger names them, announced in the edge node's DBIRTH. */
  channels?: { name: string; unit: string | null; localId?: string | null }[];
}

export interface PackageInput {
  serverUrl: string;
  facilityId: string;
  shipName: string;
  /** The upload token, when it was just provisioned; otherwise empty and the README says where to put it. */
  token: string;
  dataSources: PackageDataSource[];
  /** The broker the ship's edge node publishes to (MQTT Sparkplug B, config.ts shipBrokerUrl) and its group. */
  mqttUrl?: string | null;
  groupId?: string | null;
  /** `edge-node` needs `mqttUrl`; unset: `edge-node` when a broker is named, else `upload`. */
  mode?: 'upload' | 'edge-node';
  /** The broker's private CA certificate (MQTT_CA_FILE), carried as `broker-ca.pem` and named in `mqttCaFile`. */
  mqttCa?: Buffer | null;
}

/** The file of the package that holds the broker's CA certificate (when the portal has one). */
export const BROKER_CA_FILE = 'broker-ca.pem';

/**
 * The uploader's configuration (uploader/config.ts): files in the watch folder go to the primary data source (or the
 * first); in mode `edge-node`, as samples over MQTT Sparkplug B to `mqttUrl` in group `groupId` (the ship signs in
 * with its upload token, user name the token's credential id, trusting `mqttCaFile` when the portal has a private CA),
 * otherwise as files over HTTPS. The broker and group are written either way,
 * so that switching the mode is the only edit.
 */
export function uploaderConfig(input: PackageInput): UploaderConfig {
  const primary = input.dataSources.find((d) => d.isPrimary) ?? input.dataSources[0];
  return {
    serverUrl: input.serverUrl,
    facilityId: input.facilityId,
    shipName: input.shipName,
    token: input.token,
    mode: input.mqttUrl ? (input.mode ?? 'edge-node') : 'upload',
    mqttUrl: input.mqttUrl ?? '',
    groupId: input.groupId || DEFAULT_GROUP_ID,
    ...(input.mqttCa && input.mqttUrl ? { mqttCaFile: BROKER_CA_FILE } : {}),
    edgeStateDir: 'psdu-edge',
    bufferMegabytes: DEFAULT_BUFFER_MEGABYTES,
    watchFolder: 'outbox',
    stateFile: 'psdu-state.json',
    pollSeconds: 30,
    settleSeconds: 5,
    dataSourceId: primary?.id ?? null,
    dataSources: input.dataSources.map((d) => ({
      id: d.id,
      name: d.name,
      ...(d.readerId ? { readerId: d.readerId, readerConfiguration: d.readerConfiguration } : {}),
      ...(d.utcOffsetMinutes !== undefined ? { utcOffsetMinutes: d.utcOffsetMinutes } : {}),
      ...(d.channels ? { channels: d.channels } : {}),
    })),
  };
}

function readme(input: PackageInput, hasToken: boolean): string {
  const config = uploaderConfig(input);
  const primary = input.dataSources.find((d) => d.id === config.dataSourceId);
  return `# Automate file upload: ${input.shipName}

This package uploads the ship's logger files to the portal (${input.serverUrl}) by itself.

## What is in it
- \`psdu-uploader.mjs\`: the uploader for Node.js 18 or newer (no other software needed).
- \`psdu-uploader.ps1\`: the same for PowerShell 7 or newer, where Node.js is not installed.
- \`config.json\`: where to upload (or, in edge-node mode, which MQTT broker to publish to), with which token,
  which folder to watch.

## How it works
${config.mode === 'edge-node' ? `This package is set up as an edge node (see "Live data" below): it publishes the samples of the files instead of uploading them.\n\n` : ''}Put logger files in the \`outbox\` folder next to these files. Every 30 seconds, and whenever the folder changes,
the uploader sends each new or changed file once it has not changed for 5 seconds, and remembers what it sent in
\`psdu-state.json\` (delete an entry there to send that file again). Files directly in \`outbox\` go to the data
source "${primary?.name ?? '(none)'}"; files in a subfolder named like a data source go to that one:
${input.dataSources.map((d) => `- \`outbox/${d.name}/\` → ${d.name}`).join('\n') || '- (the ship has no data source yet)'}

## Start
    node psdu-uploader.mjs            # keeps watching
    node psdu-uploader.mjs --once     # one pass, then exit (for a scheduled task)
    pwsh ./psdu-uploader.ps1 [-Once]

Run it as a service or a scheduled task so that it starts with the computer.

## Live data (edge-node mode)
With \`"mode": "edge-node"\` and the broker's address in \`"mqttUrl"\` (\`mqtts://\` with TLS; a private CA's
certificate file in \`"mqttCaFile"\`), the uploader does not upload files: it reads them as the portal does and
publishes their samples over MQTT Sparkplug B (group \`"groupId"\`), with the same token. The rows a logger adds to
a file go out as it writes them. What cannot be sent while the link is down is kept on disk in \`psdu-edge/\` (at
most \`"bufferMegabytes"\`, ${DEFAULT_BUFFER_MEGABYTES} by default; beyond it the oldest samples are dropped and the
log says how many) and sent, oldest first, when the link returns, also after a restart. Set \`"mode": "upload"\` to
go back to uploading files over HTTPS. The PowerShell uploader uploads files only.
${config.mqttUrl ? `\nconfig.json names this portal's broker (\`${config.mqttUrl}\`) and group (\`${config.groupId}\`)${config.mqttCaFile ? `, and \`${config.mqttCaFile}\` is the broker's CA certificate` : ''}: the edge node signs in\nwith its upload token, so ${config.mode === 'edge-node' ? 'nothing needs to be edited' : 'setting the mode is the only edit'}.\n` : ''}
## The token
${hasToken ? 'config.json holds the upload token provisioned for this ship. Keep it secret: it lets anyone upload files to this ship.' : 'config.json has no token yet. Press Provision on the ship\'s Info page in the portal, copy the token shown once, and put it in config.json ("token") or in the environment variable PSDU_TOKEN.'}
The token can upload to this ship's data sources only. If it is lost or leaks, revoke it on the ship's Info page and
provision a new one; a revoked token is refused at once.
`;
}

/** The zip named `<lowercased ship name>.zip`: both uploaders, the configuration and a README. */
export function buildUploaderPackage(input: PackageInput): Uint8Array {
  return zipSync(
    {
      'psdu-uploader.mjs': new Uint8Array(readBundle()),
      'psdu-uploader.ps1': new Uint8Array(read('psdu-uploader.ps1')),
      'config.json': strToU8(`${JSON.stringify(uploaderConfig(input), null, 2)}\n`),
      'README.md': strToU8(readme(input, Boolean(input.token))),
      ...(input.mqttCa && input.mqttUrl ? { [BROKER_CA_FILE]: new Uint8Array(input.mqttCa) } : {}),
    },
    { level: 6 },
  );
}
