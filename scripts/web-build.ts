import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The web app is built once and reused while what it is built from is unchanged: a hash of its sources, its
 * configuration, the workspace packages it imports, the lock file (the versions of everything else) and the VITE_
 * variables is kept beside the build (apps/web/dist/.source-hash); `npm start` builds only when it differs.
 */

/** Part of the hash: a change to how the build is made (its command, its options) rebuilds. */
export const BUILD_RECIPE = 'vite build --logLevel warn; 1';
export const WEB_APP = 'apps/web';
export const HASH_FILE = '.source-hash';

export interface StoredBuild {
  hash: string;
  builtAt: string;
  seconds: number;
}

/** Files that only tests read: a change to them does not change the bundle. */
const TEST_FILE = /\.test\.[cm]?[jt]sx?$/;
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', '.artifacts']);

/** The workspaces (name -> folder) of the repository at `root`. */
function workspaces(root: string): Map<string, string> {
  const { workspaces: patterns = [] } = readJson(path.join(root, 'package.json')) as {
    workspaces?: string[];
  };
  const folders = patterns.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? fs
          .readdirSync(path.join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`)
      : [pattern],
  );
  const byName = new Map<string, string>();
  for (const folder of folders) {
    const manifest = path.join(root, folder, 'package.json');
    if (fs.existsSync(manifest)) byName.set((readJson(manifest) as { name: string }).name, folder);
  }
  return byName;
}

/** The workspace `folder` and every workspace it depends on, directly or through another. */
export function workspaceClosure(root: string, folder: string): string[] {
  const byName = workspaces(root);
  const found = [folder];
  for (const next of found) {
    const manifest = readJson(path.join(root, next, 'package.json')) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) {
      const dependency = byName.get(name);
      if (dependency && !found.includes(dependency)) found.push(dependency);
    }
  }
  return found;
}

/** The files the web build reads, relative to `root`, sorted: what the hash covers. */
export function webBuildInputs(root: string): string[] {
  const files = ['package-lock.json', 'tsconfig.base.json'].filter((f) => fs.existsSync(path.join(root, f)));
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
      const relative = `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(relative);
      } else if (entry.isFile() && !TEST_FILE.test(entry.name)) files.push(relative);
    }
  };
  for (const folder of workspaceClosure(root, WEB_APP)) walk(folder);
  return files.sort();
}

/**
 * The hash of the build's inputs: each file's path and content, the build recipe, and the VITE_ variables (Vite
 * writes them into the bundle).
 */
export function sourceHash(
  files: readonly { path: string; content: Buffer | string }[],
  env: NodeJS.ProcessEnv = {},
): string {
  const hash = createHash('sha256').update(`${BUILD_RECIPE}\n`);
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
    hash.update(`${file.path}\0${createHash('sha256').update(file.content).digest('hex')}\n`);
  for (const name of Object.keys(env)
    .filter((n) => n.startsWith('VITE_'))
    .sort())
    hash.update(`env ${name}=${env[name]}\n`);
  return hash.digest('hex');
}

/** Whether to build, and why (said on the terminal). */
export function buildDecision(input: {
  current: string;
  stored: StoredBuild | null;
  indexExists: boolean;
  force?: boolean;
}): { build: boolean; reason: string } {
  if (input.force) return { build: true, reason: 'asked for' };
  if (!input.indexExists) return { build: true, reason: 'no build yet' };
  if (!input.stored) return { build: true, reason: 'the build has no source hash: made by another command' };
  if (input.stored.hash !== input.current)
    return { build: true, reason: 'its sources changed since the last build' };
  return {
    build: false,
    reason: `up to date (built ${input.stored.builtAt.slice(0, 16).replace('T', ' ')} UTC)`,
  };
}

export function readStoredBuild(dist: string): StoredBuild | null {
  try {
    const stored = readJson(path.join(dist, HASH_FILE)) as Partial<StoredBuild>;
    return typeof stored.hash === 'string' && typeof stored.builtAt === 'string'
      ? { hash: stored.hash, builtAt: stored.builtAt, seconds: Number(stored.seconds) || 0 }
      : null;
  } catch {
    return null;
  }
}

/** Builds the web app when its inputs changed (or when forced); says what it did. Rejects when the build fails. */
export async function ensureWebBuild(
  root: string,
  options: {
    force?: boolean;
    log?: (line: string) => void;
    env?: NodeJS.ProcessEnv;
    signal?: AbortSignal;
  } = {},
): Promise<{ built: boolean; seconds: number }> {
  const log = options.log ?? ((line: string) => console.log(line));
  const env = options.env ?? process.env;
  const dist = path.join(root, WEB_APP, 'dist');
  const current = sourceHash(
    webBuildInputs(root).map((file) => ({ path: file, content: fs.readFileSync(path.join(root, file)) })),
    env,
  );
  const decision = buildDecision({
    current,
    stored: readStoredBuild(dist),
    indexExists: fs.existsSync(path.join(dist, 'index.html')),
    force: options.force,
  });
  if (!decision.build) {
    log(`Web app: ${decision.reason}, not built again`);
    return { built: false, seconds: 0 };
  }
  log(`Building the web app (${decision.reason}); later starts reuse it while its sources do not change`);
  const started = Date.now();
  const vite = path.join(
    path.dirname(createRequire(path.join(root, WEB_APP, 'package.json')).resolve('vite/package.json')),
    'bin/vite.js',
  );
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
      cwd: path.join(root, WEB_APP),
      env,
      stdio: 'inherit',
      signal: options.signal,
    });
    child.once('error', reject);
    child.once('exit', (exitCode, signal) => resolve(signal ? null : exitCode));
  });
  if (code !== 0)
    throw new Error(`The web app's build failed (vite build exited with ${code ?? 'a signal'})`);
  const seconds = (Date.now() - started) / 1000;
  const stored: StoredBuild = { hash: current, builtAt: new Date().toISOString(), seconds };
  fs.writeFileSync(path.join(dist, HASH_FILE), `${JSON.stringify(stored, null, 2)}\n`);
  log(`Web app built in ${seconds.toFixed(1)} s (apps/web/dist)`);
  return { built: true, seconds };
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
