// Entry of the parse worker thread: the API runs its TypeScript source through tsx (docs/decisions/0002), so the
// worker registers tsx before it loads parse-worker.ts.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
