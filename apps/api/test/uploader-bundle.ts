import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureUploaderBuild } from '../../../scripts/uploader-build';

/** Global setup of the API tests: the uploader's single-file bundle, built when its sources changed. */
export default async function setup(): Promise<void> {
  await ensureUploaderBuild(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..'));
}
