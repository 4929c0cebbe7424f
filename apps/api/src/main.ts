import { ConfigError, loadConfig, type Config } from './config';
import { createServer } from './server';
import { DEMO_USERS, DEMO_ORGANIZATIONS } from './seed/platform';
import { loadDemoFleet } from './seed/demo';
import { startJobs } from './jobs';
import { startParseWorker, stopParseWorker } from './features/files/parse-off-thread';
import { originalsCompressed } from './storage';
import { createFirstAdministrator } from './features/users/first-admin';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const started = Date.now();
  const server = await createServer(config, {
    logger: {
      level: config.LOG_LEVEL,
      transport: process.stdout.isTTY
        ? { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } }
        : undefined,
    },
  });
  const { db } = server.services.database;
  // Every process sends jobs; workers run in-process by default, alone with --services=worker (jobs/queue.ts).
  const queue = await startJobs(server.services, {
    work: config.services.worker,
    onError: (error) => server.app.log.error({ err: error }, 'job queue error'),
  });

  if (config.ADMIN_USERNAME && config.ADMIN_PASSWORD) {
    // Read once: only while no SystemAdmin exists; a weak password stops the start with the rule it breaks.
    const outcome = await createFirstAdministrator(db, {
      username: config.ADMIN_USERNAME,
      password: config.ADMIN_PASSWORD,
      by: 'ADMIN_USERNAME',
    });
    if (outcome.created)
      server.app.log.info(
        `Created the first SystemAdmin ${outcome.username} from ADMIN_USERNAME and ADMIN_PASSWORD`,
      );
    else if (outcome.reason === 'exists')
      server.app.log.info('ADMIN_USERNAME is set but a SystemAdmin exists already: nothing was changed');
    else {
      console.error(`ADMIN_USERNAME and ADMIN_PASSWORD were not used: ${outcome.message}`);
      await queue.stop();
      await server.close();
      process.exit(2);
    }
  }

  const empty = !(await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst());
  const demo = config.DEMO ? config.DEMO === 'on' : empty;
  if (demo && config.services.worker) {
    await loadDemoFleet(server.services, {
      ships: config.DEMO_SHIPS,
      days: config.DEMO_DAYS,
      log: (m) => server.app.log.info(m),
    });
  } else if (demo) {
    server.app.log.warn(
      'The demo fleet is loaded by a process that runs the worker (this one runs --services=web only)',
    );
  }

  if (config.services.web) {
    // Large uploads are parsed off the event loop; the worker is ready before the first one.
    startParseWorker().catch((error: unknown) =>
      server.app.log.error({ err: error }, 'the parse worker did not start'),
    );
    await server.app.listen({ port: config.PORT, host: config.HOST });
    printBanner(config, demo, Date.now() - started, server.services.database.kind);
  }

  const shutdown = async (signal: string) => {
    server.app.log.info(`${signal}: shutting down`);
    await queue.stop();
    await originalsCompressed();
    await server.close();
    await stopParseWorker();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

function printBanner(config: Config, demo: boolean, startupMs: number, kind: string): void {
  const lines = [
    '',
    `  Scrubber fleet monitoring portal is running (${kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'}, started in ${(startupMs / 1000).toFixed(1)} s)`,
    '',
    `  Open ${config.publicUrl}`,
    '',
  ];
  if (demo) {
    lines.push('  Sign in with one of the demo users:', '');
    lines.push(`    ${'username'.padEnd(14)}${'password'.padEnd(12)}${'role'.padEnd(13)}organization`);
    for (const user of DEMO_USERS) {
      const org = DEMO_ORGANIZATIONS.find((o) => o.key === user.organization)!;
      lines.push(
        `    ${user.username.padEnd(14)}${user.password.padEnd(12)}${user.role.padEnd(13)}${org.name}`,
      );
    }
    lines.push('');
  }
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
