/**
 * A parse worker's thread (started by parse-off-thread.ts through parse-worker-boot.mjs). The first worker parses one
 * data file per message and sends back its head, then each column as soon as it is packed, so the API's event loop
 * stays free and stores what is ready while the rest is packed. A large delimited file is read in two parts at once:
 * the first worker reads the first half of the rows, the second worker the rest into the same shared memory, and the
 * first takes the second's findings in before it settles the types and packs (readers/delimited.ts DelimitedPart).
 */
import { parentPort } from 'node:worker_threads';
import { joinDelimitedParts, readDelimitedPart, ReaderError, type RestOfFile } from '../../readers';
import { ColumnArena } from '../../readers/arena';
import type { DelimitedPart } from '../../readers/delimited';
import { packForStorage, parseForStorage, type ReadRequest } from './parse-and-pack';
import type { PartPlan, WorkerMessage, WorkerReply } from './parse-off-thread';

const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs in a worker thread');

/** Bytes the main thread can take over without a copy: a buffer of their own (the worker drops its reference). */
const own = (bytes: Uint8Array) =>
  bytes.byteOffset === 0 &&
  bytes.byteLength === bytes.buffer.byteLength &&
  !(bytes.buffer instanceof SharedArrayBuffer)
    ? bytes
    : bytes.slice();

/** The worker's column memory, reused from one file to the next (each is packed and sent before the next begins). */
const arena = new ColumnArena(512 * 1024 * 1024);
/** Files wait their turn: the arena serves one parse at a time. */
let previous: Promise<void> = Promise.resolve();

/** The second parts' findings, by file: waited for by the first part, or arrived before it asked. */
const rests = new Map<
  number,
  { promise: Promise<RestOfFile>; settle: (outcome: { rest: RestOfFile } | { error: Error }) => void }
>();
function restOf(id: number) {
  let entry = rests.get(id);
  if (!entry) {
    let settle: (outcome: { rest: RestOfFile } | { error: Error }) => void = () => undefined;
    const promise = new Promise<RestOfFile>((resolve, reject) => {
      settle = (outcome) => ('rest' in outcome ? resolve(outcome.rest) : reject(outcome.error));
    });
    promise.catch(() => undefined);
    entry = { promise, settle };
    rests.set(id, entry);
  }
  return entry;
}

const failure = (id: number, error: unknown): WorkerReply =>
  error instanceof ReaderError
    ? { id, kind: 'failed', readerError: { code: error.code, message: error.message } }
    : { id, kind: 'failed', message: error instanceof Error ? error.message : String(error) };

function partOf(plan: PartPlan): DelimitedPart {
  const memory = Array.from(
    { length: plan.columns + 1 },
    (_, i) => new Float64Array(plan.memory, i * plan.capacity * 8, plan.capacity),
  );
  return {
    start: plan.start,
    end: plan.end,
    rowsBefore: plan.role === 'first' ? 0 : plan.rowsBefore,
    memory,
  };
}

async function run(id: number, request: ReadRequest, plan: PartPlan | undefined): Promise<void> {
  const content = Buffer.from(request.content.buffer, request.content.byteOffset, request.content.byteLength);
  if (plan?.role === 'rest') {
    // The second part: read, and its findings to the first part (through the main thread).
    try {
      const rows = readDelimitedPart(content, request.configuration, request.options, partOf(plan));
      port!.postMessage({
        id,
        kind: 'rest',
        rest: { state: rows.columns.state(), rowCount: rows.rowCount },
      } satisfies WorkerReply);
    } catch (error) {
      port!.postMessage({ ...failure(id, error), kind: 'rest-failed' } as WorkerReply);
    }
    return;
  }
  try {
    let packed: ReturnType<typeof packForStorage>;
    if (plan) {
      const first = readDelimitedPart(content, request.configuration, request.options, partOf(plan));
      if (first.rowCount !== plan.rowsBefore) throw new Error('The parts of the file were planned wrongly');
      // A row of the first part that fails came before any of the rest, so only now the rest's outcome counts.
      const rest = await restOf(id).promise;
      packed = packForStorage(joinDelimitedParts(first, rest, request.configuration, request.options));
    } else {
      packed = await parseForStorage({ ...request, options: { ...request.options, arena } });
    }
    const { head, columns } = packed;
    const timestamps = own(head.timestamps);
    port!.postMessage({ id, kind: 'head', head: { ...head, timestamps } } satisfies WorkerReply, [
      timestamps.buffer as ArrayBuffer,
    ]);
    for (const column of columns) {
      const values = own(column.values);
      port!.postMessage({ id, kind: 'column', column: { ...column, values } } satisfies WorkerReply, [
        values.buffer as ArrayBuffer,
      ]);
    }
    port!.postMessage({ id, kind: 'end' } satisfies WorkerReply);
  } catch (error) {
    port!.postMessage(failure(id, error));
  } finally {
    rests.delete(id);
  }
}

port.on('message', (message: WorkerMessage) => {
  if (message.kind === 'rest') {
    // The second part's outcome, relayed by the main thread: not queued behind the files (the first part waits for it).
    restOf(message.id).settle(
      message.rest
        ? { rest: message.rest }
        : {
            error: message.readerError
              ? new ReaderError(message.readerError.code, message.readerError.message)
              : new Error(message.message ?? 'the second part failed'),
          },
    );
    return;
  }
  previous = previous.then(() => run(message.id, message.request, message.part)).catch(() => undefined);
});
port.postMessage({ ready: true });
