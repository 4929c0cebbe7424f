import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAST_QUEUE } from './execution-fixtures';
import { PUBLIC_URL } from './harness';
import { waitFor } from './wait';

/**
 * The portal as separate operating-system processes (`node --import tsx apps/api/src/main.ts`), for the fault,
 * scale-out and load runs: started, killed with SIGKILL, restarted, and signed in to over HTTP like a browser.
 * Every process gets the same PUBLIC_URL, as behind one load balancer, so a token of one is valid on all.
 */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ServerProcess {
  child: ChildProcess;
  /** The node process itself (its RSS is the server's memory). */
  pid: number;
  /** http://127.0.0.1:<port> for a process that serves the API. */
  url: string | null;
  output(): string;
  exited: Promise<void>;
}

const running = new Set<ServerProcess>();

export interface SpawnOptions {
  databaseUrl?: string;
  services: 'web' | 'worker' | 'web,worker';
  port?: number;
  /** Extra environment (DATA_DIR, EXECUTION_TEST_PAUSE_MS for the hooked worker, ...); undefined: unset. */
  env?: Record<string, string | undefined>;
  /** The script to run instead of src/main.ts (relative to the repository): e.g. the worker with test hooks. */
  entry?: string;
  /** Passed to node before the script (e.g. --max-old-space-size). */
  nodeOptions?: string[];
  /** Wraps the command (e.g. ['prlimit', '--fsize=...', '--']). */
  wrapper?: string[];
}

/** Starts a server process in its own process group (so SIGKILL reaches everything it started). */
export function spawnServer(options: SpawnOptions): ServerProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PUBLIC_URL,
    DEMO: 'off',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    QUEUE_POLLING_SECONDS: String(FAST_QUEUE.QUEUE_POLLING_SECONDS),
    QUEUE_RETRY_DELAY_SECONDS: String(FAST_QUEUE.QUEUE_RETRY_DELAY_SECONDS),
    QUEUE_HEARTBEAT_SECONDS: String(FAST_QUEUE.QUEUE_HEARTBEAT_SECONDS),
    QUEUE_SUPERVISE_SECONDS: String(FAST_QUEUE.QUEUE_SUPERVISE_SECONDS),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...(options.port !== undefined ? { PORT: String(options.port) } : {}),
    ...options.env,
  };
  if (!options.databaseUrl) delete env.DATABASE_URL;
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const command = [
    ...(options.wrapper ?? []),
    process.execPath,
    ...(options.nodeOptions ?? []),
    '--import',
    'tsx',
    options.entry ?? 'apps/api/src/main.ts',
    `--services=${options.services}`,
  ];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: ServerProcess = {
    child,
    pid: child.pid!,
    url:
      options.services.includes('web') && options.port !== undefined
        ? `http://127.0.0.1:${options.port}`
        : null,
    output: () => output,
    exited,
  };
  running.add(server);
  void exited.then(() => running.delete(server));
  return server;
}

export const isRunning = (server: ServerProcess) =>
  server.child.exitCode === null && server.child.signalCode === null;

/** SIGKILL: no shutdown handler runs, open transactions are left to the database to roll back. */
export async function killServer(server: ServerProcess): Promise<void> {
  if (!isRunning(server)) return;
  try {
    process.kill(-server.pid, 'SIGKILL');
  } catch {
    return;
  }
  await server.exited;
}

/** The worker of src/main.ts with the engine's test hooks (worker-with-hooks.ts), for `entry`. */
export const WORKER_WITH_HOOKS = 'apps/api/test/worker-with-hooks.ts';
/** The line the hooked worker prints once an execution holds its transaction open (EXECUTION_TEST_PAUSE_MS). */
export const PAUSED_BEFORE_COMMIT = 'execution test hook: paused before the commit';

/** Kills every process started here that still runs. */
export async function killAll(): Promise<void> {
  for (const server of [...running]) await killServer(server);
}

/** Waits for `check` (an error counts as not yet): processes.ts's callers give the time and what, in that order. */
export async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  await waitFor(check, { what, timeoutMs, intervalMs: 250 });
}

/**
 * Waits until the process is ready (GET /api/health 200: its port answers from the first moment, with 503 while it
 * starts), or fails with its output when it exits first.
 */
export async function waitUntilServing(server: ServerProcess, timeoutMs = 120_000): Promise<void> {
  const outcome = await waitFor(
    async () =>
      !isRunning(server)
        ? 'exited'
        : await fetch(`${server.url}/api/health`).then(
            (response) => (response.status === 200 ? 'serving' : null),
            () => null,
          ),
    {
      what: 'the server to serve',
      until: (state) => state !== null,
      show: () => `no answer yet:\n${server.output().slice(-3000)}`,
      timeoutMs,
      intervalMs: 300,
    },
  );
  if (outcome === 'exited')
    throw new Error(`the server exited before serving:\n${server.output().slice(-3000)}`);
}

/** Resident memory of a process in MB (Linux /proc). */
export function rssMegabytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/**
 * The browser's sign-in against a running server over HTTP, cookies kept by hand: authorization request with
 * PKCE, our login form, the redirects back, the code exchanged for tokens (the steps of harness.ts signInFlow).
 */
export async function signInOverHttp(baseUrl: string, username: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const store = (response: Response) => {
    for (const c of response.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, ...rest] = pair!.split('=');
      jar.set(name!.trim(), rest.join('='));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const local = (location: string) => baseUrl + location.replace(/^https?:\/\/[^/]+/, '');
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const redirectUri = `${PUBLIC_URL}/login`;
  const query = new URLSearchParams({
    client_id: 'portal-web',
    response_type: 'code',
    scope: 'openid profile',
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state',
  });
  const authorize = await fetch(`${baseUrl}/oidc/auth?${query}`, { redirect: 'manual' });
  store(authorize);
  const interaction = authorize.headers.get('location') ?? '';
  if (!interaction.startsWith('/interaction/'))
    throw new Error(
      `unexpected authorization answer ${authorize.status}: ${(await authorize.text()).slice(0, 300)}`,
    );
  store(await fetch(baseUrl + interaction, { headers: { cookie: cookie() }, redirect: 'manual' }));
  const login = await fetch(`${baseUrl}${interaction}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
  });
  store(login);
  if (login.status !== 303)
    throw new Error(
      `sign-in of ${username} refused (${login.status}): ${(await login.text()).slice(0, 300)}`,
    );
  let location = login.headers.get('location') ?? '';
  for (let i = 0; i < 5 && !location.startsWith(redirectUri); i++) {
    const next = await fetch(local(location), { headers: { cookie: cookie() }, redirect: 'manual' });
    store(next);
    location = next.headers.get('location') ?? '';
  }
  const code = new URL(location, PUBLIC_URL).searchParams.get('code');
  if (!code) throw new Error(`no authorization code in ${location}`);
  const token = await fetch(`${baseUrl}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: 'portal-web',
      code_verifier: verifier,
    }).toString(),
  });
  const body = (await token.json()) as { access_token?: string };
  if (!body.access_token)
    throw new Error(`no access token for ${username}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.access_token;
}

/** A JSON call with a bearer token; answers status and parsed body (null when empty or not JSON). */
export async function call(
  baseUrl: string,
  token: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const response = await fetch(baseUrl + url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, json };
}
