// `yoke replay --verify` for the scope a tool call was classified in (DESIGN §13): a journaled
// request's scope must be the one its run gave the gate, so a request whose boundary was edited
// (and its ruling re-derived to match) still diverges.
import { dirname } from 'node:path';
import type { Config } from '../../config/types.js';
import { isLaneWorktreePath, laneWorktreeDir, legacyLaneWorktreePath } from '../../config/lane-worktree-path.js';
import type { ToolScope } from '../../policy/tool-scope.js';
import { firstDifference } from './first-difference.js';

/** What a run gave the gate, from its fold: the ruling config, the root, the spec files, the protect patterns in force. */
export interface RulingRun {
  config: Pick<Config, 'toolRules' | 'toolControl' | 'allow' | 'noModify'> | undefined;
  /** the run journals the tool calls its gated agents ran (`toolCallProof` in its input) */
  proof: boolean;
  /** the run's `.loop/` (absolute), whose parent is the project root; null when unknown */
  loopDir: string | null;
  /** its lanes' worktrees are made under the state home (`laneLoopRelative` in its input; absent: under `.git/yoke/worktrees/`) */
  lanesOutside?: boolean;
  /** the spec files the run restores (relative to `.loop/`) */
  specFiles: readonly string[];
  /** the `protect` patterns of the run's protection baseline as it stands */
  protect: readonly string[];
}

/**
 * The first field of `scope` that is not what the run gave the gate, with both sides, or null.
 * `lane`: the parallel lane whose agent call asked (its calls are judged in the lane's worktree).
 */
export function scopeMismatch(scope: ToolScope, run: RulingRun, lane: string | null = null): { path: string; journal: unknown; machine: unknown } | null {
  const expected: Array<[keyof ToolScope, unknown]> = [];
  if (run.loopDir !== null) expected.push(['root', lane === null ? dirname(run.loopDir) : laneRoot(scope.root, dirname(run.loopDir), lane, run.lanesOutside === true)]);
  if (run.config !== undefined) expected.push(['allow', run.config.allow], ['noModify', run.config.noModify]);
  // Older yokes journaled no `protect` patterns: only runs that journal their tool calls are held to them.
  if (run.proof) expected.push(['protect', run.protect]);
  for (const [field, value] of expected) {
    if (firstDifference(scope[field], value) !== null) return { path: `scope.${field}`, journal: scope[field], machine: value };
  }
  // the gate protects every lifecycle's spec files: at least the run's own
  const missing = run.specFiles.filter((file) => !scope.specFiles.includes(file));
  return missing.length === 0 ? null : { path: 'scope.specFiles', journal: scope.specFiles, machine: [...scope.specFiles, ...missing] };
}

/**
 * The root a lane's call must have been classified in: the lane's worktree. Its place depends on the
 * state home of the machine that ran it (locate-lane-worktree.ts), so the journaled root stands when
 * it is that lane's worktree of this project under some state home, or at the old place (a worktree
 * made there before goes on being used). Otherwise it is compared with where the run makes lanes,
 * the state home spelled `$XDG_STATE_HOME`.
 */
function laneRoot(journaled: unknown, projectRoot: string, lane: string, outside: boolean): string {
  if (typeof journaled === 'string' && isLaneWorktreePath(journaled, projectRoot, lane)) return journaled;
  return outside ? laneWorktreeDir('$XDG_STATE_HOME', projectRoot, lane) : legacyLaneWorktreePath(projectRoot, lane);
}
