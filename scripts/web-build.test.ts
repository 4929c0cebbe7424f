import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildDecision,
  ensureWebBuild,
  HASH_FILE,
  sourceHash,
  webBuildInputs,
  workspaceClosure,
  type StoredBuild,
} from './web-build';

const stored = (hash: string): StoredBuild => ({ hash, builtAt: '2026-11-28T08:57:19.012Z', seconds: 40 });

describe('buildDecision', () => {
  it('builds when there is no build, or no hash beside it, or the sources changed', () => {
    expect(buildDecision({ current: 'a', stored: stored('a'), indexExists: false })).toEqual({
      build: true,
      reason: 'no build yet',
    });
    expect(buildDecision({ current: 'a', stored: null, indexExists: true }).build).toBe(true);
    expect(buildDecision({ current: 'b', stored: stored('a'), indexExists: true })).toEqual({
      build: true,
      reason: 'its sources changed since the last build',
    });
  });

  it('reuses the build while the hash is the same, unless forced', () => {
    expect(buildDecision({ current: 'a', stored: stored('a'), indexExists: true })).toEqual({
      build: false,
      reason: 'up to date (built 2026-11-28 08:57 UTC)',
    });
    expect(buildDecision({ current: 'a', stored: stored('a'), indexExists: true, force: true }).build).toBe(
      true,
    );
  });
});

describe('sourceHash', () => {
  const files = [
    { path: 'apps/web/src/main.tsx', content: 'render()' },
    { path: 'package-lock.json', content: '{}' },
  ];

  it('depends on the files and their content, not on their order', () => {
    const hash = sourceHash(files);
    expect(sourceHash([...files].reverse())).toBe(hash);
    expect(sourceHash([{ ...files[0]!, content: 'render() ' }, files[1]!])).not.toBe(hash);
    expect(sourceHash([{ ...files[0]!, path: 'apps/web/src/Main.tsx' }, files[1]!])).not.toBe(hash);
    expect(sourceHash(files.slice(1))).not.toBe(hash);
  });

  it('depends on the VITE_ variables Vite writes into the bundle, not on others', () => {
    const hash = sourceHash(files, {});
    expect(sourceHash(files, { PORT: '9000', DATABASE_URL: 'postgres://x' })).toBe(hash);
    expect(sourceHash(files, { VITE_API_URL: 'https://portal.example' })).not.toBe(hash);
  });
});

describe('the build inputs of a repository', () => {
  let root = '';
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  function write(file: string, content: string) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }

  /** apps/web using packages/contracts, which uses packages/formula; packages/demo-fleet unused by the web app. */
  function repository() {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'web-build-'));
    write('package.json', JSON.stringify({ workspaces: ['packages/*', 'apps/*', 'e2e'] }));
    write('package-lock.json', '{"lockfileVersion":3}');
    write('tsconfig.base.json', '{}');
    write(
      'apps/web/package.json',
      JSON.stringify({ name: '@portal/web', dependencies: { '@portal/contracts': '*' } }),
    );
    write('apps/web/index.html', '<div id="root"></div>');
    write('apps/web/src/main.tsx', 'render()');
    write('apps/web/src/main.test.tsx', 'it()');
    write('apps/web/dist/index.html', '<built>');
    write('apps/web/node_modules/x/index.js', '');
    write('apps/api/package.json', JSON.stringify({ name: '@portal/api' }));
    write('apps/api/src/main.ts', '');
    write(
      'packages/contracts/package.json',
      JSON.stringify({ name: '@portal/contracts', dependencies: { '@portal/formula': '*' } }),
    );
    write('packages/contracts/src/index.ts', 'export {}');
    write('packages/formula/package.json', JSON.stringify({ name: '@portal/formula' }));
    write('packages/formula/src/index.ts', 'export {}');
    write('packages/demo-fleet/package.json', JSON.stringify({ name: '@portal/demo-fleet' }));
    write('packages/demo-fleet/src/index.ts', 'export {}');
    write('e2e/package.json', JSON.stringify({ name: '@portal/e2e', dependencies: { '@portal/web': '*' } }));
  }

  it('are the web app, the workspace packages it imports, the lock file and the shared TypeScript options', () => {
    repository();
    expect(workspaceClosure(root, 'apps/web')).toEqual([
      'apps/web',
      'packages/contracts',
      'packages/formula',
    ]);
    expect(webBuildInputs(root)).toEqual([
      'apps/web/index.html',
      'apps/web/package.json',
      'apps/web/src/main.tsx',
      'package-lock.json',
      'packages/contracts/package.json',
      'packages/contracts/src/index.ts',
      'packages/formula/package.json',
      'packages/formula/src/index.ts',
      'tsconfig.base.json',
    ]);
  });

  it('a build whose hash matches is reused; a changed source in a package it imports is noticed', async () => {
    repository();
    const hashNow = () =>
      sourceHash(
        webBuildInputs(root).map((f) => ({ path: f, content: fs.readFileSync(path.join(root, f)) })),
      );
    write(`apps/web/dist/${HASH_FILE}`, JSON.stringify(stored(hashNow())));
    const lines: string[] = [];
    const outcome = await ensureWebBuild(root, { log: (line) => lines.push(line), env: {} });
    expect(outcome).toEqual({ built: false, seconds: 0 });
    expect(lines).toEqual(['Web app: up to date (built 2026-11-28 08:57 UTC), not built again']);

    const before = hashNow();
    write('apps/api/src/main.ts', 'changed');
    write('apps/web/src/main.test.tsx', 'it("changed")');
    expect(hashNow()).toBe(before);
    write('packages/formula/src/index.ts', 'export const changed = 1');
    expect(hashNow()).not.toBe(before);
  });
});
