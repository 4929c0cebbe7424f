import fs from 'node:fs';
import path from 'node:path';
import type { UploaderConfig, UploaderLog } from './config';

/**
 * The uploader's HTTPS mode (Automate file upload): every new or changed file of the watch folder is uploaded to its
 * data source with the upload token, once it has not changed for `settleSeconds`; what was sent is remembered in the
 * state file.
 */
export function httpsUploader(config: UploaderConfig, configDir: string, token: string, log: UploaderLog) {
  const serverUrl = String(config.serverUrl).replace(/\/$/, '');
  const watchFolder = path.resolve(configDir, config.watchFolder || 'outbox');
  const stateFile = path.resolve(configDir, config.stateFile || 'psdu-state.json');
  // A file is uploaded once it has not changed for this long, so a file still being written is not sent half.
  const settleMs = Math.max(0, Number(config.settleSeconds ?? 5)) * 1000;
  const dataSources = Array.isArray(config.dataSources) ? config.dataSources : [];

  type Sent = { size: number; mtimeMs: number; sentOn: string; status: number; errors?: string[] };
  function loadState(): { sent: Record<string, Sent> } {
    try {
      return JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { sent: Record<string, Sent> };
    } catch {
      return { sent: {} };
    }
  }
  function saveState(state: { sent: Record<string, Sent> }) {
    const temp = `${stateFile}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(state, null, 2));
    fs.renameSync(temp, stateFile);
  }

  /** Files directly in the watch folder go to the default data source; files in a subfolder named like a data source go to it. */
  function candidates() {
    const found: { full: string; key: string; dataSourceId: string | null }[] = [];
    const scan = (folder: string, dataSourceId: string | null) => {
      let entries: fs.Dirent[];
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
    return found.filter((f): f is { full: string; key: string; dataSourceId: string } =>
      Boolean(f.dataSourceId),
    );
  }

  async function upload(file: { full: string; dataSourceId: string }) {
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(file.full)]), path.basename(file.full));
    const response = await fetch(
      `${serverUrl}/api/algorithm/facilitydatasource/${encodeURIComponent(file.dataSourceId)}/file`,
      { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form },
    );
    const text = await response.text();
    return { ok: response.ok, status: response.status, text: text.slice(0, 20000) };
  }

  let running = false;
  async function cycle(): Promise<{ failed: number }> {
    if (running) return { failed: 0 };
    running = true;
    const state = loadState();
    let failed = 0;
    try {
      for (const file of candidates()) {
        let stat: fs.Stats;
        try {
          stat = fs.statSync(file.full);
        } catch {
          continue;
        }
        const previous = state.sent[file.key];
        if (previous && previous.size === stat.size && previous.mtimeMs === stat.mtimeMs) continue;
        if (Date.now() - stat.mtimeMs < settleMs) continue;
        try {
          const result = await upload(file);
          // 409: the server has this file already, which is as good as sent.
          if (result.ok || result.status === 409) {
            // The server may take the upload but refuse the file's content (errorMessages): sending it again would
            // not change that, so it counts as sent and the messages are kept in the state file.
            let errors: string[] = [];
            try {
              errors = (JSON.parse(result.text) as { errorMessages?: string[] }).errorMessages ?? [];
            } catch {
              // Not JSON: no messages.
            }
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

  return { watchFolder, serverUrl, settleMs, cycle };
}
