// `protect auto` (DESIGN §16): the files yoke can tell decide "done", inferred from the config's
// own commands (and, in stories mode, prd.yaml's `check` commands), its journeys' flow files and
// the conventions of common test tools. Pure: whether a named file exists, and which stories there
// are, is the caller's question to answer (`isFile`, `stories`).
import { storyChecks, type Story } from '../../config/prd/story.js';
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

/** A story `check:` that names a declared journey instead of a command (`journey:<name>`). */
const JOURNEY_CHECK = /^journey:/;

/**
 * Every command run to decide "done": the config's guards, periodics, guard-afters and accepts,
 * and each story's `check` commands (`check S1#2`: the story's id and the criterion's position),
 * labelled for messages.
 */
export function checkCommands(config: Config, stories: readonly Story[] = []): Array<{ label: string; command: string }> {
  return [
    ...config.accepts.map((c) => ({ label: `accept ${c.name}`, command: c.command })),
    ...config.guards.map((c) => ({ label: `guard ${c.name}`, command: c.command })),
    ...config.periodics.map((c) => ({ label: `periodic ${c.name}`, command: c.command })),
    ...config.guardAfters.map((c) => ({ label: `guard-after ${c.name}`, command: c.command })),
    ...stories.flatMap((story) => storyChecks(story)
      .filter((criterion) => !JOURNEY_CHECK.test((criterion.check ?? '').trim()))
      .map((criterion) => ({ label: `check ${story.id}#${(story.acceptance ?? []).indexOf(criterion) + 1}`, command: criterion.check ?? '' }))),
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
 * a test file; story `check` commands included), the config files of the tools those commands run
 * (`npm test` → `package.json`, `pytest` → `pyproject.toml`, `cargo test` → `Cargo.toml`) when they
 * exist, each journey's flow file, and the conventional test folders, test file names and CI
 * configs. Deduplicated, in that order.
 */
export function autoProtect(config: Config, isFile: (path: string) => boolean, stories: readonly Story[] = []): AutoRule[] {
  const rules: AutoRule[] = [];
  const seen = new Set<string>();
  const add = (pattern: string, why: string): void => {
    if (seen.has(pattern)) return;
    seen.add(pattern);
    rules.push({ pattern, why });
  };
  for (const { label, command } of checkCommands(config, stories)) {
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
  // A flow decides its journey whether or not it exists yet (an agent must not write the one that passes).
  for (const journey of config.journeys ?? []) {
    const path = wordPath({ text: journey.flow, start: 0, literal: true, output: false });
    if (path !== null) add(path, `the flow of \`journey ${journey.name}\``);
  }
  for (const rule of CONVENTIONAL_PATTERNS) add(rule.pattern, rule.why);
  return rules;
}

/** The patterns a config protects: its `protect` patterns with `auto` expanded (`stories`: prd.yaml's, in stories mode), deduplicated, in order. */
export function resolveProtectPatterns(config: Config, isFile: (path: string) => boolean, stories: readonly Story[] = []): string[] {
  const patterns: string[] = [];
  for (const entry of config.protect ?? []) {
    const expanded = entry.pattern === 'auto' ? autoProtect(config, isFile, stories).map((rule) => rule.pattern) : [entry.pattern];
    for (const pattern of expanded) if (!patterns.includes(pattern)) patterns.push(pattern);
  }
  return patterns;
}
