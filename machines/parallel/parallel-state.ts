// What a parallel stories run knows besides its stories (DESIGN §10): its lanes, the integration queue, the target (pure data).
import type { Violation } from '../boundary.js';
import type { RestorePlan } from '../protect/protection-drift.js';
import type { CheckOutcome, PlannedCheck } from '../work/guard-report.js';

/** The most lanes a run can have (`parallel` is 1–8). */
export const LANE_SLOTS = 8;

/** One lane at work on one story, in its own worktree. */
export interface LaneSlot {
  story: string;
  /** why the scheduler gave it this lane (journaled with the worktree) */
  reason: string;
  /** the story's attempt this lane works on (1-based: failed DONE claims and rejections so far + 1) */
  attempt: number;
  /** the target commit the worktree was cut from, and its tree outside `.loop/` (the boundary baseline) */
  base: string | null;
  baseTree: string | null;
  /** this turn: the run-wide iteration number, the notes, the boundary, the checks */
  iteration: number;
  notesFirstLine: string | null;
  changed: string[];
  violations: Violation[];
  plan: PlannedCheck[];
  checks: CheckOutcome[];
  /** this turn's "Project context" block and the context files' blobs to put back after the call (context layer; absent in older journals) */
  contextBlock?: string | null;
  contextGuard?: Record<string, string | null> | null;
  /** a rate-limited call's wait ends then (epoch ms; absent in older journals) */
  waitUntil?: number | null;
  /** the session the worker call resumes after its held tool call was answered (Claude; absent in older journals and for other CLIs) */
  resumeSession?: string | null;
  /** this turn's restore of the protected files the worker changed (DESIGN §16; absent in older journals) */
  protectRestore?: RestorePlan | null;
  /** the passing turn's notes, for the decision entry */
  decisionNotes: string | null;
  /** the candidate commit once made */
  candidate: string | null;
  /** what integration decided: the landed commit, or rejected */
  outcome: { kind: 'landed'; sha: string } | { kind: 'rejected' } | null;
}

/** The candidate being integrated. */
export interface Integration {
  slot: number;
  story: string;
  /** the candidate rebased onto the target */
  rebased: string | null;
  plan: PlannedCheck[];
  checks: CheckOutcome[];
  now: number | null;
  /** a conflict or a failing gate: what `candidate.reject` journals */
  rejection: { files: string[]; gate: string; output: string } | null;
}

/** The coordinator's state. */
export interface ParallelState {
  slots: Array<LaneSlot | null>;
  /** slots whose candidate waits for the integration lane, first come first served */
  queue: number[];
  integration: Integration | null;
  /** the branch the run started on and the commit it is at (moved by each landed story) */
  target: { branch: string; sha: string };
  /** the files each story's last attempt touched, from its journaled boundary scans */
  touched: Record<string, string[]>;
  /** lane turns started so far (each is one iteration of the run, capped by max-iterations) */
  turns: number;
}

/** A run's coordinator before the first lane starts; `touched` is what earlier runs' lanes touched (none in older journals). */
export function initialParallel(target: { branch: string; sha: string }, touched: Record<string, string[]> = {}): ParallelState {
  return { slots: Array.from({ length: LANE_SLOTS }, () => null), queue: [], integration: null, target, touched, turns: 0 };
}

/** A lane for `story`, about to get its worktree. */
export function freshLane(story: string, reason: string, attempt: number, iteration: number): LaneSlot {
  return {
    story, reason, attempt, base: null, baseTree: null, iteration, notesFirstLine: null, changed: [], violations: [], plan: [], checks: [],
    decisionNotes: null, candidate: null, outcome: null,
  };
}

/** `yoke/<run>/<story>`: the lane's branch. */
export function laneBranch(run: string, story: string): string {
  return `yoke/${run}/${story}`;
}
