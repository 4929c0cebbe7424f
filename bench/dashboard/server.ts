/**
 * The API server of the dashboard bench, in a process of its own so that the simulated users do not share its
 * event loop. Opens the filled database (no reset), listens on a free port and prints one JSON line:
 * { "address": ..., "token": <SystemAdmin access token>, "cacheEntries": <REPORT_DATA_CACHE_ENTRIES in effect> }.
 * REPORT_DATA_CACHE_ENTRIES of its environment reaches the server's configuration. With BENCH_MEMORY=1 it also
 * answers GET /bench/memory (process.memoryUsage(), after a collection under --expose-gc). Stops on SIGTERM.
 */
import { openDatabase } from '../../apps/api/src/storage/database';
import { startTestServer } from '../../apps/api/test/harness';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('Set DATABASE_URL');

async function main() {
  const database = await openDatabase({ databaseUrl: databaseUrl!, dataDir: 'memory://', poolSize: 10 });
  // The settings the bench varies reach the server (the harness reads no environment of its own); the fleet is the
  // one the bench seeded, not the harness's demo ships.
  const env = Object.fromEntries(
    ['REPORT_DATA_CACHE_ENTRIES'].flatMap((name) => {
      const value = process.env[name];
      return value === undefined ? [] : [[name, value]];
    }),
  );
  const server = await startTestServer({ database, jobs: 'none', seed: false, env });
  // The memory bench (bench/dashboard/memory.ts) reads this process's memory here: after a full collection when
  // node runs with --expose-gc, so what stays is what is held. Only this bench server has the route.
  if (process.env.BENCH_MEMORY === '1')
    server.app.get('/bench/memory', { config: { public: true } }, async () => {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      return { ...process.memoryUsage(), collected: Boolean(gc) };
    });
  // BENCH_PORT: a port of the runner's own (a free one by default).
  const address = await server.app.listen({ host: '127.0.0.1', port: Number(process.env.BENCH_PORT ?? 0) });
  const token = await server.tokenFor('admin');
  const cacheEntries = server.services.config.REPORT_DATA_CACHE_ENTRIES;
  process.stdout.write(`${JSON.stringify({ address, token, cacheEntries })}\n`);
  process.on('SIGTERM', () => {
    void server.close().finally(() => process.exit(0));
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
