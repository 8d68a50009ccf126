// machines/retrofit/canon-lock.ts: a committed lock names only paths yoke can generate; any other
// path (one leaving the project, absolute, in .git/, a user's file) refuses the lock with its line.
import { describe, expect, it } from 'vitest';
import { parseLock, renderLock, type CanonLock } from '../../../machines/retrofit/canon-lock.js';
import { isGeneratedPath } from '../../../machines/retrofit/retrofit-artifacts.js';

const HASH = `sha256:${'a'.repeat(64)}`;
const entry = { owner: 'file' as const, source: HASH, written: HASH };
const lockWith = (...paths: string[]): string => renderLock({ version: 1, canon: 1, agents: ['claude'], files: Object.fromEntries(paths.map((path) => [path, entry])) } satisfies CanonLock);

describe('parseLock', () => {
  it('accepts every path shape the retrofit generates', () => {
    const paths = ['AGENTS.md', 'CLAUDE.md', '.claude/settings.json', '.claude/skills/review/SKILL.md', '.agents/skills/review/SKILL.md', '.gemini/settings.json', '.gemini/commands/yoke/review.toml', '.codex/config.toml', '.yoke/policy/gates.md', '.yoke/context/PROJECT.md', '.yoke/.gitignore'];
    const parsed = parseLock(lockWith(...paths));
    expect(parsed.problem).toBeNull();
    expect(Object.keys(parsed.lock?.files ?? {}).sort()).toEqual([...paths].sort());
  });

  it.each([
    ['../victim.txt', 'a path that leaves the project'],
    ['.claude/skills/../../../victim.txt', 'a path that leaves the project'],
    ['/etc/passwd', 'an absolute path'],
    ['.git/config', 'a path inside .git/'],
    ['src/app.ts', 'a path yoke never generates'],
    ['.claude/skills/review/other.md', 'a path yoke never generates'],
  ])('refuses %s as %s, on the line that names it', (path, why) => {
    const text = lockWith('AGENTS.md', path);
    const parsed = parseLock(text);
    expect(parsed.lock).toBeNull();
    expect(parsed.problem).toBe(`${JSON.stringify(path)} is ${why}, so yoke will not write or delete it`);
    const line = text.split('\n').findIndex((candidate) => candidate.includes(`${JSON.stringify(path)}:`)) + 1;
    expect(line).toBeGreaterThan(1);
    expect(parsed.problem === null ? null : parsed.line).toBe(line);
  });

  it('isGeneratedPath never takes a `.` or `..` segment for a name', () => {
    expect(isGeneratedPath('.claude/skills/../SKILL.md')).toBe(false);
    expect(isGeneratedPath('.yoke/policy/..')).toBe(false);
    expect(isGeneratedPath('.yoke/policy/gates.md')).toBe(true);
  });
});
