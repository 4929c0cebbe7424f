import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 18181);
export const baseURL = `http://localhost:${port}`;
/**
 * Which specs this run takes: all of them by default; E2E_SPECS=accessibility the accessibility spec alone (every
 * route for every role at two sizes: the longest), E2E_SPECS=rest every other, e.g. to run them side by side with a
 * server each (E2E_PORT). `.ci/run` runs them in one: side by side beside the PostgreSQL tests on 2 cores, each test
 * took twice as long (seen 2026-11-29: 1.4 tests a minute against 3.7), so the split gained nothing there.
 */
const specs = process.env.E2E_SPECS ?? 'all';
if (!['all', 'accessibility', 'rest'].includes(specs))
  throw new Error(`E2E_SPECS takes all, accessibility or rest, not ${specs}`);

/**
 * Browser tests against the real server (embedded database in a fresh folder, demo fleet seeded), driven in
 * Debian's Chromium: never a downloaded browser.
 */
export default defineConfig({
  testDir: './tests',
  testMatch: specs === 'accessibility' ? '**/accessibility.spec.ts' : '**/*.spec.ts',
  testIgnore: specs === 'rest' ? '**/accessibility.spec.ts' : [],
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  // A folder per server: two runs side by side must not clear each other's results.
  outputDir: `.artifacts/results-${port}`,
  use: {
    baseURL,
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
});
