// `protect auto` (DESIGN §16): the files yoke can tell decide "done", inferred from the config's
// own commands and from the conventions of common test tools. Pure: whether a named file exists is
// the caller's question to answer (`isFile`).
import { shellWords, type ShellWord } from '../../config/shell-words.js';
import type { Config } from '../../config/types.js';

/** One inferred pattern and why yoke protects it (shown by `yoke config check`). */
export interface AutoRule {
  pattern: string;
  why: string;
}

/** Folders and files test tools find by convention; protected whether or not they exist yet (an agent may add one). */
export const CONVENTIONAL_PATTERNS: readonly AutoRule[] = [
  { pattern: 'tests/', why: 'conventional test folder' },
  { pattern: 'test/', why: 'conventional test folder' },
  { pattern: 'spec/', why: 'conventional test folder' },
  { pattern: '**/__tests__/', why: 'conventional test folder (jest)' },
  { pattern: '**/*.test.*', why: 'conventional test file name' },
  { pattern: '**/*.spec.*', why: 'conventional test file name' },
  { pattern: '**/test_*.py', why: 'pytest test file name' },
  { pattern: '**/*_test.py', why: 'pytest test file name' },
  { pattern: '**/conftest.py', why: 'pytest fixtures' },
  { pattern: '**/*_test.go', why: 'go test file name' },
  { pattern: '.github/workflows/', why: 'CI config' },
  { pattern: '.gitlab-ci.yml', why: 'CI config' },
  { pattern: '.circleci/', why: 'CI config' },
  { pattern: '.husky/', why: 'git hooks' },
];

/** Files a test tool reads its configuration from, by the program that runs it. */
const TOOL_FILES: ReadonlyArray<{ programs: readonly string[]; files: readonly string[] }> = [
  {
    programs: ['npm', 'npx', 'yarn', 'pnpm', 'bun', 'node', 'vitest', 'jest', 'mocha', 'playwright'],
    files: ['package.json', 'vitest.config.ts', 'vitest.config.js', 'vitest.config.mjs', 'jest.config.js', 'jest.config.ts', 'jest.config.cjs', 'jest.config.mjs', '.mocharc.json', '.mocharc.yml', '.mocharc.js', 'playwright.config.ts', 'playwright.config.js'],
  },
  { programs: ['pytest', 'py.test', 'tox', 'python', 'python3', 'uv', 'poetry'], files: ['pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini'] },
  { programs: ['cargo'], files: ['Cargo.toml', '.cargo/config.toml'] },
  { programs: ['go'], files: ['go.mod'] },
  { programs: ['make'], files: ['Makefile', 'makefile', 'GNUmakefile'] },
];

/** Every command the config runs to decide "done": guards, periodics, guard-afters and accepts, labelled for messages. */
export function checkCommands(config: Config): Array<{ label: string; command: string }> {
  return [
    ...config.accepts.map((c) => ({ label: `accept ${c.name}`, command: c.command })),
    ...config.guards.map((c) => ({ label: `guard ${c.name}`, command: c.command })),
    ...config.periodics.map((c) => ({ label: `periodic ${c.name}`, command: c.command })),
    ...config.guardAfters.map((c) => ({ label: `guard-after ${c.name}`, command: c.command })),
  ];
}

/** The project-relative path a literal word names, or null (an option, an assignment, absolute, outside, expanded by sh). */
export function wordPath(word: ShellWord): string | null {
  if (!word.literal || word.output || word.text === '' || word.text.startsWith('-') || word.text.startsWith('/') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text)) return null;
  const segments = word.text.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.length === 0 || segments.includes('..') || segments[0] === '.loop' || segments[0] === '.git') return null;
  return segments.join('/');
}

/**
 * The patterns `protect auto` stands for: each file a check command names that exists (a script,
 * a test file), the config files of the tools those commands run (`npm test` → `package.json`,
 * `pytest` → `pyproject.toml`, `cargo test` → `Cargo.toml`) when they exist, and the conventional
 * test folders, test file names and CI configs. Deduplicated, in that order.
 */
export function autoProtect(config: Config, isFile: (path: string) => boolean): AutoRule[] {
  const rules: AutoRule[] = [];
  const seen = new Set<string>();
  const add = (pattern: string, why: string): void => {
    if (seen.has(pattern)) return;
    seen.add(pattern);
    rules.push({ pattern, why });
  };
  for (const { label, command } of checkCommands(config)) {
    const words = shellWords(command);
    for (const word of words) {
      const path = wordPath(word);
      if (path !== null && isFile(path)) add(path, `named by \`${label}\``);
    }
    const programs = new Set(words.filter((word) => word.literal).map((word) => word.text.split('/').at(-1) ?? ''));
    for (const tool of TOOL_FILES) {
      const program = tool.programs.find((name) => programs.has(name));
      if (program === undefined) continue;
      for (const file of tool.files) if (isFile(file)) add(file, `read by \`${program}\` in \`${label}\``);
    }
  }
  for (const rule of CONVENTIONAL_PATTERNS) add(rule.pattern, rule.why);
  return rules;
}

/** The patterns a config protects: its `protect` patterns with `auto` expanded, deduplicated, in order. */
export function resolveProtectPatterns(config: Config, isFile: (path: string) => boolean): string[] {
  const patterns: string[] = [];
  for (const entry of config.protect ?? []) {
    const expanded = entry.pattern === 'auto' ? autoProtect(config, isFile).map((rule) => rule.pattern) : [entry.pattern];
    for (const pattern of expanded) if (!patterns.includes(pattern)) patterns.push(pattern);
  }
  return patterns;
}
