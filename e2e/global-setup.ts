import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mqttPort } from './support';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Starts the portal as `npm start` would (without the web build, done by test:e2e) on a fresh data folder. */
export default async function globalSetup(): Promise<void> {
  const port = Number(process.env.E2E_PORT ?? 18181);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO: 'on',
    DEMO_SHIPS: process.env.E2E_DEMO_SHIPS ?? '6',
    DEMO_DAYS: process.env.E2E_DEMO_DAYS ?? '45',
    LOG_LEVEL: 'warn',
    // Every browser test signs in from 127.0.0.1: the sign-in limit per address is for attackers, not for the suite.
    LOGIN_ATTEMPTS_PER_MINUTE: '500',
    // The webhook receivers of the browser tests listen on 127.0.0.1: private networks are refused by default.
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    // Live data on, with the embedded broker on a port of this server's own (support.ts mqttUrl), so that a spec's
    // own ship can stream (live.spec.ts). The demo ship does not stream by itself: the suite compares what a page
    // shows with what the API answers a moment apart, and its live stream would move the figures in between
    // (live.spec.ts starts a demo ship's stream on a past day while it runs).
    LIVE: process.env.E2E_LIVE ?? 'on',
    DEMO_STREAM: process.env.E2E_DEMO_STREAM ?? 'off',
    MQTT_HOST: '127.0.0.1',
    MQTT_PORT: String(mqttPort()),
  } as NodeJS.ProcessEnv;
  // A PostgreSQL database of one's own to look into while a spec runs (E2E_DATABASE_URL); else the embedded one.
  if (process.env.E2E_DATABASE_URL) env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  else delete env.DATABASE_URL;
  const child = spawn('npx', ['tsx', 'apps/api/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  fs.mkdirSync(path.join(root, 'e2e', '.artifacts'), { recursive: true });
  const log = fs.createWriteStream(path.join(root, 'e2e', '.artifacts', `server-${port}.log`));
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  fs.writeFileSync(
    path.join(root, 'e2e', '.artifacts', `server-${process.env.E2E_PORT ?? 18181}.json`),
    JSON.stringify({ pid: child.pid, dataDir }),
  );
  const deadline = Date.now() + 420_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with ${child.exitCode}; see e2e/.artifacts/server-${port}.log`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/version`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not start within 420 s');
}
