import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * The onboard uploader shipped in the ship's download package is one file, psdu-uploader.mjs, so that the ship needs
 * Node.js and nothing else (docs/decisions/0121-edge-node.md): apps/api/src/features/ship-info/uploader/main.ts with
 * the edge node (packages/edge), the portal's readers and their npm dependencies bundled in by esbuild. It is built
 * into apps/api/dist/uploader/ (not committed) by `npm run build`, `npm start` and the API tests' global setup, again
 * only when one of the files it was built from (esbuild's list of inputs, kept beside it) or the lock file changed.
 */
export const UPLOADER_ENTRY = 'apps/api/src/features/ship-info/uploader/main.ts';
export const UPLOADER_OUTPUT = 'apps/api/dist/uploader/psdu-uploader.mjs';
const INPUTS_FILE = 'apps/api/dist/uploader/.inputs.json';
/** Part of the hash: a change to how the bundle is made rebuilds it. */
const RECIPE = 'esbuild esm node18 bundle; 1';

interface StoredInputs {
  hash: string;
  inputs: string[];
}

function hashOf(root: string, inputs: string[]): string {
  const hash = createHash('sha256').update(RECIPE);
  for (const input of [...inputs, 'package-lock.json'].sort()) {
    hash.update(`\0${input}\0`);
    try {
      hash.update(fs.readFileSync(path.join(root, input)));
    } catch {
      hash.update('(missing)');
    }
  }
  return hash.digest('hex');
}

/** Builds the uploader bundle unless the one there was built from the same files. Answers whether it built. */
export async function ensureUploaderBuild(root: string, options: { force?: boolean } = {}): Promise<boolean> {
  const output = path.join(root, UPLOADER_OUTPUT);
  if (!options.force && fs.existsSync(output)) {
    try {
      const stored = JSON.parse(fs.readFileSync(path.join(root, INPUTS_FILE), 'utf8')) as StoredInputs;
      if (stored.hash === hashOf(root, stored.inputs)) return false;
    } catch {
      // No record of the inputs: build.
    }
  }
  // Written beside and renamed into place: the API tests' global setup and `npm run build` may build it at the same
  // time (.ci/run runs them side by side), and a reader never sees half a file.
  const written = `${output}.${process.pid}.tmp`;
  const result = await build({
    absWorkingDir: root,
    entryPoints: [UPLOADER_ENTRY],
    outfile: written,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    metafile: true,
    legalComments: 'eof',
    logLevel: 'warning',
    // The CommonJS dependencies (mqtt, protobufjs, exceljs) call require() for Node's own modules.
    banner: {
      js: [
        '#!/usr/bin/env node',
        "import { createRequire as __psduCreateRequire } from 'node:module';",
        'const require = __psduCreateRequire(import.meta.url);',
      ].join('\n'),
    },
  });
  fs.renameSync(written, output);
  const inputs = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('<'));
  fs.writeFileSync(
    path.join(root, INPUTS_FILE),
    JSON.stringify({ hash: hashOf(root, inputs), inputs } satisfies StoredInputs),
  );
  return true;
}
