import fs from 'node:fs';
import path from 'node:path';

/** One sample of a channel of a data source, at its source time (ms since epoch). */
export interface Sample {
  dataSourceId: string;
  channel: string;
  time: number;
  value: number | boolean | string;
}

/** A run of buffered samples of one data source, [from, to) in the buffer's numbering. */
export interface Batch {
  from: number;
  to: number;
  samples: Sample[];
}

export interface DroppedSamples {
  count: number;
  /** Source times of the oldest and the newest sample dropped (ms), null when they could not be read. */
  firstTime: number | null;
  lastTime: number | null;
}

export interface DiskBufferOptions {
  /** The folder of the segments; made when missing. */
  dir: string;
  /** Most bytes the segments may take; the oldest segment is dropped beyond it. */
  maxBytes: number;
  /** A segment is closed (and a new one begun) at this size; at most maxBytes / 8. */
  segmentBytes?: number;
  onDrop?: (dropped: DroppedSamples) => void;
}

interface Segment {
  /** The number of its first sample. */
  first: number;
  count: number;
  bytes: number;
  file: string;
}

const SEGMENT = /^seg-(\d{16})\.jsonl$/;
const ACKED_FILE = 'acked.json';
export const DEFAULT_SEGMENT_BYTES = 1024 * 1024;

const segmentName = (first: number) => `seg-${String(first).padStart(16, '0')}.jsonl`;

/** Complete lines of a segment's text: a line cut by a crash in the middle of a write is not a sample. */
function completeLines(text: string): string[] {
  const end = text.lastIndexOf('\n');
  return end < 0 ? [] : text.slice(0, end).split('\n');
}

function parseLine(line: string): Sample | null {
  try {
    const [dataSourceId, channel, time, value] = JSON.parse(line) as [
      string,
      string,
      number,
      Sample['value'],
    ];
    return typeof time === 'number' ? { dataSourceId, channel, time, value } : null;
  } catch {
    return null;
  }
}

/**
 * The edge node's store and forward: every sample is written here first (a write-ahead log of JSON lines in
 * segment files) and deleted only once the broker acknowledged it (ack), so what could not be sent survives a lost
 * link and a restart. Samples are numbered in arrival order; `take` hands them out oldest first, `rewind` goes back
 * to the oldest not acknowledged (after a lost connection). Bounded by bytes: beyond `maxBytes` the oldest segment is
 * dropped, and `onDrop` says how many samples of which times were lost.
 */
export class DiskBuffer {
  private readonly dir: string;
  private readonly maxBytes: number;
  private readonly segmentBytes: number;
  private readonly onDrop: (dropped: DroppedSamples) => void;
  private segments: Segment[] = [];
  /** The segment appended to, opened in this run (segments of an earlier run are never appended to). */
  private tail: Segment | null = null;
  /** Samples before this number are acknowledged (or dropped). */
  private acked = 0;
  /** The next sample `take` hands out. */
  private sendIndex = 0;
  /** Acknowledged batches ahead of `acked`, by their first number. */
  private readonly ackedAhead = new Map<number, number>();
  /** The samples of the segment `take` reads, loaded once. */
  private loaded: { first: number; samples: (Sample | null)[] } | null = null;
  /** Samples dropped since the buffer was opened. */
  dropped = 0;

  constructor(options: DiskBufferOptions) {
    this.dir = options.dir;
    this.maxBytes = options.maxBytes;
    this.segmentBytes = Math.max(
      256,
      Math.min(options.segmentBytes ?? DEFAULT_SEGMENT_BYTES, Math.floor(options.maxBytes / 8)),
    );
    this.onDrop = options.onDrop ?? (() => {});
    fs.mkdirSync(this.dir, { recursive: true });
    this.open();
  }

  /** Reads what an earlier run left: the segments, and how far they were acknowledged. */
  private open(): void {
    const names = fs
      .readdirSync(this.dir)
      .filter((name) => SEGMENT.test(name))
      .sort();
    this.segments = names.map((name, i) => {
      const file = path.join(this.dir, name);
      const first = Number(SEGMENT.exec(name)![1]);
      const next = names[i + 1];
      const bytes = fs.statSync(file).size;
      const count =
        next === undefined
          ? completeLines(fs.readFileSync(file, 'utf8')).length
          : Number(SEGMENT.exec(next)![1]) - first;
      return { first, count, bytes, file };
    });
    try {
      const stored = JSON.parse(fs.readFileSync(path.join(this.dir, ACKED_FILE), 'utf8')) as {
        acked: number;
      };
      this.acked = Number.isSafeInteger(stored.acked) ? stored.acked : 0;
    } catch {
      this.acked = 0;
    }
    const first = this.segments[0]?.first;
    if (first !== undefined && this.acked < first) this.acked = first;
    this.sendIndex = this.acked;
    this.deleteAcknowledged();
  }

  /** The number the next appended sample gets. */
  get nextIndex(): number {
    const last = this.segments.at(-1);
    return last ? last.first + last.count : this.acked;
  }

  /** Samples kept and not yet acknowledged. */
  get pending(): number {
    return this.nextIndex - this.acked;
  }

  get bytes(): number {
    return this.segments.reduce((sum, s) => sum + s.bytes, 0);
  }

  /** Writes samples at the end (on disk before this returns), then drops the oldest beyond the bound. */
  append(samples: readonly Sample[]): void {
    if (samples.length === 0) return;
    let at = 0;
    while (at < samples.length) {
      const tail = this.writableTail();
      let text = '';
      let textBytes = 0;
      const start = at;
      while (at < samples.length && tail.bytes + textBytes < this.segmentBytes) {
        const s = samples[at++]!;
        const line = `${JSON.stringify([s.dataSourceId, s.channel, s.time, s.value])}\n`;
        text += line;
        textBytes += Buffer.byteLength(line);
      }
      fs.appendFileSync(tail.file, text);
      tail.bytes += textBytes;
      tail.count += at - start;
      if (this.loaded?.first === tail.first) this.loaded.samples.push(...samples.slice(start, at));
      if (tail.bytes >= this.segmentBytes) this.tail = null;
    }
    this.enforceBound();
  }

  private writableTail(): Segment {
    if (this.tail) return this.tail;
    const first = this.nextIndex;
    const segment = { first, count: 0, bytes: 0, file: path.join(this.dir, segmentName(first)) };
    fs.writeFileSync(segment.file, '');
    this.segments.push(segment);
    this.tail = segment;
    return segment;
  }

  private enforceBound(): void {
    while (this.bytes > this.maxBytes && this.segments.length > 1) {
      const oldest = this.segments.shift()!;
      const end = oldest.first + oldest.count;
      const lost = end - Math.max(oldest.first, this.acked);
      let firstTime: number | null = null;
      let lastTime: number | null = null;
      try {
        const lines = completeLines(fs.readFileSync(oldest.file, 'utf8'));
        const from = Math.max(0, this.acked - oldest.first);
        firstTime = parseLine(lines[from] ?? '')?.time ?? null;
        lastTime = parseLine(lines.at(-1) ?? '')?.time ?? null;
      } catch {
        // The times are for the log line only.
      }
      fs.rmSync(oldest.file, { force: true });
      if (this.loaded?.first === oldest.first) this.loaded = null;
      if (this.acked < end) this.setAcked(end);
      if (this.sendIndex < end) this.sendIndex = end;
      for (const from of [...this.ackedAhead.keys()]) if (from < end) this.ackedAhead.delete(from);
      if (lost > 0) {
        this.dropped += lost;
        this.onDrop({ count: lost, firstTime, lastTime });
      }
    }
  }

  /**
   * The next samples to send, oldest first: at most `max`, all of one data source, within one segment; null when
   * everything was handed out.
   */
  take(max: number): Batch | null {
    if (this.sendIndex < this.acked) this.sendIndex = this.acked;
    const segment = this.segments.find(
      (s) => s.first <= this.sendIndex && this.sendIndex < s.first + s.count,
    );
    if (!segment) return null;
    if (this.loaded?.first !== segment.first) {
      const lines = completeLines(fs.readFileSync(segment.file, 'utf8')).slice(0, segment.count);
      this.loaded = { first: segment.first, samples: lines.map(parseLine) };
    }
    const samples: Sample[] = [];
    const from = this.sendIndex;
    let to = from;
    const end = segment.first + segment.count;
    let dataSourceId: string | null = null;
    while (to < end && samples.length < max) {
      const sample = this.loaded.samples[to - segment.first];
      if (sample) {
        if (dataSourceId !== null && sample.dataSourceId !== dataSourceId) break;
        dataSourceId = sample.dataSourceId;
        samples.push(sample);
      }
      to++;
    }
    this.sendIndex = to;
    return { from, to, samples };
  }

  /** The broker has the batch [from, to): it is deleted once everything before it is acknowledged too. */
  ack(from: number, to: number): void {
    if (to <= this.acked) return;
    this.ackedAhead.set(Math.max(from, this.acked), to);
    let acked = this.acked;
    for (let next = this.ackedAhead.get(acked); next !== undefined; next = this.ackedAhead.get(acked)) {
      this.ackedAhead.delete(acked);
      acked = next;
    }
    if (acked !== this.acked) {
      this.setAcked(acked);
      this.deleteAcknowledged();
    }
  }

  /** After a lost connection: what was handed out and not acknowledged is handed out again, oldest first. */
  rewind(): void {
    this.ackedAhead.clear();
    this.sendIndex = this.acked;
  }

  private setAcked(acked: number): void {
    this.acked = acked;
    const file = path.join(this.dir, ACKED_FILE);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify({ acked }));
    fs.renameSync(`${file}.tmp`, file);
  }

  /** Segments wholly acknowledged go (the tail too: the next sample begins a new one). */
  private deleteAcknowledged(): void {
    while (this.segments.length > 0) {
      const oldest = this.segments[0]!;
      if (oldest.first + oldest.count > this.acked) break;
      if (oldest === this.tail) this.tail = null;
      this.segments.shift();
      fs.rmSync(oldest.file, { force: true });
      if (this.loaded?.first === oldest.first) this.loaded = null;
    }
  }
}
