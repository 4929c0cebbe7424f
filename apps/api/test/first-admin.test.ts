import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resetPostgres } from './harness';
import {
  ROOT,
  killAll,
  killServer,
  signInOverHttp,
  spawnServer,
  waitUntilServing,
  type ServerProcess,
} from './processes';

/**
 * A real deployment's first administrator (docs/operations.md): with DEMO=off on an empty database nobody could sign
 * in. `npm run admin:create` and ADMIN_USERNAME/ADMIN_PASSWORD on the first start make the provider organization and
 * its SystemAdmin, who then signs in through the real OIDC flow of a server process.
 */

const databaseUrl = process.env.DATABASE_URL;
const dirs: string[] = [];

afterAll(async () => {
  await killAll();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** An empty store: a new data directory (PGlite), or the PostgreSQL database emptied. */
async function emptyStore(): Promise<Record<string, string>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-first-admin-'));
  dirs.push(dir);
  if (databaseUrl) await resetPostgres(databaseUrl);
  return { DATA_DIR: dir };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function start(env: Record<string, string>): Promise<ServerProcess> {
  return spawnServer({
    databaseUrl,
    services: 'web',
    port: await freePort(),
    env: { DEMO: 'off', LOG_LEVEL: 'info', ...env },
  });
}

async function profile(server: ServerProcess, token: string) {
  const response = await fetch(`${server.url}/api/auth/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { username: string; roles: string[]; organizationName: string };
}

/** `npm run admin:create`, the password on standard input as a script gives it. */
function adminCreate(env: Record<string, string>, args: string[], input: string) {
  const run = spawnSync('npm', ['run', '--silent', 'admin:create', '--', ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      DEMO: 'off',
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    input,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('the first administrator without the demo', () => {
  it('ADMIN_USERNAME and ADMIN_PASSWORD make the first SystemAdmin once, and never overwrite', async () => {
    const store = await emptyStore();
    const first = await start({ ...store, ADMIN_USERNAME: 'first.admin', ADMIN_PASSWORD: 'Harbour2026' });
    await waitUntilServing(first);
    const token = await signInOverHttp(first.url!, 'first.admin', 'Harbour2026');
    expect(await profile(first, token)).toMatchObject({
      username: 'first.admin',
      roles: ['SystemAdmin'],
      organizationName: 'Scrubber Service Provider',
    });
    expect(first.output()).toContain('Created the first SystemAdmin first.admin');
    await killServer(first);

    // Started again with other values: the admin stays as made.
    const again = await start({ ...store, ADMIN_USERNAME: 'first.admin', ADMIN_PASSWORD: 'Changed2027' });
    await waitUntilServing(again);
    expect(again.output()).toContain('a SystemAdmin exists already: nothing was changed');
    await expect(signInOverHttp(again.url!, 'first.admin', 'Changed2027')).rejects.toThrow(/refused/);
    await signInOverHttp(again.url!, 'first.admin', 'Harbour2026');
    await killServer(again);
  }, 300_000);

  it('refuses a weak ADMIN_PASSWORD by the password rules and does not start', async () => {
    const store = await emptyStore();
    const weak = await start({ ...store, ADMIN_USERNAME: 'first.admin', ADMIN_PASSWORD: 'harbour' });
    await weak.exited;
    expect(weak.child.exitCode).toBe(2);
    expect(weak.output()).toContain('Must be minimum 8 characters');
  }, 180_000);

  it('npm run admin:create makes the first SystemAdmin, refuses a weak password and a second admin', async () => {
    const store = await emptyStore();
    const weak = adminCreate(
      store,
      ['--username', 'ops.admin', '--organization', 'Fleet Services'],
      'nodigits\n',
    );
    expect(weak.status, weak.output).toBe(2);
    expect(weak.output).toContain('Password must contain at least 1 number');

    const made = adminCreate(
      store,
      ['--username', 'ops.admin', '--organization', 'Fleet Services'],
      'Harbour2026\n',
    );
    expect(made.status, made.output).toBe(0);
    expect(made.output).toContain('Created the SystemAdmin ops.admin');

    const second = adminCreate(store, ['--username', 'other.admin'], 'Harbour2027\n');
    expect(second.status, second.output).toBe(3);
    expect(second.output).toContain('A SystemAdmin exists already');

    const server = await start(store);
    await waitUntilServing(server);
    const token = await signInOverHttp(server.url!, 'ops.admin', 'Harbour2026');
    expect(await profile(server, token)).toMatchObject({
      username: 'ops.admin',
      roles: ['SystemAdmin'],
      organizationName: 'Fleet Services',
    });
    await expect(signInOverHttp(server.url!, 'other.admin', 'Harbour2027')).rejects.toThrow(/refused/);
    await killServer(server);
  }, 300_000);
});
