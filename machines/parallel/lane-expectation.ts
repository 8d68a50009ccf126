// Where the journal says a lane's worktree stands (DESIGN §10), so a resumed run can tell a retained
// worktree it may reuse from one that is gone or was moved (pure: read from the folded context).
import type { EffectKind, EffectRequest } from '../effects.js';
import type { WorkContext } from '../work/work-context.js';
import { parallelOf } from './lane-context.js';
import { laneBranch } from './parallel-state.js';

/** Effects that need no worktree (or make or remove it themselves): nothing to check before them. */
const NO_WORKTREE: ReadonlySet<EffectKind> = new Set<EffectKind>(['worktree.create', 'worktree.remove', 'wait.until', 'clock.read', 'candidate.reject']);
/** Effects that move the worktree's HEAD themselves and recover from their own crash. */
const MOVES_HEAD: ReadonlySet<EffectKind> = new Set<EffectKind>(['candidate.commit', 'candidate.rebase', 'story.land']);

/** What the journal says a lane's worktree holds before its next effect runs. */
export interface LaneExpectation {
  story: string;
  /** the lane's branch, checked out in its worktree */
  branch: string;
  /** the commit the worktree's HEAD must be at: the base mid-turn, else the candidate (rebased, once integration rebased it) */
  commit: string;
  /** `turn`: the story is being worked (a remade worktree sends the turn back to its restore step); `integration`: its candidate waits for or is in integration */
  phase: 'turn' | 'integration';
  /** false while an effect that moves HEAD itself was cut short (it finds its own way back); only a missing worktree is made again then */
  compareHead: boolean;
  /** the story's attempt the lane works on (names the ref a moved worktree's commits are kept under) */
  attempt: number;
}

/**
 * The expectation for the worktree `request` (of a lane, started `attempts` times so far) runs in,
 * or null when there is nothing to check: an effect that needs no worktree, a lane whose worktree was
 * never made yet, or no lane.
 */
export function laneExpectation(context: WorkContext, run: string, request: EffectRequest, attempts: number): LaneExpectation | null {
  const story = (request.params as { lane?: unknown }).lane;
  if (typeof story !== 'string' || NO_WORKTREE.has(request.kind)) return null;
  const parallel = parallelOf(context);
  const slot = parallel.slots.find((candidate) => candidate?.story === story) ?? null;
  if (slot === null || slot.base === null) return null;
  const integration = parallel.integration?.story === story ? parallel.integration : null;
  const phase = slot.candidate === null ? 'turn' : 'integration';
  const commit = phase === 'turn' ? slot.base : integration?.rebased ?? slot.candidate ?? slot.base;
  return { story, branch: laneBranch(run, story), commit, phase, compareHead: !(attempts > 0 && MOVES_HEAD.has(request.kind)), attempt: slot.attempt };
}
