import { readdirSync, readFileSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The web app's features are its folders under src/features, read when the config loads, so the list cannot go stale.
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// The API's job names, read from the one list of them (JobPayloads in apps/api/src/jobs/contract.ts).
const jobNames = [
  ...readFileSync(new URL('./apps/api/src/jobs/contract.ts', import.meta.url), 'utf8')
    .match(/export interface JobPayloads \{([^}]*)\}/)[1]
    .matchAll(/^\s*'?([a-z][a-z-]*)'?:/gm),
].map((match) => match[1]);

/**
 * Each stored series has one module in apps/api/src/storage/ that alone touches its tables (ARCHITECTURE.md,
 * "Storage"): elsewhere no SQL names a value table (a string or an SQL template), and nothing inserts, updates or
 * deletes the events or the record book. A rule of its own (not no-restricted-syntax, whose settings one config
 * block would replace in another's).
 */
const VALUE_TABLE =
  /\b(raw_timestamps|raw_values|measurement_values|report_values|report_values_daily|report_values_monthly|report_values_yearly|ledger_segments|port_calls|port_call_fuel|voyages|voyage_fuel)\b/;
const EVENT_TABLE = /^(compliance_events|compliance_event_annotations|record_book_entries)( as \w+)?$/;
const storedSeries = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      valueTable:
        'The value tables belong to their modules in storage/: call the storage API (storage/index.ts).',
      eventWrite: 'Events and the record book are written through storage/ (events.ts, record-book.ts).',
    },
  },
  create(context) {
    return {
      Literal(node) {
        if (typeof node.value !== 'string') return;
        if (VALUE_TABLE.test(node.value) && /^\w+( as \w+)?$/.test(node.value))
          context.report({ node, messageId: 'valueTable' });
        const call = node.parent;
        if (
          EVENT_TABLE.test(node.value) &&
          call?.type === 'CallExpression' &&
          call.arguments[0] === node &&
          call.callee.type === 'MemberExpression' &&
          ['insertInto', 'updateTable', 'deleteFrom', 'mergeInto'].includes(call.callee.property.name)
        )
          context.report({ node, messageId: 'eventWrite' });
      },
      TemplateElement(node) {
        if (VALUE_TABLE.test(node.value.raw)) context.report({ node, messageId: 'valueTable' });
      },
    };
  },
};

/**
 * The web app's import zones (docs/decisions/0110-web-layers.md): the shell (router, layout, start) composes the
 * features; a feature uses ui, lib and packages, and another feature only through its index.ts; ui uses lib; lib, the
 * lowest layer of the app (api client, session, notifications, connectivity state, settings, queries), uses only
 * packages. The shell may import a feature's insides: the route table's lazy pages must be their own chunks.
 */
function webLayerZones() {
  const web = './apps/web/src';
  return [
    {
      target: `${web}/features`,
      from: `${web}/shell`,
      message:
        'Features never import the shell (it composes them): move what both need to src/lib, or a widget to src/ui.',
    },
    {
      target: `${web}/ui`,
      from: [`${web}/shell`, `${web}/features`],
      message: 'ui holds widgets without a domain: it imports lib and packages, never features or the shell.',
    },
    {
      target: `${web}/lib`,
      from: [`${web}/shell`, `${web}/features`, `${web}/ui`],
      message:
        'lib is the lowest layer of the web app: it imports packages only, never ui, features or the shell.',
    },
    // A feature imports another only through its public entry (features/<name>/index.ts), never its insides.
    ...webFeatures.flatMap((feature) =>
      webFeatures
        .filter((other) => other !== feature)
        .map((other) => ({
          target: `${web}/features/${feature}`,
          from: `${web}/features/${other}`,
          except: ['./index.ts'],
          message: `Features do not import each other's insides: import what ${other} offers from its index.ts, or move the shared piece to src/ui, src/lib or packages/contracts.`,
        })),
    ),
  ];
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'e2e/.artifacts/**',
      'bench/.work/**',
      'bench/results/**',
      '**/*.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    // Without a resolver that knows .ts and .tsx, import-x resolves no relative import and the zones below never fire.
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // The web app's layers, one direction of imports (bulletproof-react's "unidirectional codebase"):
      // shell -> features -> ui -> lib -> packages. Type-only imports count too (the rule sees every import).
      'import-x/no-restricted-paths': ['error', { zones: webLayerZones() }],
    },
  },
  ...checkedHabits(),
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/storage/**', 'apps/api/src/db/**', '**/*.test.ts'],
    plugins: { portal: { rules: { 'stored-series': storedSeries } } },
    rules: { 'portal/stored-series': 'error' },
  },
  {
    files: ['packages/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify*', 'kysely', 'pg', '@electric-sql/*', 'react*'],
              message: 'contracts holds schemas and pure rules only.',
            },
          ],
        },
      ],
    },
  },
);

/**
 * Type-aware no-floating-promises, import cycles and the API's layer zones (issue 16). A function declaration, so
 * that it can sit below the export that spreads it.
 */
function checkedHabits() {
  // The TypeScript files of the tsconfig projects (one per workspace, as their "include" lists them): linted with
  // type information. Other files (the root vitest.config.ts) are linted without.
  const typedFiles = [
    'packages/*/src/**/*.ts',
    'packages/formula/test/**/*.ts',
    'apps/api/src/**/*.ts',
    'apps/api/test/**/*.ts',
    'apps/web/src/**/*.{ts,tsx}',
    'apps/web/vite.config.ts',
    'e2e/**/*.ts',
    'bench/**/*.ts',
  ];

  // The API's layers, one direction of imports: routes -> services -> engine (features/executions) -> jobs, storage
  // -> db, with config.ts below them all. scripts/folder-cycles.ts (npm run lint) fails on any loop between folders.
  const api = './apps/api/src';
  const apiRouteFiles = [`${api}/features/*/routes.ts`, `${api}/features/*/*-routes.ts`];
  const apiLayerZones = [
    {
      target: `${api}/db`,
      from: [`${api}/features`, `${api}/storage`, `${api}/jobs`],
      message: 'db is the lowest layer: it imports nothing from features, storage or jobs.',
    },
    {
      target: `${api}/storage`,
      from: [`${api}/features`, `${api}/jobs`],
      message: 'storage sits below the engine and the services: it imports nothing from features or jobs.',
    },
    {
      target: `${api}/jobs`,
      from: [`${api}/features`, `${api}/services.ts`],
      message:
        "jobs/ (the contract and the queue) sits below the features: a feature's handlers are wired to the queue in features/jobs.ts.",
    },
    {
      target: `${api}/config.ts`,
      from: [`${api}/features`, `${api}/jobs`, `${api}/storage`, `${api}/services.ts`],
      message:
        'config.ts is read by every layer and imports none of them (a shared parser goes below it, e.g. networks.ts).',
    },
    {
      target: `${api}/features/executions`,
      from: [`${api}/features/alerts`, `${api}/features/data-health`],
      message:
        'The engine gets the alert outbox and data health through its ports (features/executions/ports.ts), wired in features/engine-ports.ts.',
    },
  ];
  // Route files are leaves: only app.ts and features/index.ts, which register them, import them (see the blocks
  // below). This also keeps the engine (features/executions) from importing route handlers; a separate zone for
  // it would report each such import twice.
  const apiRouteZone = {
    target: `${api}/**`,
    from: apiRouteFiles,
    message:
      'Route handlers are imported by features/index.ts only: import the service or queries they call instead.',
  };

  return [
    {
      // Type-aware rules: each file is checked with the tsconfig.json nearest to it.
      files: typedFiles,
      languageOptions: {
        parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      },
      rules: {
        '@typescript-eslint/no-floating-promises': 'error',
      },
    },
    {
      // import-x reads TypeScript modules (for no-cycle) with the TypeScript parser, resolving them as Node does.
      settings: {
        'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
        'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
        'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
        'import-x/resolver-next': [
          importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.json'] }),
        ],
      },
    },
    {
      files: ['apps/api/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
      rules: {
        'import-x/no-cycle': ['error', { ignoreExternal: true }],
      },
    },
    {
      // A job is sent by its constant (JOB_NAMES.execution), never by a string of its own.
      files: ['apps/api/**/*.ts', 'bench/**/*.ts'],
      ignores: ['apps/api/src/jobs/contract.ts'],
      rules: {
        'no-restricted-syntax': [
          'error',
          {
            selector: `CallExpression[callee.property.name=/^(send|sendInTransaction)$/] > Literal[value=/^(${jobNames.join('|')})$/]`,
            message:
              'Send a job by its constant from apps/api/src/jobs/contract.ts (JOB_NAMES), not a string.',
          },
        ],
      },
    },
    {
      files: ['apps/api/src/**/*.ts'],
      ignores: ['apps/api/src/app.ts', 'apps/api/src/features/index.ts'],
      rules: {
        'import-x/no-restricted-paths': ['error', { zones: [...apiLayerZones, apiRouteZone] }],
      },
    },
    {
      // The app's registration imports the route files.
      files: ['apps/api/src/app.ts', 'apps/api/src/features/index.ts'],
      rules: {
        'import-x/no-restricted-paths': ['error', { zones: apiLayerZones }],
      },
    },
  ];
}
