// The `config check` warning for check commands that run files the agent may rewrite (issue 20,
// item 15), against a real temp project (files on disk, git's own ignore rules).
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/parse-config.js';
import { LIFECYCLE_REGISTRY } from '../../machines/lifecycles/registry.js';
import { projectFiles, unprotectedCheckFiles } from '../../cli/unprotected-check-files.js';
import { makeProject, type TempProject } from '../effects/support/temp-project.js';

let p: TempProject;
afterEach(async () => {
  await p.cleanup();
});

const FILES = {
  '.gitignore': 'build/\n',
  'scripts/check.sh': 'exit 0\n', 'tests/run.mjs': '', 'tests/fixture.json': '{}', 'build/gen.sh': '', '.loop/guard.sh': '', 'package.json': '{}',
};

async function warnings(lines: string[]): Promise<Array<{ line: number; column: number; message: string; hint: string }>> {
  p = await makeProject(FILES, { commit: true });
  const text = `${['mode goal', 'agent cmd ./agent.sh', ...lines].join('\n')}\n`;
  const { config } = parseConfig(text, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (config === null) throw new Error('the test config is invalid');
  return unprotectedCheckFiles(config, text, '.loop/yoke.conf', p.root, projectFiles(p.root))
    .map(({ line, column, message, hint }) => ({ line, column, message, hint }))
    .sort((a, b) => a.line - b.line || a.column - b.column);
}

describe('issue 20.15: a guard script the agent may edit decides DONE', () => {
  it('warns at the file’s word for each command kind, with the no-modify fix', async () => {
    const found = await warnings([
      'accept ok sh -c \'./scripts/check.sh\'',
      'guard tests node tests/run.mjs --fixture tests/fixture.json > out.log',
      'periodic p 2 ./scripts/check.sh',
      'guard-after p g bash scripts/check.sh',
    ]);
    expect(found).toEqual([
      { line: 3, column: 17, message: '`accept ok` runs `scripts/check.sh`, which the agent may rewrite: no `no-modify` prefix covers it', hint: 'add `no-modify scripts/` (or `no-modify scripts/check.sh`), so a rewritten script fails the boundary check instead of deciding DONE (or `protect auto`, which also restores it: docs/protect.md)' },
      { line: 4, column: 18, message: '`guard tests` runs `tests/run.mjs`, which the agent may rewrite: no `no-modify` prefix covers it', hint: expect.stringContaining('`no-modify tests/`') as string },
      { line: 4, column: 42, message: '`guard tests` runs `tests/fixture.json`, which the agent may rewrite: no `no-modify` prefix covers it', hint: expect.stringContaining('`no-modify tests/`') as string },
      { line: 5, column: 14, message: '`periodic p` runs `scripts/check.sh`, which the agent may rewrite: no `no-modify` prefix covers it', hint: expect.any(String) as string },
      { line: 6, column: 22, message: '`guard-after g` runs `scripts/check.sh`, which the agent may rewrite: no `no-modify` prefix covers it', hint: expect.any(String) as string },
    ]);
  });

  it('no warning once no-modify covers the file, or when the boundary catches it anyway (outside every allow prefix)', async () => {
    expect(await warnings(['accept ok ./scripts/check.sh', 'no-modify scripts/'])).toEqual([]);
    expect(await warnings(['accept ok ./scripts/check.sh', 'allow src/'])).toEqual([]);
  });

  it('warns for an ignored script outside no-modify, and for one inside .loop/ (never in the boundary)', async () => {
    const found = await warnings(['accept a ./build/gen.sh', 'accept b sh .loop/guard.sh', 'allow src/']);
    expect(found.map((w) => w.message)).toEqual([
      '`accept a` runs `build/gen.sh`, which the agent may rewrite: no `no-modify` prefix covers it',
      '`accept b` runs `.loop/guard.sh`, which the agent may rewrite: the boundary does not cover .loop/',
    ]);
  });

  it('ignores words that are no file of the project: commands, options, missing files, expansions, outputs', async () => {
    expect(await warnings(['accept ok npm test -- --reporter=dot missing.sh "$SCRIPT" scripts/*.sh > scripts/check.sh ../outside.sh /etc/hostname'])).toEqual([]);
  });
});
