import fs from 'node:fs';
import { strToU8, zipSync } from 'fflate';

const uploaderDir = new URL('./uploader/', import.meta.url);
const read = (name: string) => fs.readFileSync(new URL(name, uploaderDir));

export interface PackageInput {
  serverUrl: string;
  facilityId: string;
  shipName: string;
  /** The upload token, when it was just provisioned; otherwise empty and the README says where to put it. */
  token: string;
  dataSources: { id: string; name: string; isPrimary: boolean }[];
}

/** The uploader's configuration: files in the watch folder go to the primary data source (or the first). */
export function uploaderConfig(input: PackageInput) {
  const primary = input.dataSources.find((d) => d.isPrimary) ?? input.dataSources[0];
  return {
    serverUrl: input.serverUrl,
    facilityId: input.facilityId,
    shipName: input.shipName,
    token: input.token,
    watchFolder: 'outbox',
    stateFile: 'psdu-state.json',
    pollSeconds: 30,
    settleSeconds: 5,
    dataSourceId: primary?.id ?? null,
    dataSources: input.dataSources.map((d) => ({ id: d.id, name: d.name })),
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
- \`config.json\`: where to upload, with which token, which folder to watch.

## How it works
Put logger files in the \`outbox\` folder next to these files. Every 30 seconds, and whenever the folder changes,
the uploader sends each new or changed file once it has not changed for 5 seconds, and remembers what it sent in
\`psdu-state.json\` (delete an entry there to send that file again). Files directly in \`outbox\` go to the data
source "${primary?.name ?? '(none)'}"; files in a subfolder named like a data source go to that one:
${input.dataSources.map((d) => `- \`outbox/${d.name}/\` → ${d.name}`).join('\n') || '- (the ship has no data source yet)'}

## Start
    node psdu-uploader.mjs            # keeps watching
    node psdu-uploader.mjs --once     # one pass, then exit (for a scheduled task)
    pwsh ./psdu-uploader.ps1 [-Once]

Run it as a service or a scheduled task so that it starts with the computer.

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
      'psdu-uploader.mjs': new Uint8Array(read('psdu-uploader.mjs')),
      'psdu-uploader.ps1': new Uint8Array(read('psdu-uploader.ps1')),
      'config.json': strToU8(`${JSON.stringify(uploaderConfig(input), null, 2)}\n`),
      'README.md': strToU8(readme(input, Boolean(input.token))),
    },
    { level: 6 },
  );
}
