// ESLint, flat config, run by `npm test` (`npm run lint`). Type-aware rules (typescript-eslint's
// recommended-type-checked, plus its strict set where it is quiet on this code) on every TypeScript
// file a tsconfig owns: the packages' sources and the tests. Scripts, benches and build files are
// plain JavaScript with ESLint's recommended rules. Every rule turned off says why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'URL',
    'URLSearchParams',
    'Buffer',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'fetch',
    'AbortController',
    'AbortSignal',
    'TextEncoder',
    'TextDecoder',
    'performance',
    'structuredClone',
    'queueMicrotask',
    'Response',
    'Request',
    'Headers',
    'Blob',
    'FormData',
  ].map((name) => [name, 'readonly']),
);

/** The unsafe-any family, turned off together where `any` is the honest type (each use says why). */
const ANY_ALLOWED = Object.fromEntries(
  ['no-explicit-any', 'no-unsafe-assignment', 'no-unsafe-member-access', 'no-unsafe-call', 'no-unsafe-argument', 'no-unsafe-return'].map((rule) => [
    `@typescript-eslint/${rule}`,
    'off',
  ]),
);

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'dist-pack/**',
      'bench/results-raw/**',
      'coverage/**',
      '.jst-tracker/**',
      'packages/tracker/board-assets/**',
      'vitest.config.ts',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: {
        project: ['packages/*/tsconfig.json', 'test/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Numbers and booleans in messages are the common case (`${n} issues`); the rule stays on for
      // objects, arrays and possibly-missing values, which would print "[object Object]" or "undefined".
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {
          allowNumber: true,
          allowBoolean: true,
          allow: [
            { from: 'lib', name: ['URLSearchParams', 'URL'] },
            { from: 'package', package: 'url', name: ['URLSearchParams', 'URL'] },
          ],
        },
      ],
      // With noUncheckedIndexedAccess on, `xs[i]!` after a bounds check is the honest spelling; the
      // compiler, not this rule, keeps us from unchecked reads.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `(x) => void f(x)`-style shorthands that return a call's void are idiomatic in callbacks here.
      '@typescript-eslint/no-confusing-void-expression': 'off',
      // Unused arguments keep a callback's shape (Fastify hooks, commander actions) when named `_x`.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // A function that implements an async interface (a command's run, a store or client method)
      // stays `async` without awaiting, so that a throw is a rejection, as its callers expect.
      '@typescript-eslint/require-await': 'off',
      // Answers from the tracker, the code host, MCP clients and Node's own stdio are typed as they
      // should be, not as they may arrive (an issue without `fields`, `isTTY` undefined on a pipe):
      // reading them defensively is deliberate, and this rule would ask us to remove exactly that.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // Counting code points with `[...text]` is deliberate: our limits are in characters, the way
      // the tracker counts them, not in grapheme clusters.
      '@typescript-eslint/no-misused-spread': 'off',
    },
  },
  {
    // docs/style.md: a file is read in one sitting and a function on one screen or two.
    files: ['packages/*/src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Sanitisers and validators match control characters on purpose (terminal escapes, NUL in a
    // name, ESC in a remote answer): that is what they are for.
    rules: { 'no-control-regex': 'off' },
  },
  {
    // PostgreSQL returns BIGINT counts and ids as strings although the row types say number;
    // `Number(row.n)` in the stores is the conversion, not a no-op.
    files: ['packages/tracker/src/store/**/*.ts', 'packages/tracker/src/codehost/store/**/*.ts'],
    rules: { '@typescript-eslint/no-unnecessary-type-conversion': 'off' },
  },
  {
    // A Kysely migration is written against `Kysely<any>` on purpose: it must not depend on the
    // schema's current TypeScript type, which later migrations change (Kysely's migration guide).
    files: [
      'packages/tracker/src/store/migration*.ts',
      'packages/tracker/src/codehost/store/migration*.ts',
      'packages/tracker/src/store/adapter.ts',
      'packages/tracker/src/store/*/adapter.ts',
    ],
    rules: {
      ...ANY_ALLOWED,
    },
  },
  {
    // Tests read the servers' JSON answers untyped and assert on them field by field: the assertion
    // is the check, so the unsafe-any family would only ask for casts that prove nothing.
    files: ['test/**/*.ts', 'packages/*/test/**/*.ts'],
    rules: {
      ...ANY_ALLOWED,
      // Tests run async functions that assert after awaits; an async callback without await is a
      // harmless shape there (vitest's `it(…, async () => …)`).
      '@typescript-eslint/require-await': 'off',
      // Teardown guards (`afterAll(() => t?.close())`) run even when the setup failed before it
      // assigned `t`; the variable's declared type cannot say so, the guard must stay.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // Typed helpers (`json<T>()`) whose one use of T is the answer's declared shape read well in tests.
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
      // As in the stores: PostgreSQL answers counts as strings, so `Number(row.n)` is a conversion.
      '@typescript-eslint/no-unnecessary-type-conversion': 'off',
      // Tests pass methods of fakes and fixtures around where `this` is never used.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { globals: { ...nodeGlobals, module: 'writable', require: 'readonly', __dirname: 'readonly' } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }] },
  },
);
