import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureUploaderBuild } from './uploader-build';
import { ensureWebBuild } from './web-build';

/**
 * `npm run build`: the web app and the onboard uploader's single-file bundle (scripts/uploader-build.ts), each when
 * its sources changed since the last build (or always with --force).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
try {
  await ensureWebBuild(root, { force: process.argv.includes('--force') });
  await ensureUploaderBuild(root, { force: process.argv.includes('--force') });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
