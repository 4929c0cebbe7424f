/**
 * Folder loops: fails when two folders (units) of a source tree import each other, directly or round a longer loop.
 * `npm run lint` runs it (`node --import tsx scripts/folder-cycles.ts`); import-x's no-cycle sees modules only, and
 * not the type-only imports, so a loop between folders whose files never form a module cycle went unseen.
 *
 * A unit is a first-level folder of a root (apps/api/src/jobs, apps/api/src/storage, ...), each folder one level
 * deeper in an expanded folder (apps/api/src/features/alerts, apps/web/src/features/map), or a file directly in
 * the root (apps/api/src/config.ts). Every import counts, `import type`, `export ... from` and `import('...')`
 * included; imports of packages (`@portal/contracts`, node_modules) are outside the graph.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface UnitRoot {
  /** The folder, relative to the repository (forward slashes). */
  dir: string;
  /** First-level folders whose subfolders are units of their own (features/*). */
  expand: readonly string[];
  /** First-level folders or files left out of the graph (their imports and the imports of them). */
  leaveOut?: readonly string[];
}

/**
 * The roots `npm run lint` checks: the API's features and layers, and the web's features and layers (shell, lib, ui:
 * docs/decisions/0110-web-layers.md).
 */
export const ROOTS: readonly UnitRoot[] = [
  { dir: 'apps/api/src', expand: ['features'] },
  { dir: 'apps/web/src', expand: ['features'] },
];

/** One import from a file of one unit to a file of another. */
export interface UnitImport {
  from: string;
  to: string;
  /** The importing file and the specifier as written, e.g. `apps/api/src/config.ts imports './features/x'`. */
  file: string;
  specifier: string;
}

export interface FolderGraph {
  units: Set<string>;
  /** unit -> unit it imports -> the imports that make the arrow (in file order). */
  edges: Map<string, Map<string, UnitImport[]>>;
}

const SOURCE = /\.(ts|tsx|mts)$/;
const RESOLVE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.mjs', '/index.ts', '/index.tsx'];

/** The unit of a file (repository-relative, forward slashes), or undefined outside the roots. */
export function unitOf(file: string, roots: readonly UnitRoot[]): string | undefined {
  for (const root of roots) {
    if (!file.startsWith(`${root.dir}/`)) continue;
    const parts = file.slice(root.dir.length + 1).split('/');
    if (root.leaveOut?.includes(parts[0]!)) return undefined;
    if (parts.length === 1) return `${root.dir}/${parts[0]}`;
    if (root.expand.includes(parts[0]!) && parts.length > 2) return `${root.dir}/${parts[0]}/${parts[1]}`;
    return `${root.dir}/${parts[0]}`;
  }
  return undefined;
}

/** The specifiers a module imports, type-only and dynamic imports included (TypeScript's own pre-scan). */
export function importSpecifiers(source: string): string[] {
  const info = ts.preProcessFile(source, true, true);
  return info.importedFiles.map((f) => f.fileName);
}

/** The file a relative specifier names among `files` (as Node and the bundler resolve it), if any. */
function resolve(fromFile: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  if (files.has(base)) return base;
  // A '.js' specifier of a TypeScript file (NodeNext style) names the '.ts' beside it.
  const stem = base.replace(/\.(js|mjs)$/, '');
  for (const extension of RESOLVE_EXTENSIONS) if (files.has(stem + extension)) return stem + extension;
  return undefined;
}

/** The graph of units from the sources (repository-relative path -> text). */
export function folderGraph(sources: ReadonlyMap<string, string>, roots: readonly UnitRoot[]): FolderGraph {
  const files = new Set(sources.keys());
  const graph: FolderGraph = { units: new Set(), edges: new Map() };
  for (const [file, text] of sources) {
    const from = unitOf(file, roots);
    if (!from) continue;
    graph.units.add(from);
    for (const specifier of importSpecifiers(text)) {
      const target = resolve(file, specifier, files);
      const to = target && unitOf(target, roots);
      if (!to || to === from) continue;
      const arrows = graph.edges.get(from) ?? new Map<string, UnitImport[]>();
      graph.edges.set(from, arrows);
      const imports = arrows.get(to) ?? [];
      arrows.set(to, imports);
      imports.push({ from, to, file, specifier });
    }
  }
  return graph;
}

/**
 * The loops of the graph: one per group of units that reach each other (a strongly connected component of two or
 * more units, Tarjan's algorithm), each given as a path round the loop, first unit repeated at the end.
 */
export function folderCycles(graph: FolderGraph): string[][] {
  return folderComponents(graph).map((component) => loopThrough(graph, component));
}

/** The groups of two or more units that reach each other (strongly connected components), each sorted. */
export function folderComponents(graph: FolderGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  const successors = (unit: string) => [...(graph.edges.get(unit)?.keys() ?? [])].sort();
  const visit = (unit: string) => {
    index.set(unit, next);
    low.set(unit, next);
    next++;
    stack.push(unit);
    onStack.add(unit);
    for (const to of successors(unit)) {
      if (!index.has(to)) {
        visit(to);
        low.set(unit, Math.min(low.get(unit)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(unit, Math.min(low.get(unit)!, index.get(to)!));
    }
    if (low.get(unit) === index.get(unit)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== unit);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const unit of [...graph.units].sort()) if (!index.has(unit)) visit(unit);
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** A shortest loop from the component's first unit back to itself, inside the component (breadth first). */
function loopThrough(graph: FolderGraph, component: string[]): string[] {
  const members = new Set(component);
  const start = component[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const unit = queue.shift()!;
    for (const to of [...(graph.edges.get(unit)?.keys() ?? [])].sort()) {
      if (!members.has(to)) continue;
      if (to === start) {
        const loop = [start];
        for (let at: string | undefined = unit; at !== undefined && at !== start; at = cameFrom.get(at))
          loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, unit);
        queue.push(to);
      }
    }
  }
  return [...component, start];
}

/**
 * The report of the loops: per group of units that reach each other, its members, one loop through them with the
 * first import that makes each arrow, and every pair of its units that import each other directly.
 */
export function describeCycles(graph: FolderGraph, components: string[][]): string {
  const arrow = (from: string, to: string) => {
    const imports = graph.edges.get(from)!.get(to)!;
    const more = imports.length > 1 ? ` (and ${imports.length - 1} more)` : '';
    return `${imports[0]!.file} imports '${imports[0]!.specifier}'${more}`;
  };
  return components
    .map((component) => {
      const loop = loopThrough(graph, component);
      const arrows = loop
        .slice(0, -1)
        .map((from, i) => `  ${from} -> ${loop[i + 1]}: ${arrow(from, loop[i + 1]!)}`);
      const pairs = component.flatMap((a) =>
        component
          .filter((b) => a < b && graph.edges.get(a)?.has(b) && graph.edges.get(b)?.has(a))
          .map((b) => `  ${a} <-> ${b}:\n    ${arrow(a, b)}\n    ${arrow(b, a)}`),
      );
      return [
        `Folder loop ${loop.join(' -> ')}`,
        ...arrows,
        ...(component.length > 2
          ? [`These ${component.length} folders all reach each other: ${component.join(', ')}`]
          : []),
        ...(pairs.length && component.length > 2 ? ['Pairs that import each other:', ...pairs] : []),
      ].join('\n');
    })
    .join('\n\n');
}

/** The source files under the roots (tests included: a test file's imports are its folder's too). */
export function readSources(repository: string, roots: readonly UnitRoot[]): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(repository, dir), { withFileTypes: true })) {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(relative);
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts'))
        sources.set(relative, fs.readFileSync(path.join(repository, relative), 'utf8'));
    }
  };
  for (const root of roots) walk(root.dir);
  return sources;
}

/** Checks the roots of a repository: the report and whether it is clean. */
export function checkFolders(
  repository: string,
  roots: readonly UnitRoot[] = ROOTS,
): { ok: boolean; report: string; units: number } {
  const graph = folderGraph(readSources(repository, roots), roots);
  const components = folderComponents(graph);
  return { ok: components.length === 0, report: describeCycles(graph, components), units: graph.units.size };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { ok, report, units } = checkFolders(repository);
  if (ok)
    console.log(
      `folder-cycles: no loop between the ${units} folders of ${ROOTS.map((r) => r.dir).join(', ')}`,
    );
  else {
    console.error(report);
    console.error(
      '\nFolders import one way only (ARCHITECTURE.md, "Imports and layers"): move the shared piece down (jobs/, storage/, packages/contracts) or hand it in as a port.',
    );
    process.exitCode = 1;
  }
}
