// The retrofit's plan: every path it would create, change or delete, with a reason and a diff
// summary, computed purely from the canon, the project's files and the lock.
import type { CanonLock, LockEntry } from './canon-lock.js';
import type { RetrofitAgent } from './retrofit-agents.js';

/**
 * What happens to one path. drifted: the user edited yoke's content, so it is kept and yoke's
 * version goes to `<path>.yoke-new`; refused: the file cannot be read or merged safely and is left
 * untouched (the run exits 1).
 */
export type PlanAction = 'create' | 'update' | 'delete' | 'unchanged' | 'drifted' | 'refused';

/** One path of the plan. */
export interface PlanEntry {
  path: string;
  action: PlanAction;
  /** one line: why */
  reason: string;
  /** e.g. "+3 −1 lines"; empty when nothing is written */
  summary: string;
  /** the new text, for create and update */
  content?: string;
  /** a context template: once written it is the user's (undo keeps it when filled in) */
  seed?: true;
  /** `path` has a link on its way: the project path the bytes are really written to (the link stays a link) */
  through?: string;
}

/** A path with a symbolic link on its way: where it really is inside the project, or why yoke may not follow the link. */
export type LinkedPath = { real: string } | { refused: string };

/** The project as the planner sees it: the text of every path it asked for (null = absent). */
export interface ProjectFiles {
  files: ReadonlyMap<string, string | null>;
  /** paths whose bytes are not UTF-8 text (never rewritten) */
  notText: ReadonlySet<string>;
  /** the paths that have a link on their way (absent: none); their text was read through it */
  links?: ReadonlyMap<string, LinkedPath>;
}

/** The whole plan. */
export interface RetrofitPlan {
  agents: RetrofitAgent[];
  entries: PlanEntry[];
  /** the lock after the plan is applied */
  lock: CanonLock;
}

/** What one artifact contributes: its plan entries and its lock entry (null: yoke owns nothing there). */
export interface ArtifactPlan {
  entries: PlanEntry[];
  lock: LockEntry | null;
}

/** True when the plan writes or deletes something. */
export function planChanges(plan: RetrofitPlan): boolean {
  return plan.entries.some((entry) => entry.action === 'create' || entry.action === 'update' || entry.action === 'delete');
}

/** True when a file was refused (the run exits 1). */
export function planRefuses(plan: RetrofitPlan): boolean {
  return plan.entries.some((entry) => entry.action === 'refused');
}

/** True when the user edited something yoke generated. */
export function planDrifts(plan: RetrofitPlan): boolean {
  return plan.entries.some((entry) => entry.action === 'drifted');
}
