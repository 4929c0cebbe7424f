import { loadConfig } from '../src/config';
import { createServer } from '../src/server';
import { startJobs } from '../src/features/jobs';
import type { RunHooks } from '../src/features/executions/run';
import { PAUSED_BEFORE_COMMIT } from './processes';

/**
 * A worker process for the fault tests (reliability.test.ts through processes.ts): the real worker of
 * `src/main.ts --services=worker` (configuration, database, queue, the execution jobs), with the engine's test hooks
 * set from the environment this test process gives it. Production code never reads these variables.
 * - EXECUTION_TEST_PAUSE_MS: hold the replacing transaction open this long after the values are written, once it
 *   printed PAUSED_BEFORE_COMMIT;
 * - EXECUTION_TEST_CRASH_AFTER_COMMIT=1: SIGKILL this process right after the commit, before pg-boss hears of it.
 * - ALERTS_TEST_CRASH_BEFORE_SEND=1: SIGKILL this process when an alert e-mail is about to go to the SMTP server.
 */
const pauseMs = Number(process.env.EXECUTION_TEST_PAUSE_MS ?? 0);
const crashAfterCommit = process.env.EXECUTION_TEST_CRASH_AFTER_COMMIT === '1';
const hooks: RunHooks = {
  ...(pauseMs > 0
    ? {
        // The line tells the test the values are written and the transaction is held: it kills this process now.
        beforeCommit: () => {
          console.log(PAUSED_BEFORE_COMMIT);
          return new Promise<void>((resolve) => setTimeout(resolve, pauseMs));
        },
      }
    : {}),
  ...(crashAfterCommit ? { afterCommit: () => process.kill(process.pid, 'SIGKILL') } : {}),
};

const crashBeforeSend = process.env.ALERTS_TEST_CRASH_BEFORE_SEND === '1';

const config = loadConfig(process.env, ['--services=worker']);
const server = await createServer(config, { logger: { level: config.LOG_LEVEL } });
const queue = await startJobs(server.services, {
  work: true,
  run: { hooks },
  ...(crashBeforeSend ? { mail: { beforeSend: () => process.kill(process.pid, 'SIGKILL') } } : {}),
  onError: (error) => server.app.log.error({ err: error }, 'job queue error'),
});
process.once('SIGTERM', () => {
  void queue
    .stop()
    .then(() => server.close())
    .then(() => process.exit(0));
});
