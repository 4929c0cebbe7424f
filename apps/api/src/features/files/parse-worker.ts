/**
 * The parse worker's thread (started by parse-off-thread.ts through parse-worker-boot.mjs): parses and packs one
 * data file per message, so the API's event loop stays free and the original goes to the database meanwhile.
 */
import { parentPort } from 'node:worker_threads';
import { ReaderError } from '../../readers';
import { parseAndPack, type PackedDataFile, type ReadRequest } from './parse-and-pack';
import type { WorkerReply } from './parse-off-thread';

const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs in a worker thread');

port.on('message', (message: { id: number; request: ReadRequest }) => {
  parseAndPack(message.request).then(
    (file) => {
      // The packed columns move to the main thread without a copy: each gets a buffer of its own, handed over.
      const own = (bytes: Uint8Array) => (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && !(bytes.buffer instanceof SharedArrayBuffer) ? bytes : bytes.slice());
      const moved: PackedDataFile = { ...file, timestamps: own(file.timestamps), channels: file.channels.map((c) => ({ ...c, values: own(c.values) })) };
      const transfer = [moved.timestamps.buffer, ...moved.channels.map((c) => c.values.buffer)] as ArrayBuffer[];
      port.postMessage({ id: message.id, ok: true, file: moved } satisfies WorkerReply, [...new Set(transfer)]);
    },
    (error: unknown) => {
      const reply: WorkerReply =
        error instanceof ReaderError
          ? { id: message.id, ok: false, readerError: { code: error.code, message: error.message } }
          : { id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) };
      port.postMessage(reply);
    },
  );
});
port.postMessage({ ready: true });
