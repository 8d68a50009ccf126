// effects/worktree/lane-worktree-path.ts: where lanes work, as pure functions (the verifier's side).
import { describe, expect, it } from 'vitest';
import { isLaneWorktreePath, laneWorktreeDir, legacyLaneWorktreePath, stateHome } from '../../config/lane-worktree-path.js';

describe('lane worktree paths', () => {
  it('the state home is an absolute XDG_STATE_HOME, else ~/.local/state', () => {
    expect(stateHome({ XDG_STATE_HOME: '/x/state', HOME: '/home/u' })).toBe('/x/state');
    expect(stateHome({ XDG_STATE_HOME: 'rel', HOME: '/home/u' })).toBe('/home/u/.local/state');
    expect(stateHome({ HOME: '/home/u' })).toBe('/home/u/.local/state');
  });

  it('a lane\'s worktree is recognized under any state home and at the old place; the project root, another lane\'s or another project\'s is not', () => {
    const root = '/work/app';
    expect(isLaneWorktreePath(laneWorktreeDir('/a/state', root, 'S1'), root, 'S1')).toBe(true);
    expect(isLaneWorktreePath(laneWorktreeDir('/home/b/.local/state', root, 'S1'), root, 'S1')).toBe(true);
    expect(isLaneWorktreePath(legacyLaneWorktreePath(root, 'S1'), root, 'S1')).toBe(true);
    expect(isLaneWorktreePath(root, root, 'S1')).toBe(false);
    expect(isLaneWorktreePath(laneWorktreeDir('/a/state', root, 'S2'), root, 'S1')).toBe(false);
    expect(isLaneWorktreePath(laneWorktreeDir('/a/state', '/work/other/app', 'S1'), root, 'S1')).toBe(false);
  });
});
