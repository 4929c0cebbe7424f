import { Worker } from 'node:worker_threads';
import { READER_IDS, type DelimitedReaderConfiguration } from '@portal/contracts/readers';
import { ReaderError, type ReaderErrorCode, type RestOfFile } from '../../readers';
import { parseForStorage, type PackedColumn, type PackedHead, type ReadRequest } from './parse-and-pack';

/**
 * Data files from this size on are parsed and packed off the event loop, by the parse workers (two per process,
 * started on first use or by startParseWorker; large delimited files are read by both, a half each): the event loop keeps answering other requests and stores the file's original, then its
 * columns as they are packed, while the worker works (docs/decisions/0050-storage-performance.md). Smaller files (a
 * logger's day is ~0.5 MB) are parsed in this thread: the hop would cost more than it saves.
 */
export const OFF_THREAD_MIN_BYTES = 2 * 1024 * 1024;

/** Delimited files from this size on are read in two parts at once, by two worker threads (planParts). */
export const TWO_PARTS_MIN_BYTES = 8 * 1024 * 1024;

type Failure = { readerError: { code: ReaderErrorCode; message: string } } | { message: string };

export type WorkerReply =
  | { id: number; kind: 'head'; head: PackedHead }
  | { id: number; kind: 'column'; column: PackedColumn }
  | { id: number; kind: 'end' }
  | ({ id: number; kind: 'failed' } & Failure)
  | { id: number; kind: 'rest'; rest: RestOfFile }
  | ({ id: number; kind: 'rest-failed' } & Failure);

/** What the main thread sends a worker: a file (or one part of it), or the second part's outcome for the first. */
export type WorkerMessage =
  | { kind: 'file'; id: number; request: ReadRequest; part?: PartPlan }
  | {
      kind: 'rest';
      id: number;
      rest?: RestOfFile;
      readerError?: { code: ReaderErrorCode; message: string };
      message?: string;
    };

/** One of the two parts of a file read at once (readers/delimited.ts DelimitedPart), with the shared memory of its columns. */
export interface PartPlan {
  role: 'first' | 'rest';
  start: number;
  end: number;
  /** Data rows before the second part (the first part's rows). */
  rowsBefore: number;
  /** columns + 1 arrays (the timestamps last) of `capacity` doubles each. */
  memory: SharedArrayBuffer;
  columns: number;
  capacity: number;
}

const LF = 10;
const QUOTE = 34;

function countLineFeeds(content: Uint8Array, from: number, to: number): number {
  const buf = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  let count = 0;
  for (let at = buf.indexOf(LF, from); at >= 0 && at < to; at = buf.indexOf(LF, at + 1)) count++;
  return count;
}

/**
 * Where a large delimited file can be cut in two parts that read the same as the whole: a UTF-8 file without a byte
 * order mark or a quote character (so each line is one row, and bytes are where they are counted here), cut at the
 * line start nearest its middle, after the rows before the data. Null when it cannot, or is not worth it.
 */
export function planParts(
  request: ReadRequest,
  maxColumns = 2000,
): { mid: number; rowsBefore: number; columns: number; capacity: number } | null {
  const content = request.content;
  const len = content.length;
  if (request.readerId !== READER_IDS.delimited || len < TWO_PARTS_MIN_BYTES) return null;
  const config = request.configuration as DelimitedReaderConfiguration;
  const delimiter = config.delimiter.charCodeAt(0);
  if (
    (config.encoding ?? 'utf-8') !== 'utf-8' ||
    config.delimiter.length !== 1 ||
    delimiter >= 128 ||
    delimiter === LF ||
    delimiter === QUOTE
  )
    return null;
  if (content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf) return null;
  const buf = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  if (buf.indexOf(QUOTE) >= 0) return null;
  const mid = buf.indexOf(LF, Math.floor(len / 2)) + 1;
  if (mid <= 0 || mid >= len) return null;
  const headerLines = config.firstDataRow - 1;
  const linesBefore = countLineFeeds(content, 0, mid);
  const rowsBefore = linesBefore - headerLines;
  if (rowsBefore < 1 || config.headerRow > headerLines) return null;
  const lines = linesBefore + countLineFeeds(content, mid, len) + (content[len - 1] === LF ? 0 : 1);
  const capacity = Math.max(1, lines - headerLines);
  // The header's cells, as the reader will count them (no quotes in the file).
  let headerStart = 0;
  for (let line = 1; line < config.headerRow; line++) headerStart = buf.indexOf(LF, headerStart) + 1;
  const headerEnd = buf.indexOf(LF, headerStart);
  let columns = 1;
  for (let at = headerStart; at < headerEnd; at++) if (content[at] === delimiter) columns++;
  if (columns > maxColumns || (columns + 1) * capacity * 8 > 1024 ** 3) return null;
  return { mid, rowsBefore, columns, capacity };
}

/** A data file being read: its head (rejects with the ReaderError of a file that does not parse), then its columns. */
export interface PackedReading {
  head: Promise<PackedHead>;
  columns: AsyncIterable<PackedColumn>;
}

/** Columns as the worker sends them, read in order by one consumer. */
class ColumnStream implements AsyncIterable<PackedColumn> {
  private readonly items: PackedColumn[] = [];
  private ended = false;
  private error: Error | null = null;
  private wake: (() => void) | null = null;

  push(column: PackedColumn): void {
    this.items.push(column);
    this.wake?.();
  }
  end(): void {
    this.ended = true;
    this.wake?.();
  }
  fail(error: Error): void {
    this.error = error;
    this.wake?.();
  }
  async *[Symbol.asyncIterator](): AsyncIterator<PackedColumn> {
    for (;;) {
      const next = this.items.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.error) throw this.error;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
  }
}

/**
 * Shared memory kept between large uploads, up to this much in all (a file and its columns, for files up to ~200 MB):
 * fresh memory costs its page faults on first touch (~70 ms per 100 MB here), on the path of every large upload.
 */
const SHARED_POOL_BYTES = 512 * 1024 * 1024;

/** SharedArrayBuffers that carried a file to the worker and are free again. */
class SharedBufferPool {
  private readonly free: SharedArrayBuffer[] = [];

  /**
   * Shared memory of at least `size` bytes, from the pool when one is large enough. New memory is a little larger
   * than asked (an eighth, in 8 MB steps), so that the next file of about the same size reuses it: a buffer too
   * small for it would be replaced, and shared memory is only freed once every thread that saw it has collected it.
   */
  take(size: number): SharedArrayBuffer {
    // The smallest that fits (the pool is kept largest first).
    const at = this.free.findLastIndex((buffer) => buffer.byteLength >= size);
    if (at >= 0) return this.free.splice(at, 1)[0]!;
    const step = 8 * 1024 * 1024;
    return new SharedArrayBuffer(Math.ceil((size * 1.125) / step) * step);
  }

  /** Back to the pool, while the pool stays within SHARED_POOL_BYTES (the smallest buffers go first). */
  give(buffer: SharedArrayBuffer): void {
    this.free.push(buffer);
    this.free.sort((a, b) => b.byteLength - a.byteLength);
    let total = this.free.reduce((sum, b) => sum + b.byteLength, 0);
    while (total > SHARED_POOL_BYTES) total -= this.free.pop()!.byteLength;
  }
}

interface Job {
  settleHead: (head: PackedHead) => void;
  failHead: (error: Error) => void;
  columns: ColumnStream;
}

/** Shared memory of a file being read, back to the pool once every worker that reads it is done. */
interface Lease {
  buffers: SharedArrayBuffer[];
  remaining: number;
}

/**
 * The two parse workers of this process. The first reads whole files, and the first part of large delimited ones;
 * the second only ever reads second parts, so it never waits for anything and the first's wait for it always ends.
 */
class ParseWorker {
  private readonly worker: Worker;
  private readonly helper: Worker;
  private readonly jobs = new Map<number, Job>();
  private readonly leases = new Map<number, Lease>();
  private nextId = 1;
  private failed = false;
  private readonly pool = new SharedBufferPool();
  /** Resolves once both workers have loaded their modules. */
  readonly ready: Promise<void>;

  constructor(onGone: (self: ParseWorker) => void) {
    const start = () =>
      new Worker(new URL('./parse-worker-boot.mjs', import.meta.url), {
        workerData: { entry: new URL('./parse-worker.ts', import.meta.url).href },
      });
    this.worker = start();
    this.helper = start();
    // Idle, the workers do not keep the process alive; while they work, they do (a script awaiting an import).
    this.worker.unref();
    this.helper.unref();
    const readiness = (worker: Worker) =>
      new Promise<void>((resolve, reject) => {
        worker.on('message', (reply: { ready?: true }) => reply.ready && resolve());
        worker.once('error', reject);
        worker.once('exit', () => reject(new Error('The parse worker stopped before it was ready')));
      });
    this.ready = Promise.all([readiness(this.worker), readiness(this.helper)]).then(() => undefined);
    this.ready.catch(() => undefined);
    this.worker.on('message', (reply: WorkerReply | { ready: true }) => {
      if ('ready' in reply) return;
      const job = this.jobs.get(reply.id);
      if (!job) return;
      if (reply.kind === 'head') job.settleHead(reply.head);
      else if (reply.kind === 'column') job.columns.push(reply.column);
      else if (reply.kind === 'end' || reply.kind === 'failed') {
        this.settle(reply.id);
        if (reply.kind === 'end') job.columns.end();
        else {
          const error =
            'readerError' in reply
              ? new ReaderError(reply.readerError.code, reply.readerError.message)
              : new Error(reply.message);
          job.failHead(error);
          job.columns.fail(error);
        }
      }
    });
    this.helper.on('message', (reply: WorkerReply | { ready: true }) => {
      if ('ready' in reply || (reply.kind !== 'rest' && reply.kind !== 'rest-failed')) return;
      this.release(reply.id);
      // To the first part, unless it is over already (it failed on an earlier row).
      if (!this.jobs.has(reply.id)) return;
      const message: WorkerMessage =
        reply.kind === 'rest'
          ? { kind: 'rest', id: reply.id, rest: reply.rest }
          : {
              kind: 'rest',
              id: reply.id,
              ...('readerError' in reply ? { readerError: reply.readerError } : { message: reply.message }),
            };
      this.worker.postMessage(message);
    });
    const fail = (error: Error) => {
      if (this.failed) return;
      this.failed = true;
      onGone(this);
      for (const job of this.jobs.values()) {
        job.failHead(error);
        job.columns.fail(error);
      }
      this.jobs.clear();
      void this.terminate();
    };
    for (const worker of [this.worker, this.helper]) {
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`The parse worker stopped (exit code ${code})`)));
    }
  }

  private settle(id: number): void {
    this.jobs.delete(id);
    this.release(id);
    if (this.jobs.size === 0) {
      this.worker.unref();
      this.helper.unref();
    }
  }

  /** One worker is done with a file's shared memory; the last one gives it back to the pool. */
  private release(id: number): void {
    const lease = this.leases.get(id);
    if (!lease || --lease.remaining > 0) return;
    this.leases.delete(id);
    for (const buffer of lease.buffers) this.pool.give(buffer);
  }

  run(request: ReadRequest): PackedReading {
    const id = this.nextId++;
    const columns = new ColumnStream();
    // One copy into shared memory, which the workers read in place (a structured clone would copy twice); the
    // caller keeps its own buffer for the original.
    const buffer = this.pool.take(request.content.byteLength);
    const content = new Uint8Array(buffer, 0, request.content.byteLength);
    content.set(request.content);
    let job: Job | undefined;
    const head = new Promise<PackedHead>((resolve, reject) => {
      job = { settleHead: resolve, failHead: reject, columns };
    });
    head.catch(() => undefined);
    this.jobs.set(id, job!);
    this.worker.ref();
    const shared = { ...request, content };
    const plan = planParts(shared, request.options.maxColumns);
    if (!plan) {
      this.leases.set(id, { buffers: [buffer], remaining: 1 });
      this.worker.postMessage({ kind: 'file', id, request: shared } satisfies WorkerMessage);
      return { head, columns };
    }
    const memory = this.pool.take((plan.columns + 1) * plan.capacity * 8);
    this.leases.set(id, { buffers: [buffer, memory], remaining: 2 });
    this.helper.ref();
    const part = { memory, columns: plan.columns, capacity: plan.capacity, rowsBefore: plan.rowsBefore };
    this.worker.postMessage({
      kind: 'file',
      id,
      request: shared,
      part: { ...part, role: 'first', start: 0, end: plan.mid },
    } satisfies WorkerMessage);
    this.helper.postMessage({
      kind: 'file',
      id,
      request: shared,
      part: { ...part, role: 'rest', start: plan.mid, end: content.length },
    } satisfies WorkerMessage);
    return { head, columns };
  }

  async terminate(): Promise<void> {
    await Promise.all([this.worker.terminate(), this.helper.terminate()]);
  }
}

let shared: ParseWorker | null = null;
const worker = () => (shared ??= new ParseWorker((gone) => shared === gone && (shared = null)));

/** Parses a data file and packs its columns: large files in the worker thread, small ones here. */
export function readDataFile(request: ReadRequest): PackedReading {
  if (request.content.length >= OFF_THREAD_MIN_BYTES) return worker().run(request);
  const parsing = parseForStorage(request);
  parsing.catch(() => undefined);
  return {
    head: parsing.then((p) => p.head),
    columns: (async function* () {
      yield* (await parsing).columns;
    })(),
  };
}

/** Starts the worker ahead of the first large upload (it takes ~0.5 s to load its modules); resolves when it is ready. */
export function startParseWorker(): Promise<void> {
  return worker().ready;
}

/** Stops the worker (server shutdown, tests); a later large upload starts a new one. */
export async function stopParseWorker(): Promise<void> {
  const current = shared;
  shared = null;
  if (current) await current.terminate();
}
