// Lint: typescript-eslint's strict type-checked rules over everything TypeScript; formatting is
// Prettier's business (eslint-config-prettier turns off the rules that would disagree with it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
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
  {
    files: ['web/**/*.ts', 'web/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+(src|test|bench|scripts)/', message: 'The web app imports packages/, never the server.' }] },
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
    files: ['src/repositories/**/*.ts', 'src/db/**/*.ts', 'src/lib/**/*.ts', 'src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)modules/', message: 'Lower layers (lib, db, repositories, http) never import a feature module.' },
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
    },
  },
  prettier,
);
