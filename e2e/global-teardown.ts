import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export default async function globalTeardown(): Promise<void> {
  const file = path.join(root, 'e2e', '.artifacts', `server-${process.env.E2E_PORT ?? 18181}.json`);
  if (!fs.existsSync(file)) return;
  const { pid, dataDir } = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number; dataDir: string };
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // already gone
  }
  await new Promise((r) => setTimeout(r, 1000));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
