// Lint: typescript-eslint's strict type-checked rules over everything TypeScript; formatting is
// Prettier's business (eslint-config-prettier turns off the rules that would disagree with it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'data/', 'packages/*/dist/', 'packages/client/src/schema.ts', 'web/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Numbers read naturally in messages ("at most 366 days").
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // Fastify handlers and hooks are async by convention, awaiting or not.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_' }],
    },
  },
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
  // Import boundaries (CONTRIBUTING.md "The layout"): the web app and the server share code only
  // through packages/, a package imports no application code, and SQL never reaches up into the
  // features that use it.
  // No import cycles, in the server and in the web app.
  {
    files: ['src/**/*.ts', 'web/**/*.ts', 'web/**/*.tsx', 'packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // TypeScript's ESM imports name the emitted `.js`; the files are `.ts` and `.tsx`.
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      // Cycles are ours to find: dependencies are not parsed (PGlite's bundles overflow the parser).
      'import-x/ignore': ['node_modules'],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['web/**/*.ts', 'web/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      // The rules of hooks; the React Compiler's stricter rules wait until the app is compiled by it.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+(src|test|bench|scripts)/', message: 'The web app imports packages/, never the server.' }] },
      ],
    },
  },
  // The web app's layout (docs/web.md "The code"): the shell (app/) composes features; features
  // build on lib/ and components/; lib/ and components/ know no feature and no shell.
  {
    files: ['web/src/features/**/*.tsx', 'web/src/features/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+(src|test|bench|scripts)/', message: 'The web app imports packages/, never the server.' },
            { regex: '(^|/)app/', message: 'A feature never imports the app shell; read the session from lib/session.' },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/lib/**', 'web/src/components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+(src|test|bench|scripts)/', message: 'The web app imports packages/, never the server.' },
            { regex: '(^|/)(app|features)/', message: 'lib/ and components/ know no feature and no shell.' },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./\\.\\./\\.\\./', message: 'A package imports only itself and its dependencies.' }] },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+(web|test|bench)/', message: 'The server imports packages/, never the web app or tests.' }] },
      ],
    },
  },
  {
    // A later block's no-restricted-imports replaces the one above, so it repeats the server's rule.
    // The one exception: repositories compose the access rules' SQL half (modules/access/predicates.ts),
    // which imports only the schema and Drizzle.
    files: ['src/repositories/**/*.ts', 'src/db/**/*.ts', 'src/lib/**/*.ts', 'src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)modules/(?!access/predicates\\.js$)',
              message: 'Lower layers (lib, db, repositories, http) never import a feature module (but the access predicates).',
            },
            { regex: '^(\\.\\./)+(web|test|bench)/', message: 'The server imports packages/, never the web app or tests.' },
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON responses as `any` on purpose (the assertions are the type check) and
    // assert presence with `!` after an expect.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      // A test process runs many files and shares a render pool and a database between them
      // (test/helpers/per-process.ts); a reset module registry gives the next files classes other
      // than those objects were made with, and `instanceof` fails far from the cause.
      'no-restricted-properties': [
        'error',
        { object: 'vi', property: 'resetModules', message: 'Make a fresh instance with a factory instead of resetting modules.' },
      ],
    },
  },
  prettier,
);
