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
  // The data folder goes once the server has exited (polled: the server is not this process's child any more).
  const alive = () => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + 30_000;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
