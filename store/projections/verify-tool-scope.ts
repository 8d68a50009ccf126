// `yoke replay --verify` for the scope a tool call was classified in (DESIGN §13): a journaled
// request's scope must be the one its run gave the gate, so a request whose boundary was edited
// (and its ruling re-derived to match) still diverges.
import { dirname } from 'node:path';
import type { Config } from '../../config/types.js';
import { laneWorktreePath } from '../../effects/worktree/lane-worktree-path.js';
import type { ToolScope } from '../../policy/tool-scope.js';
import { firstDifference } from './first-difference.js';

/** What a run gave the gate, from its fold: the ruling config, the root, the spec files, the protect patterns in force. */
export interface RulingRun {
  config: Pick<Config, 'toolRules' | 'toolControl' | 'allow' | 'noModify'> | undefined;
  /** the run journals the tool calls its gated agents ran (`toolCallProof` in its input) */
  proof: boolean;
  /** the run's `.loop/` (absolute), whose parent is the project root; null when unknown */
  loopDir: string | null;
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
  if (run.loopDir !== null) expected.push(['root', lane === null ? dirname(run.loopDir) : laneWorktreePath(dirname(run.loopDir), lane)]);
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
