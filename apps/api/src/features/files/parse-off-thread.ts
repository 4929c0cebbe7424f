import { Worker } from 'node:worker_threads';
import { ReaderError, type ReaderErrorCode } from '../../readers';
import { parseAndPack, type PackedDataFile, type ReadRequest } from './parse-and-pack';

/**
 * Data files from this size on are parsed and packed in a worker thread (one per process, started on first use or by
 * startParseWorker): the event loop keeps answering other requests and sends the file's original to the database
 * while the file is parsed (docs/decisions/0050-storage-performance.md). Smaller files (a logger's day is ~0.5 MB)
 * are parsed in this thread: the hop would cost more than it saves.
 */
export const OFF_THREAD_MIN_BYTES = 2 * 1024 * 1024;

export type WorkerReply =
  | { id: number; ok: true; file: PackedDataFile }
  | { id: number; ok: false; readerError: { code: ReaderErrorCode; message: string } }
  | { id: number; ok: false; message: string };

interface Pending {
  resolve: (file: PackedDataFile) => void;
  reject: (error: Error) => void;
}

class ParseWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failed = false;
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
      const job = this.pending.get(reply.id);
      if (!job) return;
      this.settle(reply.id);
      if (reply.ok) job.resolve(reply.file);
      else if ('readerError' in reply) job.reject(new ReaderError(reply.readerError.code, reply.readerError.message));
      else job.reject(new Error(reply.message));
    });
    const fail = (error: Error) => {
      if (this.failed) return;
      this.failed = true;
      onGone(this);
      markFailed(error);
      for (const job of this.pending.values()) job.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`The parse worker stopped (exit code ${code})`)));
  }

  private settle(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
  }

  run(request: ReadRequest): Promise<PackedDataFile> {
    const id = this.nextId++;
    // One copy into shared memory, which the worker reads in place (a structured clone would copy twice); the
    // caller keeps its own buffer for the original.
    const shared = new Uint8Array(new SharedArrayBuffer(request.content.byteLength));
    shared.set(request.content);
    return new Promise<PackedDataFile>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, request: { ...request, content: shared } });
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

let shared: ParseWorker | null = null;
const worker = () => (shared ??= new ParseWorker((gone) => shared === gone && (shared = null)));

/** Parses and packs a data file (throws its ReaderError): large files in the worker thread, small ones here. */
export function readDataFile(request: ReadRequest): Promise<PackedDataFile> {
  if (request.content.length < OFF_THREAD_MIN_BYTES) return parseAndPack(request);
  return worker().run(request);
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
