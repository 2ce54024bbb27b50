// ESLint flat config: typescript-eslint's type-aware recommended rules plus a few stricter ones.
// Formatting is Prettier's job (.prettierrc.json); eslint-config-prettier switches off anything that would fight it.
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  globalIgnores(['node_modules/', 'dist/', 'data/', '.tmp/', 'bench/results/', 'bench/.data/', 'bench/.build/']),
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's test()/describe() return promises that the runner itself awaits.
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-assertions': [
        'error',
        { assertionStyle: 'as', objectLiteralTypeAssertions: 'never' },
      ],
      // `async` without `await` is used on purpose here: it implements Promise-returning contracts (Kysely's
      // MigrationProvider, Fastify handlers, DataVersion, CLI commands, test doubles) so that a throw becomes a
      // rejection. The rule's remedies (drop `async`, wrap in Promise.resolve) would change that or add noise;
      // no-floating-promises and no-misused-promises still catch the promise bugs that matter.
      '@typescript-eslint/require-await': 'off',
      // Same convention as tsc's noUnusedParameters: a leading underscore marks a deliberately unused name.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Every write of the service goes through the write helper (src/changes/writes.ts), which publishes
    // what it changed to the data version and the caches; a transaction opened anywhere else would not.
    // The CLI's bulk seed and user commands write outside any server and move the data version themselves.
    // Webhook subscriptions and deliveries are read by no cache and change no representation.
    files: ['src/**/*.ts'],
    ignores: ['src/changes/writes.ts', 'src/modules/seed/**', 'src/modules/users/**', 'src/modules/webhooks/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='transaction'][arguments.length=0]",
          message: 'Write through ctx.write (src/changes/writes.ts), which publishes what the write changed.',
        },
      ],
    },
  },
  {
    // Response bodies in the tests are deliberately `any` (test/helpers/app.ts): the assertions are the type check.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Plain JavaScript (scripts/*.mjs, this file): outside tsconfig.json, so no type information; Node globals.
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: globals.node,
    },
  },
  {
    // The editor's script runs in browsers (API.md §23.2: an enhancement of the plain forms).
    files: ['public/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: globals.browser,
    },
  },
  prettier,
);
