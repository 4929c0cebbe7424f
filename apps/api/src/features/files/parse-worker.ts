/**
 * The parse worker's thread (started by parse-off-thread.ts through parse-worker-boot.mjs): parses one data file
 * per message and sends back its head, then each column as soon as it is packed, so the API's event loop stays free
 * and stores what is ready while the rest is packed.
 */
import { parentPort } from 'node:worker_threads';
import { ReaderError } from '../../readers';
import { ColumnArena } from '../../readers/arena';
import { parseForStorage, type ReadRequest } from './parse-and-pack';
import type { WorkerReply } from './parse-off-thread';

const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs in a worker thread');

/** Bytes the main thread can take over without a copy: a buffer of their own (the worker drops its reference). */
const own = (bytes: Uint8Array) => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && !(bytes.buffer instanceof SharedArrayBuffer) ? bytes : bytes.slice());

/** The worker's column memory, reused from one file to the next (each is packed and sent before the next begins). */
const arena = new ColumnArena(512 * 1024 * 1024);
/** Files wait their turn: the arena serves one parse at a time. */
let previous: Promise<void> = Promise.resolve();

async function run(id: number, request: ReadRequest): Promise<void> {
  try {
    const { head, columns } = await parseForStorage({ ...request, options: { ...request.options, arena } });
    const timestamps = own(head.timestamps);
    port!.postMessage({ id, kind: 'head', head: { ...head, timestamps } } satisfies WorkerReply, [timestamps.buffer as ArrayBuffer]);
    for (const column of columns) {
      const values = own(column.values);
      port!.postMessage({ id, kind: 'column', column: { ...column, values } } satisfies WorkerReply, [values.buffer as ArrayBuffer]);
    }
    port!.postMessage({ id, kind: 'end' } satisfies WorkerReply);
  } catch (error) {
    const reply: WorkerReply =
      error instanceof ReaderError
        ? { id, kind: 'failed', readerError: { code: error.code, message: error.message } }
        : { id, kind: 'failed', message: error instanceof Error ? error.message : String(error) };
    port!.postMessage(reply);
  }
}

port.on('message', (message: { id: number; request: ReadRequest }) => {
  previous = previous.then(() => run(message.id, message.request)).catch(() => undefined);
});
port.postMessage({ ready: true });
