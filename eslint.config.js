// Lint: strict typed rules everywhere, no import cycles, and machines/ and policy/ kept pure
// (no I/O, no clock, no randomness, no environment; they import only each other and config/).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const impureModules = [
  'fs', 'fs/promises', 'child_process', 'os', 'net', 'http', 'https', 'process', 'path',
  'node:fs', 'node:fs/promises', 'node:child_process', 'node:os', 'node:net', 'node:http',
  'node:https', 'node:process', 'node:path', 'execa', 'ulid',
];

/**
 * machines/ and policy/ are pure: the rules that keep I/O, clocks, randomness and environment out
 * (tested). Replay re-derives machine transitions and tool rulings from the journal, so both must give
 * the same output for the same input; they may import only each other and config/.
 */
export const machinePurityRules = {
  'no-restricted-imports': ['error', {
    paths: impureModules.map((name) => ({ name, message: 'machines/ and policy/ are pure: no I/O, clock, randomness or environment.' })),
  }],
  'no-restricted-globals': ['error',
    { name: 'process', message: 'machines/ and policy/ are pure: no environment.' },
    { name: 'setTimeout', message: 'machines/ and policy/ are pure: no clock.' },
    { name: 'setInterval', message: 'machines/ and policy/ are pure: no clock.' },
    { name: 'fetch', message: 'machines/ and policy/ are pure: no I/O.' },
    { name: 'performance', message: 'machines/ and policy/ are pure: no clock.' },
    { name: 'crypto', message: 'machines/ and policy/ are pure: no randomness.' },
  ],
  'no-restricted-syntax': ['error',
    { selector: "MemberExpression[object.name='Date'][property.name='now']", message: 'machines/ and policy/ are pure: time is a journaled input.' },
    { selector: "NewExpression[callee.name='Date']", message: 'machines/ and policy/ are pure: time is a journaled input.' },
    { selector: "MemberExpression[object.name='Math'][property.name='random']", message: 'machines/ and policy/ are pure: randomness is a journaled input.' },
  ],
};

/** Every folder of store/ above the journal seam (all but journal/ and session/; tests/lint/layering.test.ts checks the list is whole). */
export const STORE_ABOVE_THE_SEAM = ['./store/fold', './store/projections', './store/stash', './store/liveness', './store/gate', './store/fleet'];

const BACKEND_CHOICE = 'only store/session/ picks a journal backend: everything else talks to the JournalStore seam (store/journal/journal-store.ts, DESIGN §7).';

/**
 * The floors (DESIGN §7), every import pointing down: cli/ → store/ → effects/ → machines/ and
 * policy/ (pure, each may use the other) → config/, with errors/ a leaf anyone may use; inside store/,
 * only session/ knows which journal backend it opens. Checked on resolved paths, so a deep relative import cannot
 * slip past (tested in tests/lint/layering.test.ts).
 */
export const layeringRules = {
  'import-x/no-restricted-paths': ['error', {
    basePath: import.meta.dirname,
    zones: [
      { target: './effects', from: ['./store', './cli'], message: 'effects/ must not depend on store/ or cli/ (DESIGN §7).' },
      { target: './store', from: './cli', message: 'store/ must not depend on cli/ (DESIGN §7).' },
      {
        target: ['./cli', ...STORE_ABOVE_THE_SEAM.filter((folder) => folder !== './store/fleet')],
        from: ['./store/journal/file', './store/journal/postgres'],
        message: BACKEND_CHOICE,
      },
      { target: './store/fleet', from: './store/journal/file', message: BACKEND_CHOICE },
      {
        // The fleet exists only on a shared PostgreSQL store: its job queue and worker table live in that
        // database, so it may use the store's connection pool, schema check and URL redaction. The
        // journals themselves it reads through store/session/, like everything else.
        target: './store/fleet',
        from: './store/journal/postgres',
        except: ['./store-pool.ts', './store-schema.ts', './store-url.ts'],
        message: `${BACKEND_CHOICE} The fleet may use only the shared store's pool, schema and URL modules.`,
      },
      { target: './machines', from: ['./effects', './store', './cli', './errors', './bench', './tests'], message: 'machines/ imports only machines/, policy/ and config/ (DESIGN §7).' },
      { target: './policy', from: ['./effects', './store', './cli', './errors', './bench', './tests'], message: 'policy/ imports only policy/, machines/ and config/: replay re-derives its rulings (DESIGN §7, §13).' },
      { target: './config', from: ['./machines', './policy', './effects', './store', './cli'], message: 'config/ is the bottom floor: it imports only config/ and errors/ (DESIGN §7).' },
      { target: './errors', from: ['./machines', './policy', './effects', './store', './cli', './config'], message: 'errors/ is a leaf: it imports nothing of yoke (DESIGN §7).' },
    ],
  }],
};

/** Sources import `./x.js` for `./x.ts` (NodeNext): resolve both, so the layering and cycle rules see every import. */
export const importSettings = {
  'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'], extensionAlias: { '.js': ['.ts', '.js'], '.mjs': ['.mts', '.mjs'] } })],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'tests/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      'import-x/no-cycle': 'error',
      ...layeringRules,
    },
  },
  { files: ['machines/**/*.ts', 'policy/**/*.ts'], rules: machinePurityRules },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly' },
    },
  },
);
