#!/usr/bin/env node
// Onboard uploader of the scrubber fleet monitoring portal (Automate file upload).
// Watches a folder and uploads every new logger file to the ship's data source. Needs Node.js 18 or newer and
// nothing else. Usage: node psdu-uploader.mjs [--config config.json] [--once]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const once = args.includes('--once');
const configIndex = args.indexOf('--config');
const here = path.dirname(fileURLToPath(import.meta.url));
const configPath = path.resolve(configIndex >= 0 ? args[configIndex + 1] : path.join(here, 'config.json'));
const configDir = path.dirname(configPath);
const config = JSON.parse(fs.readFileSync(configPath, 'utf8'));

const token = process.env.PSDU_TOKEN || config.token;
if (!token) {
  console.error(
    'No upload token: put it in config.json ("token") or in the PSDU_TOKEN environment variable.',
  );
  process.exit(2);
}
const serverUrl = String(config.serverUrl).replace(/\/$/, '');
const watchFolder = path.resolve(configDir, config.watchFolder || 'outbox');
const stateFile = path.resolve(configDir, config.stateFile || 'psdu-state.json');
const pollMs = Math.max(1, Number(config.pollSeconds || 30)) * 1000;
// A file is uploaded once it has not changed for this long, so a file still being written is not sent half.
const settleMs = Math.max(0, Number(config.settleSeconds ?? 5)) * 1000;
const dataSources = Array.isArray(config.dataSources) ? config.dataSources : [];

const log = (...parts) => console.log(new Date().toISOString(), ...parts);

function loadState() {
  try {
    return JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  } catch {
    return { sent: {} };
  }
}
function saveState(state) {
  const temp = `${stateFile}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(state, null, 2));
  fs.renameSync(temp, stateFile);
}

/** Files directly in the watch folder go to the default data source; files in a subfolder named like a data source go to it. */
function candidates() {
  const found = [];
  const scan = (folder, dataSourceId) => {
    let entries;
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      if (full === stateFile || full === `${stateFile}.tmp`) continue;
      found.push({ full, key: path.relative(watchFolder, full).split(path.sep).join('/'), dataSourceId });
    }
  };
  fs.mkdirSync(watchFolder, { recursive: true });
  scan(watchFolder, config.dataSourceId);
  for (const ds of dataSources) scan(path.join(watchFolder, ds.name), ds.id);
  return found.filter((f) => f.dataSourceId);
}

async function upload(file, stat) {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(file.full)]), path.basename(file.full));
  const response = await fetch(
    `${serverUrl}/api/algorithm/facilitydatasource/${encodeURIComponent(file.dataSourceId)}/file`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    },
  );
  const text = await response.text();
  return { ok: response.ok, status: response.status, text: text.slice(0, 20000), size: stat.size };
}

let running = false;
async function cycle() {
  if (running) return { failed: 0 };
  running = true;
  const state = loadState();
  let failed = 0;
  try {
    for (const file of candidates()) {
      let stat;
      try {
        stat = fs.statSync(file.full);
      } catch {
        continue;
      }
      const previous = state.sent[file.key];
      if (previous && previous.size === stat.size && previous.mtimeMs === stat.mtimeMs) continue;
      if (Date.now() - stat.mtimeMs < settleMs) continue;
      try {
        const result = await upload(file, stat);
        // 409: the server has this file already, which is as good as sent.
        if (result.ok || result.status === 409) {
          // The server may take the upload but refuse the file's content (errorMessages): sending it again would not
          // change that, so it counts as sent and the messages are kept in the state file.
          let errors = [];
          try {
            errors = JSON.parse(result.text).errorMessages ?? [];
          } catch {}
          state.sent[file.key] = {
            size: stat.size,
            mtimeMs: stat.mtimeMs,
            sentOn: new Date().toISOString(),
            status: result.status,
            ...(errors.length ? { errors } : {}),
          };
          saveState(state);
          log(
            errors.length ? 'refused by the server' : 'uploaded',
            file.key,
            result.status,
            errors.join('; '),
          );
        } else {
          failed++;
          log('upload failed', file.key, result.status, result.text);
          if (result.status === 401)
            log('The upload token was refused: it may have been revoked. Provision a new one.');
        }
      } catch (error) {
        failed++;
        log('upload failed', file.key, error instanceof Error ? error.message : String(error));
      }
    }
  } finally {
    running = false;
  }
  return { failed };
}

if (once) {
  const { failed } = await cycle();
  process.exit(failed ? 1 : 0);
} else {
  log(`watching ${watchFolder} for ${config.shipName ?? 'the ship'}; uploading to ${serverUrl}`);
  await cycle();
  setInterval(() => void cycle(), pollMs);
  try {
    let timer;
    fs.watch(watchFolder, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(() => void cycle(), settleMs + 500);
    });
  } catch {
    // Not every platform watches recursively; polling covers it.
  }
}
