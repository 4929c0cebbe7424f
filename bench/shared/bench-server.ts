import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dashboard', 'server.ts');

export interface BenchServer {
  address: string;
  token: string;
  /** REPORT_DATA_CACHE_ENTRIES as the server runs with it. */
  cacheEntries: number;
  /** The server process's id. */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts bench/dashboard/server.ts (the API on the filled database DATABASE_URL names, in a process of its own) and
 * waits for its line. Fails when the server ends before it answers, and stops it when this process ends, a failed
 * run included, so that no server outlives its bench.
 */
export async function startBenchServer(options: { nodeOptions?: string[] } = {}): Promise<BenchServer> {
  // BENCH_SERVER_CPU_PROFILE=<folder>: the server writes a CPU profile there when it stops (where its time went).
  const profile = process.env.BENCH_SERVER_CPU_PROFILE;
  const nodeOptions = [
    ...(options.nodeOptions ?? []),
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
  ];
  const child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', SERVER], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const kill = () => child.kill('SIGTERM');
  process.once('exit', kill);
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`bench/dashboard/server.ts ended (exit ${String(code)}) before it answered`);
  });
  const line = once(createInterface({ input: child.stdout }), 'line').then(([l]) => l as string);
  const first = await Promise.race([line, exited]);
  exited.catch(() => undefined);
  const { address, token, cacheEntries } = JSON.parse(first) as Omit<BenchServer, 'stop' | 'pid'>;
  return {
    address,
    token,
    cacheEntries,
    pid: child.pid!,
    async stop() {
      process.removeListener('exit', kill);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const ended = once(child, 'exit');
      kill();
      await ended;
    },
  };
}
