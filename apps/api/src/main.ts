import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig, type Config } from './config';
import { createLogger } from './logger';
import { listenDescription, Startup, startingGate } from './starting';
import type { Server } from './server';
import type { startJobs } from './features/jobs';
import type { DEMO_ORGANIZATIONS as DemoOrganizations, DEMO_USERS as DemoUsers } from './seed/platform';

/**
 * The server process (`npm start`, or `--services=web|worker`): the configuration first (a bad value stops it
 * with exit code 2), then at once the port, which answers the starting page and GET /api/health (starting.ts) while
 * the code loads, the database opens and, on a first start, the demo fleet loads; then the portal. SIGINT or SIGTERM
 * at any moment stops it cleanly: the start stops between two steps, the queue, the originals' compressions, the app
 * and the database close in turn, and the process exits with 0.
 */

/** How long a stop may take (a job finishing, the database closing) before the process leaves anyway. */
const STOP_TIMEOUT_MS = 30_000;

type Queue = Awaited<ReturnType<typeof startJobs>>;

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
  const startup = new Startup();
  const log = createLogger(config.LOG_LEVEL);
  const databaseName = config.DATABASE_URL ? 'PostgreSQL' : `embedded database in ${config.dataDir}`;
  const stop = new AbortController();
  let httpServer: http.Server | undefined;
  let server: Server | undefined;
  let queue: Queue | undefined;
  let closeRest: (() => Promise<void>) | undefined;
  let live: { brokerUrl: string; embedded: boolean; close(): Promise<void> } | undefined;

  let stopping: { since: number; done: Promise<void> } | undefined;
  const shutdown = (reason: string, code: number, starting: Promise<unknown>): void => {
    if (stopping) {
      // npm passes a Ctrl-C on to the process that has it already: only a later one is news.
      if (Date.now() - stopping.since > 1000) log.info(`${reason}: still stopping`);
      return;
    }
    if (code === 0) log.info(`${reason}: stopping`);
    startup.stopping();
    stop.abort();
    const timer = setTimeout(() => {
      log.error(`Not stopped after ${STOP_TIMEOUT_MS / 1000} s: leaving anyway`);
      process.exit(1);
    }, STOP_TIMEOUT_MS);
    timer.unref();
    const done = (async () => {
      let exitCode = code;
      try {
        // The start stops at its next step (an opening database is waited for: it is never left half-made).
        await starting.catch(() => undefined);
        httpServer?.close();
        httpServer?.closeIdleConnections();
        await live?.close();
        await queue?.stop();
        await closeRest?.();
        httpServer?.closeAllConnections();
      } catch (error) {
        log.error({ err: error }, 'The stop did not go through');
        exitCode = 1;
      }
      process.exit(exitCode);
    })();
    stopping = { since: Date.now(), done };
  };

  let starting: Promise<void> = Promise.resolve();
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => shutdown(signal, 0, starting));

  const gate = startingGate(startup);
  // How long each step of the start took, at debug level (LOG_LEVEL=debug): where a slow start spends its time.
  let lap = startup.status.startedAt;
  const took = (what: string) => {
    const now = Date.now();
    log.debug(`${what} in ${now - lap} ms`);
    lap = now;
  };
  starting = (async () => {
    if (config.services.web) {
      httpServer = http.createServer(gate.handle);
      const address = await listen(httpServer, config.PORT, config.HOST).catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES') throw error;
          console.error(
            error.code === 'EADDRINUSE'
              ? `Port ${config.PORT} is in use on ${config.HOST} (is the portal running already?): stop it or set PORT`
              : `Port ${config.PORT} on ${config.HOST} may not be used by this user: set PORT (above 1023)`,
          );
          process.exit(1);
        },
      );
      const { where, open } = listenDescription(address, config.publicUrl);
      console.log(
        [
          '',
          `  Scrubber fleet monitoring portal is starting (${databaseName})`,
          `  Listening on ${where}`,
          `  Open ${open} to follow the start`,
          '',
        ].join('\n'),
      );
    }
    took('Listening');
    stop.signal.throwIfAborted();

    // The server's code: several seconds on a busy machine, while the port already answers; the database opens
    // meanwhile (the embedded one compiles PostgreSQL's WebAssembly, off this thread in part).
    const opening = import('./storage/database').then(({ openDatabase }) =>
      openDatabase({
        databaseUrl: config.DATABASE_URL,
        // Only the web serves dashboards and lists: a worker reads and writes the primary alone.
        readUrl: config.services.web ? config.DATABASE_READ_URL : undefined,
        dataDir: config.dataDir,
        log: { warn: (message) => log.warn(message), info: (message) => log.info(message) },
        originalsBucket: config.originalsBucket,
      }),
    );
    opening.catch(() => undefined);
    const [{ createServer }, { startJobs }, files, storage, admin] = await Promise.all([
      import('./server'),
      import('./features/jobs'),
      import('./features/files/parse-off-thread'),
      import('./storage'),
      import('./features/users/first-admin'),
    ]);
    const database = await opening;
    took("Loaded the server's code and opened the database");
    closeRest = async () => {
      await storage.originalsCompressed();
      await files.stopParseWorker();
      await server?.close();
      await database.close();
    };
    stop.signal.throwIfAborted();

    startup.step('database');
    server = await createServer(config, { database, loggerInstance: log, startup });
    await server.app.ready();
    took('Migrated the database and made the app');
    // The app's own answer to GET /api/health from now on; everything else once ready. Its server's timeouts
    // (no request timeout for long uploads, long keep-alive) apply to the one listening.
    if (httpServer) {
      const made = server.app.server;
      httpServer.keepAliveTimeout = made.keepAliveTimeout;
      httpServer.requestTimeout = made.requestTimeout;
      httpServer.setTimeout(made.timeout);
    }
    const app = server.app;
    gate.open((req, res) => app.routing(req, res));
    stop.signal.throwIfAborted();
    const { db } = server.services.database;
    // Every process sends jobs; workers run in-process by default, alone with --services=worker (jobs/queue.ts).
    queue = await startJobs(server.services, {
      work: config.services.worker,
      onError: (error) => log.error({ err: error }, 'job queue error'),
    });
    took('Started the job queue');
    stop.signal.throwIfAborted();

    if (config.ADMIN_USERNAME && config.ADMIN_PASSWORD) {
      // Read once: only while no SystemAdmin exists; a weak password stops the start with the rule it breaks.
      const outcome = await admin.createFirstAdministrator(db, {
        username: config.ADMIN_USERNAME,
        password: config.ADMIN_PASSWORD,
        by: 'ADMIN_USERNAME',
      });
      if (outcome.created)
        log.info(`Created the first SystemAdmin ${outcome.username} from ADMIN_USERNAME and ADMIN_PASSWORD`);
      else if (outcome.reason === 'exists')
        log.info('ADMIN_USERNAME is set but a SystemAdmin exists already: nothing was changed');
      else {
        console.error(`ADMIN_USERNAME and ADMIN_PASSWORD were not used: ${outcome.message}`);
        throw new StartRefused(2);
      }
    }

    const { demoFleetUnfinished, loadDemoFleet } = await import('./seed/demo');
    const empty = !(await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst());
    // Unset DEMO: on an empty database, and on the one of a start stopped while it loaded the demo.
    const demo = config.DEMO ? config.DEMO === 'on' : empty || (await demoFleetUnfinished(db));
    if (demo && config.services.worker) {
      await loadDemoFleet(server.services, {
        ships: config.DEMO_SHIPS,
        days: config.DEMO_DAYS,
        log: (message) => log.info(message),
        onProgress: ({ step, done, total }) => startup.step(step, { done, total }),
        signal: stop.signal,
      });
    } else if (demo) {
      log.warn(
        'The demo fleet is loaded by a process that runs the worker (this one runs --services=web only)',
      );
    }
    stop.signal.throwIfAborted();

    // Live data over MQTT Sparkplug B: the host application (and without MQTT_URL the embedded broker) runs in the
    // process that runs the worker, once (docs/decisions/0120-live-sparkplug-host.md).
    if (config.LIVE === 'on' && config.services.worker) {
      const { startLive } = await import('./features/live');
      try {
        const started = await startLive(server.services, config, log);
        live = { brokerUrl: started.brokerUrl, embedded: !!started.broker, close: started.close };
        took('Started the live stream');
        // The demo's first ship streams through the embedded broker, so a newcomer sees values move.
        if (live.embedded && config.DEMO !== 'off' && config.DEMO_STREAM === 'on') {
          const { startDemoLive } = await import('./seed/demo-stream');
          const demoLive = await startDemoLive(db, {
            brokerUrl: started.brokerUrl,
            groupId: config.MQTT_GROUP_ID,
            log: { info: (m) => log.debug(m), warn: (m) => log.warn(m) },
          }).catch((error: unknown) => {
            log.warn({ err: error }, 'The demo ship does not stream live');
            return null;
          });
          if (demoLive) {
            const closeLive = started.close;
            live.close = async () => {
              await demoLive.stop().catch(() => undefined);
              await closeLive();
            };
            log.info(
              `Live data: the demo ship ${demoLive.shipName} streams its current minute through the embedded broker`,
            );
          }
        }
      } catch (error) {
        // The portal runs without the stream (files still arrive); the reason says what to change.
        const code = (error as NodeJS.ErrnoException).code;
        log.error(
          { err: error },
          code === 'EADDRINUSE'
            ? `Live data is off: port ${config.MQTT_PORT} of the embedded MQTT broker is in use (set MQTT_PORT, or MQTT_URL for a broker of your own)`
            : `Live data is off: the MQTT broker ${config.MQTT_URL ?? ''} could not be reached (${(error as Error).message})`,
        );
      }
    }
    stop.signal.throwIfAborted();

    if (config.services.web) {
      // Large uploads are parsed off the event loop; the worker is ready before the first one.
      files.startParseWorker().catch((error: unknown) => {
        if (!stop.signal.aborted) log.error({ err: error }, 'the parse worker did not start');
      });
    }
    const users = demo ? demoUsers(await import('./seed/platform')) : [];
    startup.ready();
    printReady(config, {
      database: databaseName,
      users,
      seconds: (Date.now() - startup.status.startedAt) / 1000,
      address: httpServer?.address() as AddressInfo | undefined,
      live,
    });
  })();

  starting.catch((error: unknown) => {
    if (stop.signal.aborted && !(error instanceof StartRefused)) return;
    if (error instanceof StartRefused)
      return shutdown('The start was refused', error.code, Promise.resolve());
    log.error({ err: error }, 'The portal did not start');
    shutdown('The start failed', 1, Promise.resolve());
  });
}

/** A start stopped on purpose, with the exit code to leave with (the reason is printed already). */
class StartRefused extends Error {
  constructor(readonly code: number) {
    super('start refused');
  }
}

function listen(server: http.Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function printReady(
  config: Config,
  start: {
    database: string;
    users: string[];
    seconds: number;
    address: AddressInfo | undefined;
    live?: { brokerUrl: string; embedded: boolean };
  },
): void {
  const liveLine = start.live
    ? start.live.embedded
      ? `  Live data: embedded MQTT broker on ${start.live.brokerUrl} (Sparkplug B group ${config.MQTT_GROUP_ID}; ships sign in with their upload token)`
      : `  Live data: Sparkplug B host on ${start.live.brokerUrl} (group ${config.MQTT_GROUP_ID})`
    : null;
  if (!start.address) {
    console.log(
      `\n  Scrubber fleet monitoring portal worker is running (${start.database}, ready in ${start.seconds.toFixed(1)} s)\n${liveLine ? `${liveLine}\n` : ''}`,
    );
    return;
  }
  const { where, open } = listenDescription(start.address, config.publicUrl);
  const lines = [
    '',
    `  Scrubber fleet monitoring portal is running (${start.database}, ready in ${start.seconds.toFixed(1)} s)`,
    `  Listening on ${where}`,
    ...(liveLine ? [liveLine] : []),
    '',
    `  Open ${open}`,
    '',
  ];
  lines.push(...start.users);
  console.log(lines.join('\n'));
}

/** The demo users' table of the banner. */
function demoUsers({
  DEMO_USERS,
  DEMO_ORGANIZATIONS,
}: {
  DEMO_USERS: typeof DemoUsers;
  DEMO_ORGANIZATIONS: typeof DemoOrganizations;
}): string[] {
  const lines = ['  Sign in with one of the demo users:', ''];
  lines.push(`    ${'username'.padEnd(14)}${'password'.padEnd(12)}${'role'.padEnd(13)}organization`);
  for (const user of DEMO_USERS) {
    const org = DEMO_ORGANIZATIONS.find((o) => o.key === user.organization)!;
    lines.push(
      `    ${user.username.padEnd(14)}${user.password.padEnd(12)}${user.role.padEnd(13)}${org.name}`,
    );
  }
  lines.push('');
  return lines;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
