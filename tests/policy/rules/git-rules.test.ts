// git: network, destructive, configuration changes, reading, and the rest.
import { describe, expect, it } from 'vitest';
import { shellClass } from '../support.js';

describe('git rules', () => {
  it.each([
    ['git push origin main', 'network'],
    ['git push --mirror', 'destructive'],
    ['git reset HEAD~1', 'exec'],
    ['git clean -n', 'read'],
    ['git branch -d merged', 'exec'],
    ['git branch --delete --force x', 'destructive'],
    ['git checkout main', 'exec'],
    ['git checkout -f main', 'destructive'],
    ['git restore --staged a', 'exec'],
    ['git switch --discard-changes main', 'destructive'],
    ['git stash', 'exec'],
    ['git stash clear', 'destructive'],
    ['git rm --cached a', 'exec'],
    ['git gc', 'exec'],
    ['git gc --prune=now', 'destructive'],
    ['git filter-branch --all', 'destructive'],
    ['git tag -d v1', 'destructive'],
    ['git config user.name', 'read'],
    ['git config --list', 'read'],
    ['git config user.name x', 'protected'],
    ['git remote -v', 'read'],
    ['git remote update', 'network'],
    ['git worktree remove x', 'destructive'],
    ['git submodule update --init', 'network'],
    ['git', 'read'],
    ['git $SUB', 'exec'],
    ["git -c core.sshCommand='rm -rf ~' status", 'exec'],
  ])('%s is %s', (command, expected) => {
    expect(shellClass(command).class).toBe(expected);
  });
  it('git -C moves the paths git rm deletes', () => {
    expect(shellClass('git -C sub rm a.txt').paths).toEqual(['sub/a.txt']);
  });
});
