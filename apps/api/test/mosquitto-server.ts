import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from './wait';

/**
 * A Mosquitto of the test's own, started from the shipped configuration (deploy/mosquitto/mosquitto.conf) with only
 * its paths, its listener's port and address and its user changed: TLS with a CA and a server certificate for
 * 127.0.0.1/localhost made here with openssl, and the dynamic security plugin whose admin is the portal's user (made
 * with `mosquitto_ctrl dynsec init`, as docs/operations.md says). The machine's own Mosquitto (1883) is not touched.
 */
export const MOSQUITTO_BINARY = '/usr/sbin/mosquitto';
export const SHIPPED_CONFIG = new URL('../../../deploy/mosquitto/mosquitto.conf', import.meta.url);

/** Why this machine cannot start one, or null. */
export function mosquittoMissing(): string | null {
  if (!fs.existsSync(MOSQUITTO_BINARY))
    return `${MOSQUITTO_BINARY} is not installed (apt-get install mosquitto)`;
  for (const tool of ['mosquitto_ctrl', 'openssl'])
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
    } catch {
      return `${tool} is not installed`;
    }
  if (!fs.existsSync(pluginPath())) return `the dynamic security plugin (${pluginPath()}) is not installed`;
  return null;
}

function pluginPath(): string {
  const line = /^plugin\s+(\S+)/m.exec(fs.readFileSync(SHIPPED_CONFIG, 'utf8'));
  return line?.[1] ?? '';
}

export interface TestMosquitto {
  /** mqtts://127.0.0.1:<port> (no user). */
  url: string;
  port: number;
  /** The portal's user, the dynamic security admin. */
  admin: { username: string; password: string };
  caFile: string;
  ca: Buffer;
  /** MQTT_URL for the portal: the admin in the address. */
  portalUrl: string;
  log(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Replaces one directive's value; fails when the shipped file lacks it (the test would test something else). */
function setDirective(config: string, directive: string, value: string): string {
  const pattern = new RegExp(`^${directive}\\s+.*$`, 'm');
  if (!pattern.test(config)) throw new Error(`deploy/mosquitto/mosquitto.conf has no '${directive}' line`);
  return config.replace(pattern, `${directive} ${value}`);
}

export async function startTestMosquitto(): Promise<TestMosquitto> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'psdu-mosquitto-'));
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  // A CA, and a server certificate it signs for 127.0.0.1 and localhost.
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=psdu test CA',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.crt'),
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
  );
  fs.writeFileSync(file('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.crt'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    file('server.ext'),
    '-out',
    file('server.crt'),
  );
  const admin = { username: 'psdu-portal', password: randomBytes(18).toString('base64url') };
  execFileSync(
    'mosquitto_ctrl',
    ['dynsec', 'init', file('dynamic-security.json'), admin.username, admin.password],
    { stdio: 'pipe' },
  );
  const port = await freePort();
  let config = fs.readFileSync(SHIPPED_CONFIG, 'utf8');
  config = setDirective(config, 'plugin_opt_config_file', file('dynamic-security.json'));
  config = setDirective(config, 'persistence_location', `${dir}/`);
  config = setDirective(config, 'listener', `${port} 127.0.0.1`);
  config = setDirective(config, 'cafile', file('ca.crt'));
  config = setDirective(config, 'certfile', file('server.crt'));
  config = setDirective(config, 'keyfile', file('server.key'));
  // Run as root, Mosquitto would become the user `mosquitto`, who cannot read this directory.
  if (process.getuid?.() === 0) config += '\nuser root\n';
  fs.writeFileSync(file('mosquitto.conf'), config);

  let output = '';
  const child: ChildProcess = spawn(MOSQUITTO_BINARY, ['-c', file('mosquitto.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  let exited = false;
  child.once('exit', () => (exited = true));
  const stop = async () => {
    if (!exited) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await gone;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      () => {
        if (exited) throw new Error(`mosquitto exited:\n${output}`);
        return / running/.test(output);
      },
      { what: `mosquitto on port ${port} (its log: ${output})`, timeoutMs: 15_000 },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const url = `mqtts://127.0.0.1:${port}`;
  return {
    url,
    port,
    admin,
    caFile: file('ca.crt'),
    ca: fs.readFileSync(file('ca.crt')),
    portalUrl: `mqtts://${admin.username}:${encodeURIComponent(admin.password)}@127.0.0.1:${port}`,
    log: () => output,
    stop,
  };
}
