import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkFolders,
  describeCycles,
  folderComponents,
  folderCycles,
  folderGraph,
  importSpecifiers,
  unitOf,
  type UnitRoot,
} from './folder-cycles';

const roots: UnitRoot[] = [{ dir: 'src', expand: ['features'] }];

/** A tiny tree: the engine reads the alerts' outbox types (type-only), jobs sits below both. */
const acyclic = new Map([
  ['src/config.ts', `export const config = {};`],
  ['src/jobs/contract.ts', `import type { Config } from '../config';\nexport type JobName = 'a';`],
  ['src/features/executions/run.ts', `import type { JobName } from '../../jobs/contract';\nexport {};`],
  [
    'src/features/alerts/worker.ts',
    `import type { JobName } from '../../jobs/contract';\nimport { run } from '../executions/run';`,
  ],
  ['src/server.ts', `import './features/alerts/worker';\nimport './features/executions/run';`],
]);

describe('the folder graph', () => {
  it('makes one unit of each feature folder, each other first-level folder and each file in the root', () => {
    expect(unitOf('src/features/alerts/worker.ts', roots)).toBe('src/features/alerts');
    expect(unitOf('src/features/alerts/deep/er.ts', roots)).toBe('src/features/alerts');
    expect(unitOf('src/jobs/contract.ts', roots)).toBe('src/jobs');
    expect(unitOf('src/config.ts', roots)).toBe('src/config.ts');
    expect(unitOf('test/x.test.ts', roots)).toBeUndefined();
    expect(unitOf('src/app/api.ts', [{ dir: 'src', expand: [], leaveOut: ['app'] }])).toBeUndefined();
  });

  it('counts type-only imports, re-exports and import() types as arrows', () => {
    expect(
      importSpecifiers(
        `import type { A } from './a';\nexport * from './b';\nexport type { C } from './c';\n` +
          `let d: import('./d').D;\nconst e = await import('./e');\nimport { type F } from 'f';`,
      ),
    ).toEqual(['./a', './b', './c', './d', './e', 'f']);
  });

  it('finds no loop in a tree whose folders import one way', () => {
    const graph = folderGraph(acyclic, roots);
    expect([...graph.edges.get('src/features/alerts')!.keys()].sort()).toEqual([
      'src/features/executions',
      'src/jobs',
    ]);
    expect(folderCycles(graph)).toEqual([]);
  });

  it('finds a loop made by a type-only import, naming the files that make each arrow', () => {
    const looped = new Map(acyclic);
    looped.set(
      'src/features/executions/run.ts',
      `import type { JobName } from '../../jobs/contract';\nimport type { Outbox } from '../alerts/worker';`,
    );
    const graph = folderGraph(looped, roots);
    expect(folderCycles(graph)).toEqual([
      ['src/features/alerts', 'src/features/executions', 'src/features/alerts'],
    ]);
    expect(describeCycles(graph, folderComponents(graph))).toContain(
      "src/features/executions -> src/features/alerts: src/features/executions/run.ts imports '../alerts/worker'",
    );
  });

  it('finds a longer loop through a file of the root, and gives all its members', () => {
    const looped = new Map(acyclic);
    looped.set('src/config.ts', `import { parse } from './features/alerts/worker';`);
    const graph = folderGraph(looped, roots);
    // config -> alerts -> executions -> jobs -> config, and alerts -> jobs -> config: all four reach each other.
    expect(folderComponents(graph)).toEqual([
      ['src/config.ts', 'src/features/alerts', 'src/features/executions', 'src/jobs'],
    ]);
    // The shortest loop through the first of them.
    expect(folderCycles(graph)).toEqual([
      ['src/config.ts', 'src/features/alerts', 'src/jobs', 'src/config.ts'],
    ]);
  });
});

describe('the check on a tree on disk', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const write = (files: Map<string, string>) => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folder-cycles-'));
    for (const [file, text] of files) {
      fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    return dir;
  };

  it('passes a tree without a loop and fails one with a loop', () => {
    expect(checkFolders(write(acyclic), roots)).toMatchObject({ ok: true, report: '', units: 5 });
    fs.rmSync(dir!, { recursive: true });
    const looped = new Map(acyclic);
    looped.set('src/jobs/contract.ts', `import type { Worker } from '../features/alerts/worker';`);
    const result = checkFolders(write(looped), roots);
    expect(result.ok).toBe(false);
    expect(result.report).toContain('Folder loop src/features/alerts -> src/jobs -> src/features/alerts');
  });

  it('passes on the repository as it is (npm run lint runs the same)', () => {
    const repository = path.resolve(import.meta.dirname, '..');
    const output = execFileSync('node', ['--import', 'tsx', 'scripts/folder-cycles.ts'], {
      cwd: repository,
      encoding: 'utf8',
    });
    expect(output).toMatch(/^folder-cycles: no loop between the \d+ folders/);
  });
});
