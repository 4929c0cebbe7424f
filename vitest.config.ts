import { defineConfig } from 'vitest/config';

// One project per workspace; browser tests (e2e/*.spec.ts) are Playwright's, not vitest's.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contracts', root: 'packages/contracts', include: ['src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'formula', root: 'packages/formula', include: ['src/**/*.test.ts', 'test/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'demo-fleet', root: 'packages/demo-fleet', include: ['src/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'api',
          root: 'apps/api',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
    ],
  },
});
