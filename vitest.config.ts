import { defineConfig } from 'vitest/config';

// One project per workspace; browser tests (e2e/*.spec.ts) are Playwright's, not vitest's.
// Timeouts are generous: a 2-core CI machine may be busy, and a slow machine is not a failure.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    // Two test files at a time in every project (the machines here have 2 cores).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'contracts',
          root: 'packages/contracts',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'formula',
          root: 'packages/formula',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'demo-fleet',
          root: 'packages/demo-fleet',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'edge',
          root: 'packages/edge',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          root: 'apps/api',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two files at a time: a server test waits on its database and its HTTP calls as much as it computes. On
          // PostgreSQL each worker has a database of its own (test/worker-database.ts).
          fileParallelism: true,
          // A worker imports the app once for all its files (importing it took 5-7 s a file): module state is shared
          // between a worker's files, so a module's cache is keyed by its database (as storage/partitions.ts does).
          isolate: false,
          setupFiles: ['test/worker-database.ts'],
          // The onboard uploader's bundle, which the package route and the uploader tests read (scripts/uploader-build.ts),
          // and the migrated template of the embedded database that each test server starts from (test/database-template.ts).
          globalSetup: ['test/uploader-bundle.ts', 'test/database-template.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'scripts',
          root: 'scripts',
          include: ['*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
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
