import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_NAMES, startQueue, type JobHandlers, type JobOutcome, type Queue } from '../src/jobs';
import { startTestServer, type TestServer } from './harness';
import { waitFor } from './wait';

/**
 * The job queue's barrier (`pending`, `drained`; jobs/queue.ts) on the real pg-boss (PGlite, or PostgreSQL with
 * DATABASE_URL): what tests wait on before they check that nothing more arrived.
 */
describe('the job queue drains', () => {
  let server: TestServer;
  let queue: Queue;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding = false;
  let digestRuns = 0;

  beforeAll(async () => {
    server = await startTestServer({ jobs: 'none', seed: false });
    queue = await startQueue(server.services, {
      tuning: { QUEUE_POLLING_SECONDS: 0.5, QUEUE_RETRY_DELAY_SECONDS: 60, QUEUE_SUPERVISE_SECONDS: 2 },
    });
  }, 120_000);
  afterAll(async () => {
    release();
    await queue?.stop({ graceful: false });
    await server?.close();
  });

  const done = async (): Promise<JobOutcome> => ({ status: 'done' });
  const handlers: JobHandlers = {
    execution: done,
    'window-execution': done,
    // A recalculation is held running until the test releases it.
    recalculation: async () => {
      holding = true;
      await released;
      return { status: 'done' };
    },
    'compress-originals': done,
    'webhook-delivery': done,
    'alert-fan-out': done,
    'alert-email': done,
    'inspection-pack': done,
    'inspection-pack-schedule': done,
    'carbon-ledger': done,
    'carbon-ledger-ports': done,
    'uk-ets-mets-send': done,
    'compliance-reminders': done,
    'storage-months': done,
    // A digest fails once (to be retried a minute later), then succeeds.
    'alert-digest': async () =>
      ++digestRuns === 1 ? { status: 'failed', error: 'SMTP down', permanent: false } : { status: 'done' },
    'alert-sweep': done,
  };

  it('finds nothing to wait for on an empty queue', async () => {
    expect(await queue.pending()).toEqual([]);
    await queue.drained();
  });

  it('counts a job waiting, then running, and drains once it finished', async () => {
    await queue.send(JOB_NAMES.recalculation, { kind: 'report-field', calculationIds: [] });
    expect(await queue.pending()).toEqual([{ name: 'recalculation', state: 'created', count: 1 }]);
    await queue.work(handlers);
    await waitFor(() => holding, { what: 'the recalculation to start' });
    expect(await queue.pending([JOB_NAMES.recalculation])).toEqual([
      { name: 'recalculation', state: 'active', count: 1 },
    ]);
    // Other names are drained meanwhile; the held one is named when the queue does not drain in time.
    await queue.drained([JOB_NAMES.execution, JOB_NAMES.webhookDelivery]);
    await expect(queue.drained([JOB_NAMES.recalculation], { timeoutMs: 300 })).rejects.toThrow(
      'The job queue did not drain within 300 ms: 1 recalculation active',
    );
    release();
    await queue.drained([JOB_NAMES.recalculation]);
    expect(await queue.pending([JOB_NAMES.recalculation])).toEqual([]);
  });

  it('counts a job waiting for its retry', async () => {
    await queue.send(JOB_NAMES.alertDigest, { day: '2026-01-01' });
    await waitFor(() => queue.pending([JOB_NAMES.alertDigest]), {
      what: 'the digest to fail once',
      until: (left) => left.some((l) => l.state === 'retry'),
    });
    expect(digestRuns).toBe(1);
    await expect(queue.drained([JOB_NAMES.alertDigest], { timeoutMs: 300 })).rejects.toThrow(
      '1 alert-digest retry',
    );
  });

  it('leaves out a job put off beyond the time it looks ahead', async () => {
    await queue.send(JOB_NAMES.compressOriginals, {}, { startAfterSeconds: 3600 });
    expect(await queue.pending([JOB_NAMES.compressOriginals])).toEqual([]);
    await queue.drained([JOB_NAMES.compressOriginals]);
    expect(await queue.pending([JOB_NAMES.compressOriginals], { dueWithinSeconds: 7200 })).toEqual([
      { name: 'compress-originals', state: 'created', count: 1 },
    ]);
  });
});

describe("a queue made with another policy by an earlier version (the window jobs' was stately)", () => {
  let server: TestServer;
  afterAll(async () => server?.close());

  it('is made again with the policy of the contract, the jobs that waited in it sent again', async () => {
    server = await startTestServer({ jobs: 'none', seed: false });
    const earlier = await startQueue(server.services);
    await earlier.boss.deleteQueue(JOB_NAMES.windowExecution);
    await earlier.boss.createQueue(JOB_NAMES.windowExecution, { policy: 'stately' });
    await earlier.boss.send(JOB_NAMES.windowExecution, { facilityId: 'ship-1' }, { singletonKey: 'ship-1' });
    await earlier.stop();

    const queue = await startQueue(server.services);
    try {
      expect((await queue.boss.getQueue(JOB_NAMES.windowExecution))?.policy).toBe('short');
      const jobs = await queue.boss.findJobs(JOB_NAMES.windowExecution, { key: 'ship-1' });
      expect(jobs.map((j) => [j.state, j.data])).toEqual([['created', { facilityId: 'ship-1' }]]);
    } finally {
      await queue.stop({ graceful: false });
    }
  }, 120_000);
});
