import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 18181);
export const baseURL = `http://localhost:${port}`;

/**
 * Browser tests against the real server (embedded database in a fresh folder, demo fleet seeded), driven in
 * Debian's Chromium: never a downloaded browser.
 */
export default defineConfig({
  testDir: './tests',
  testMatch: '**/*.spec.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: '.artifacts/results',
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
