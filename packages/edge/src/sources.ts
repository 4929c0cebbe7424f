import fs from 'node:fs';
import path from 'node:path';
import type { EdgeLog, EdgeNode, Sample } from './edge-node';

/** A sample of a live feed (a gateway's, a PLC poller's): the data source is the feed's. */
export interface FeedSample {
  channel: string;
  time: number | Date;
  value: number | boolean | string | null;
}

/**
 * A live feed's samples through the edge node, as they come: an async iterable (a generator, a stream of objects).
 * Resolves when the feed ends. Samples that arrive together are taken in together (one DDATA when the link is up).
 */
export async function pipeFeed(
  node: EdgeNode,
  dataSourceId: string,
  feed: AsyncIterable<FeedSample | FeedSample[]>,
): Promise<void> {
  for await (const item of feed) {
    const samples = Array.isArray(item) ? item : [item];
    node.publish(samples.map((s) => toSample(dataSourceId, s)));
  }
}

/** The push side of a live feed: `push(sample)` or `push([samples])`. */
export function feedOf(node: EdgeNode, dataSourceId: string): (samples: FeedSample | FeedSample[]) => void {
  return (item) => node.publish((Array.isArray(item) ? item : [item]).map((s) => toSample(dataSourceId, s)));
}

function toSample(dataSourceId: string, sample: FeedSample): Sample {
  const time = sample.time instanceof Date ? sample.time.getTime() : sample.time;
  return { dataSourceId, channel: sample.channel, time, value: sample.value as Sample['value'] };
}

/** A logger file parsed: what the portal's readers make of it (apps/api/src/readers, parseDataFile). */
export interface ParsedFile {
  /** UTC ms, ascending, one per row. */
  timestamps: ArrayLike<number>;
  channels: { channel: string; values: ArrayLike<number>; texts?: (string | null)[] }[];
}

export interface WatchedDataSource {
  id: string;
  name: string;
}

export interface WatchFolderOptions {
  node: EdgeNode;
  folder: string;
  /** Files directly in the folder go to this data source; files in a subfolder named like a data source to it. */
  defaultDataSourceId: string | null;
  dataSources: WatchedDataSource[];
  /** The portal's reader for the data source's configuration (the one home of parsing; the uploader hands it in). */
  parse: (file: { fileName: string; content: Buffer }, dataSourceId: string) => Promise<ParsedFile>;
  /** Which rows of which file were taken in, kept across restarts. */
  stateFile: string;
  /** A file is read once it has not changed for this long (default 5 s). */
  settleMs?: number;
  log?: EdgeLog;
  now?: () => number;
}

interface FileState {
  size: number;
  mtimeMs: number;
  /** Rows already given to the edge node: a file that grows (the logger appends) sends only its new rows. */
  rows: number;
  error?: string;
}

/**
 * One pass over the watch folder: every new or grown logger file is parsed with the portal's reader and its new rows
 * go to the edge node (its disk buffer first). Answers how many samples it took in. A file the reader refuses is
 * logged with the reader's reason and tried again when it changes.
 */
export async function scanFolder(options: WatchFolderOptions): Promise<{ samples: number; files: number }> {
  const log = options.log ?? ((level, message) => console[level](new Date().toISOString(), message));
  const now = options.now ?? Date.now;
  const settleMs = options.settleMs ?? 5000;
  const state = readState(options.stateFile);
  let samples = 0;
  let files = 0;
  for (const file of candidates(options)) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file.full);
    } catch {
      continue;
    }
    const previous = state[file.key];
    if (previous && previous.size === stat.size && previous.mtimeMs === stat.mtimeMs) continue;
    if (now() - stat.mtimeMs < settleMs) continue;
    // A file that shrank was written anew: all of its rows again (the portal keeps one value per channel and time).
    const from = previous && stat.size >= previous.size ? previous.rows : 0;
    try {
      const parsed = await options.parse(
        { fileName: path.basename(file.full), content: fs.readFileSync(file.full) },
        file.dataSourceId,
      );
      const taken: Sample[] = [];
      for (let row = from; row < parsed.timestamps.length; row++) {
        const time = parsed.timestamps[row]!;
        for (const channel of parsed.channels) {
          const text = channel.texts?.[row];
          const value = channel.texts ? (text ?? null) : channel.values[row]!;
          if (value === null || (typeof value === 'number' && Number.isNaN(value))) continue;
          taken.push({ dataSourceId: file.dataSourceId, channel: channel.channel, time, value });
        }
      }
      options.node.publish(taken);
      state[file.key] = { size: stat.size, mtimeMs: stat.mtimeMs, rows: parsed.timestamps.length };
      samples += taken.length;
      files++;
      log(
        'info',
        `${file.key}: ${parsed.timestamps.length - from} new rows, ${taken.length} samples buffered`,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      state[file.key] = { size: stat.size, mtimeMs: stat.mtimeMs, rows: previous?.rows ?? 0, error: message };
      log('warn', `${file.key} could not be read: ${message}`);
    }
    writeState(options.stateFile, state);
  }
  return { samples, files };
}

function candidates(options: WatchFolderOptions): { full: string; key: string; dataSourceId: string }[] {
  const found: { full: string; key: string; dataSourceId: string }[] = [];
  const scan = (folder: string, dataSourceId: string | null) => {
    if (!dataSourceId) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      found.push({ full, key: path.relative(options.folder, full).split(path.sep).join('/'), dataSourceId });
    }
  };
  fs.mkdirSync(options.folder, { recursive: true });
  scan(options.folder, options.defaultDataSourceId);
  for (const source of options.dataSources) scan(path.join(options.folder, source.name), source.id);
  return found;
}

function readState(file: string): Record<string, FileState> {
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { files: Record<string, FileState> }).files ?? {};
  } catch {
    return {};
  }
}

function writeState(file: string, files: Record<string, FileState>): void {
  fs.writeFileSync(`${file}.tmp`, JSON.stringify({ files }, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}
