// Protected writes: yoke's own files, agents' settings and hooks, .git/, the boundary, outside the project.
import { describe, expect, it } from 'vitest';
import { protectionOf } from '../../../policy/paths/protected-path.js';
import { SCOPE } from '../support.js';

describe('protectionOf', () => {
  it.each([
    ['/p/.git/config', 'control'], ['/p/.git', 'control'], ['/p/.claude/settings.json', 'control'], ['/p/.claude/settings.local.json', 'control'],
    ['/p/.claude/hooks/x.sh', 'control'], ['/p/.codex/config.toml', 'control'], ['/p/.gemini/settings.json', 'control'], ['/p/.qwen/x', 'control'],
    ['/p/.mcp.json', 'control'], ['/p/.loop/yoke.conf', 'control'], ['/p/.loop/.journal/a', 'control'], ['/p/.loop/.stash/b', 'control'],
    ['/p/.loop/saga-log.md', 'control'], ['/p/.yoke/context/DECISIONS.md', 'control'], ['/p/tests/fixtures/a', 'boundary'],
    ['/p/docs/intro.md', 'boundary'], ['/etc/passwd', 'outside'], ['/home/u/.bashrc', 'outside'],
  ])('%s is protected (%s)', (path, kind) => {
    expect(protectionOf(path, SCOPE)?.kind).toBe(kind);
  });
  it.each(['/p/src/a.ts', '/p/.loop/notes.md', '/p/.loop/verdict.md', '/p/.yoke/context/KNOWLEDGE.md', '/p/.claude/commands/x.md', '/dev/null', '/dev/fd/2', '/p/docs/sub/deep.md'])('%s is not', (path) => {
    expect(protectionOf(path, SCOPE)).toBeNull();
  });
  it('follows allow prefixes (longest wins) and scratch folders', () => {
    const scope = { ...SCOPE, allow: ['src/'], noModify: ['src/gen/'] };
    expect(protectionOf('/p/src/a.ts', scope)).toBeNull();
    expect(protectionOf('/p/src/gen/x.ts', scope)?.reason).toContain('no-modify src/gen/');
    expect(protectionOf('/p/lib/x.ts', scope)?.reason).toContain('outside every `allow` prefix');
    expect(protectionOf('/tmp/run/x', { ...SCOPE, scratch: ['/tmp/run'] })).toBeNull();
  });
  it('takes the spec files as given', () => {
    expect(protectionOf('/p/.loop/goal.md', { ...SCOPE, specFiles: ['plan.md'] })?.reason).toContain('written by yoke');
    expect(protectionOf('/p/.loop/goal.md', SCOPE)?.reason).toContain('spec file');
  });
});
