// Lint: strict typed rules everywhere, no import cycles, and machines/ and policy/ kept pure
// (no I/O, no clock, no randomness, no environment; they import only each other and config/).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

const impureModules = [
  'fs', 'fs/promises', 'child_process', 'os', 'net', 'http', 'https', 'process', 'path',
  'node:fs', 'node:fs/promises', 'node:child_process', 'node:os', 'node:net', 'node:http',
  'node:https', 'node:process', 'node:path', 'execa', 'ulid',
];

/** The floors above machines/ and policy/ (and the folders beside them) that neither may import. */
const upperFloors = ['store', 'effects', 'cli', 'canon', 'bench', 'tests'].flatMap((floor) => [`**/${floor}`, `**/${floor}/**`]);

/**
 * machines/ and policy/ are pure: the rules that keep I/O, clocks, randomness and environment out
 * (tested). Replay re-derives machine transitions and tool rulings from the journal, so both must give
 * the same output for the same input; they may import only each other and config/.
 */
export const machinePurityRules = {
  'no-restricted-imports': ['error', {
    paths: impureModules.map((name) => ({ name, message: 'machines/ and policy/ are pure: no I/O, clock, randomness or environment.' })),
    patterns: [{ group: upperFloors, message: 'machines/ and policy/ must not depend on effects, store or cli: they import only each other and config/.' }],
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

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'tests/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      'import-x/no-cycle': 'error',
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
