// Onboard uploader of the scrubber fleet monitoring portal (Automate file upload), built into the single file
// psdu-uploader.mjs (scripts/uploader-build.ts) so that the ship needs Node.js 18 or newer and nothing else.
// Usage: node psdu-uploader.mjs [--config config.json] [--once]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UploaderConfig } from './config';
import { edgeNodeUploader } from './edge-mode';
import { httpsUploader } from './https-upload';

const args = process.argv.slice(2);
const once = args.includes('--once');
const configIndex = args.indexOf('--config');
// Beside the uploader unless --config names another.
const here = path.dirname(fileURLToPath(import.meta.url));
const configPath = path.resolve(
  configIndex >= 0 ? (args[configIndex + 1] ?? 'config.json') : path.join(here, 'config.json'),
);
const configDir = path.dirname(configPath);
const log = (...parts: unknown[]) =>
  console.log(new Date().toISOString(), ...parts.filter((p) => p !== '' && p !== undefined));

let config: UploaderConfig;
try {
  config = JSON.parse(fs.readFileSync(configPath, 'utf8')) as UploaderConfig;
} catch (error) {
  console.error(`Could not read ${configPath}: ${(error as Error).message}`);
  process.exit(2);
}

const token = process.env.PSDU_TOKEN || config.token;
if (!token) {
  console.error(
    'No upload token: put it in config.json ("token") or in the PSDU_TOKEN environment variable.',
  );
  process.exit(2);
}
const pollMs = Math.max(1, Number(config.pollSeconds || 30)) * 1000;

/** Runs `cycle` every poll and whenever the watch folder changes (after the settle time). */
function watch(folder: string, settleMs: number, cycle: () => unknown) {
  setInterval(() => void cycle(), pollMs);
  try {
    let timer: NodeJS.Timeout | undefined;
    fs.watch(folder, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(() => void cycle(), settleMs + 500);
    });
  } catch {
    // Not every platform watches recursively; polling covers it.
  }
}

if (config.mode === 'edge-node') {
  let edge: ReturnType<typeof edgeNodeUploader>;
  try {
    edge = edgeNodeUploader(config, configDir, token, log);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const { node, watchFolder, scan } = edge;
  const settleMs = Math.max(0, Number(config.settleSeconds ?? 5)) * 1000;
  node.start();
  if (once) {
    // One pass: what the folder has is buffered, then sent while the broker answers within the wait.
    await scan();
    const waitMs = Math.max(1, Number(process.env.PSDU_ONCE_WAIT_SECONDS || 60)) * 1000;
    const sent = await Promise.race([
      node.drained().then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitMs).unref()),
    ]);
    const { pending } = node.stats;
    await node.stop();
    if (!sent) log(`${pending} samples kept on disk for the next run (the broker did not take them in time)`);
    process.exit(sent ? 0 : 1);
  } else {
    log(
      `edge node for ${config.shipName ?? 'the ship'}: watching ${watchFolder}; publishing to ${config.mqttUrl}`,
    );
    await scan();
    watch(watchFolder, settleMs, scan);
    const stop = () => void node.stop().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
} else {
  const uploader = httpsUploader(config, configDir, token, log);
  if (once) {
    const { failed } = await uploader.cycle();
    process.exit(failed ? 1 : 0);
  } else {
    log(
      `watching ${uploader.watchFolder} for ${config.shipName ?? 'the ship'}; uploading to ${uploader.serverUrl}`,
    );
    await uploader.cycle();
    watch(uploader.watchFolder, uploader.settleMs, uploader.cycle);
  }
}
