import { Worker } from 'node:worker_threads';
import { ReaderError, type ReaderErrorCode } from '../../readers';
import { parseForStorage, type PackedColumn, type PackedHead, type ReadRequest } from './parse-and-pack';

/**
 * Data files from this size on are parsed and packed in a worker thread (one per process, started on first use or by
 * startParseWorker): the event loop keeps answering other requests and stores the file's original, then its
 * columns as they are packed, while the worker works (docs/decisions/0050-storage-performance.md). Smaller files (a
 * logger's day is ~0.5 MB) are parsed in this thread: the hop would cost more than it saves.
 */
export const OFF_THREAD_MIN_BYTES = 2 * 1024 * 1024;

export type WorkerReply =
  | { id: number; kind: 'head'; head: PackedHead }
  | { id: number; kind: 'column'; column: PackedColumn }
  | { id: number; kind: 'end' }
  | { id: number; kind: 'failed'; readerError: { code: ReaderErrorCode; message: string } }
  | { id: number; kind: 'failed'; message: string };

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
 * Shared memory kept between large uploads, up to this much in all: fresh memory costs its page faults on first
 * touch (~70 ms per 100 MB here), on the path of every large upload before the worker can begin.
 */
const SHARED_POOL_BYTES = 256 * 1024 * 1024;

/** SharedArrayBuffers that carried a file to the worker and are free again. */
class SharedBufferPool {
  private readonly free: SharedArrayBuffer[] = [];

  /** Shared memory of at least `size` bytes, from the pool when one is large enough. */
  take(size: number): SharedArrayBuffer {
    const at = this.free.findIndex((buffer) => buffer.byteLength >= size);
    if (at >= 0) return this.free.splice(at, 1)[0]!;
    return new SharedArrayBuffer(size);
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
  /** The shared memory holding the file, back to the pool once the worker is done with it. */
  shared: SharedArrayBuffer;
}

class ParseWorker {
  private readonly worker: Worker;
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;
  private failed = false;
  private readonly pool = new SharedBufferPool();
  /** Resolves once the worker has loaded its modules. */
  readonly ready: Promise<void>;

  constructor(onGone: (self: ParseWorker) => void) {
    this.worker = new Worker(new URL('./parse-worker-boot.mjs', import.meta.url), { workerData: { entry: new URL('./parse-worker.ts', import.meta.url).href } });
    // Idle, the worker does not keep the process alive; while it works, it does (a script awaiting an import).
    this.worker.unref();
    let markReady: () => void = () => undefined;
    let markFailed: (error: Error) => void = () => undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    this.ready.catch(() => undefined);
    this.worker.on('message', (reply: WorkerReply | { ready: true }) => {
      if ('ready' in reply) return markReady();
      const job = this.jobs.get(reply.id);
      if (!job) return;
      if (reply.kind === 'head') job.settleHead(reply.head);
      else if (reply.kind === 'column') job.columns.push(reply.column);
      else {
        this.settle(reply.id);
        if (reply.kind === 'end') job.columns.end();
        else {
          const error = 'readerError' in reply ? new ReaderError(reply.readerError.code, reply.readerError.message) : new Error(reply.message);
          job.failHead(error);
          job.columns.fail(error);
        }
      }
    });
    const fail = (error: Error) => {
      if (this.failed) return;
      this.failed = true;
      onGone(this);
      markFailed(error);
      for (const job of this.jobs.values()) {
        job.failHead(error);
        job.columns.fail(error);
      }
      this.jobs.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`The parse worker stopped (exit code ${code})`)));
  }

  private settle(id: number): void {
    const job = this.jobs.get(id);
    if (job) this.pool.give(job.shared);
    this.jobs.delete(id);
    if (this.jobs.size === 0) this.worker.unref();
  }

  run(request: ReadRequest): PackedReading {
    const id = this.nextId++;
    const columns = new ColumnStream();
    // One copy into shared memory, which the worker reads in place (a structured clone would copy twice); the
    // caller keeps its own buffer for the original.
    const buffer = this.pool.take(request.content.byteLength);
    const content = new Uint8Array(buffer, 0, request.content.byteLength);
    content.set(request.content);
    let job: Job | undefined;
    const head = new Promise<PackedHead>((resolve, reject) => {
      job = { settleHead: resolve, failHead: reject, columns, shared: buffer };
    });
    head.catch(() => undefined);
    this.jobs.set(id, job!);
    this.worker.ref();
    this.worker.postMessage({ id, request: { ...request, content } });
    return { head, columns };
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
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
