import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { waitFor } from './wait';

const run = promisify(execFile);

/**
 * A PostgreSQL primary and its streaming replica of the test's own, made with the server binaries of this machine:
 * `initdb` into a temporary directory (wal_level=replica, a pg_hba line for replication), then `pg_basebackup -R`
 * for the replica, each on a free port of its own, listening on 127.0.0.1 only. Tests run as root (`.ci/run`), and
 * PostgreSQL refuses to run as root: the binaries then run as the `postgres` OS user (`runuser -u postgres`), who
 * owns the directory. `stop()` stops both and removes the directory.
 */
export interface ReplicaCluster {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops the replica (fast shutdown): what a replica that went down looks like to the portal. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  stop(): Promise<void>;
}

/** The newest PostgreSQL server binaries of this machine (Debian's layout), or undefined. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = path.join(root, version, 'bin');
    if (['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'].every((b) => fs.existsSync(path.join(bin, b))))
      return bin;
  }
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startReplicaCluster(bin: string): Promise<ReplicaCluster> {
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-replica-'));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    fs.chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  /** A PostgreSQL binary, as the postgres user when this process is root. */
  const pgCommand = async (name: string, args: string[]) => {
    const command = path.join(bin, name);
    try {
      return asRoot
        ? await run('runuser', ['-u', 'postgres', '--', command, ...args], { cwd: dir })
        : await run(command, args, { cwd: dir });
    } catch (error) {
      const failure = error as { stderr?: string; stdout?: string; message: string };
      throw new Error(`${name} failed: ${failure.stderr || failure.stdout || failure.message}`, {
        cause: error,
      });
    }
  };
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const settings = (port: number) =>
    [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'wal_level = replica',
      'max_wal_senders = 4',
      'hot_standby = on',
      // A throwaway cluster: no need to survive a power cut, and the tests' writes stay quick.
      'fsync = off',
      'shared_buffers = 16MB',
      'max_connections = 60',
    ].join('\n') + '\n';
  const start = async (dataDir: string) =>
    pgCommand('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      path.join(dir, `${path.basename(dataDir)}.log`),
      '-w',
      'start',
    ]);
  const stopCluster = async (dataDir: string) =>
    pgCommand('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => undefined);

  try {
    await pgCommand('initdb', [
      '-D',
      primaryDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    fs.appendFileSync(path.join(primaryDir, 'postgresql.conf'), settings(primaryPort));
    fs.appendFileSync(path.join(primaryDir, 'pg_hba.conf'), 'host replication postgres 127.0.0.1/32 trust\n');
    await start(primaryDir);
    // -R writes primary_conninfo and standby.signal: the copy starts as a streaming replica of the primary.
    await pgCommand('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    fs.appendFileSync(path.join(replicaDir, 'postgresql.conf'), `port = ${replicaPort}\n`);
    await start(replicaDir);
  } catch (error) {
    await stopCluster(replicaDir);
    await stopCluster(primaryDir);
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  // Streaming once the replica says so.
  await waitFor(
    async () => {
      const client = new pg.Client({ connectionString: primaryUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ state: string }>('select state from pg_stat_replication');
        return rows.some((r) => r.state === 'streaming');
      } finally {
        await client.end();
      }
    },
    { timeoutMs: 60_000, what: 'the replica to stream from the primary' },
  );
  return {
    primaryUrl,
    replicaUrl,
    stopReplica: async () => {
      await pgCommand('pg_ctl', ['-D', replicaDir, '-m', 'fast', '-w', 'stop']);
    },
    startReplica: async () => {
      await start(replicaDir);
    },
    stop: async () => {
      await stopCluster(replicaDir);
      await stopCluster(primaryDir);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
