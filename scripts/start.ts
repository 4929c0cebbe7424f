import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type Config } from '../apps/api/src/config';
import { ensureWebBuild } from './web-build';

/**
 * `npm start`: the configuration checked first (a bad value stops here, with exit code 2), the web app built when its
 * sources changed since the last build (scripts/web-build.ts), then the server (apps/api/src/main.ts) in this
 * process, which opens its port at once.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}

// The dependencies run on Node 20.19 and later; a few of them ask for 22 (README, "Node"), and oidc-provider says so.
if (Number(process.versions.node.split('.')[0]) < 22)
  console.log(
    `Node ${process.version}: the portal runs on it (20.19 or later); the "Unsupported runtime" warning of oidc-provider below asks for Node 22 (README, "Node")`,
  );

if (config.services.web && !config.WEB_DIST) {
  // A Ctrl-C reaches the build too (same terminal); a SIGTERM sent to this process alone is passed on.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await ensureWebBuild(root, { signal: stop.signal });
  } catch (error) {
    if (stop.signal.aborted) {
      console.error('Stopped during the web build: the next start builds it again');
      process.exit(130);
    }
    console.error((error as Error).message);
    process.exit(1);
  }
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
}

// The onboard uploader's bundle, which the ship's download package carries (a few seconds, only when it changed).
// Without it the portal runs, and only the package download says what is missing.
try {
  const { ensureUploaderBuild } = await import('./uploader-build');
  await ensureUploaderBuild(root);
} catch (error) {
  console.warn(`The onboard uploader could not be built (npm run build): ${(error as Error).message}`);
}

// By its address, so the type check of scripts/ does not take in the whole server (apps/api has its own).
await import(new URL('../apps/api/src/main.ts', import.meta.url).href);
