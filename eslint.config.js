import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The web app's features are its folders under src/features, read when the config loads, so the list cannot go stale.
const webFeatures = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

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
      // A feature may use the app shell, the shared ui and contracts, and another feature only through its public
      // entry (features/<name>/index.ts, e.g. the calculation editor the measurement field and report screens
      // embed), never another feature's insides (bulletproof-react): other shared pieces move to src/ui or contracts.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: webFeatures.flatMap((feature) =>
            webFeatures
              .filter((other) => other !== feature)
              .map((other) => ({
                target: `./apps/web/src/features/${feature}`,
                from: `./apps/web/src/features/${other}`,
                except: ['./index.ts'],
                message: `Features do not import each other's insides: import what ${other} offers from its index.ts, or move the shared piece to src/ui or packages/contracts.`,
              })),
          ),
        },
      ],
    },
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
