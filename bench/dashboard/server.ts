/**
 * The API server of the dashboard bench, in a process of its own so that the simulated users do not share its
 * event loop. Opens the filled database (no reset), listens on a free port and prints one JSON line:
 * { "address": ..., "token": <SystemAdmin access token> }. Stops on SIGTERM.
 */
import { openDatabase } from '../../apps/api/src/storage/database';
import { startTestServer } from '../../apps/api/test/harness';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('Set DATABASE_URL');

async function main() {
  const database = await openDatabase({ databaseUrl: databaseUrl!, dataDir: 'memory://', poolSize: 10 });
  const server = await startTestServer({ database, jobs: 'none' });
  const address = await server.app.listen({ host: '127.0.0.1', port: 0 });
  const token = await server.tokenFor('admin');
  process.stdout.write(`${JSON.stringify({ address, token })}\n`);
  process.on('SIGTERM', () => {
    void server.close().finally(() => process.exit(0));
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
