// Which lane worktrees of parallel stories runs are still there, and why (DESIGN §10: a lane's
// worktree and branch go only after the target contains its story's commit, so a worktree that
// stays always has a reason). Read from the journal alone: `worktree.create` without a later
// `worktree.remove` of the same branch.
import type { JournalRecord } from '../journal/record.js';

/** One retained lane worktree. */
export interface RetainedWorktree {
  story: string;
  run: string;
  branch: string;
  /** the worktree's directory, as journaled */
  path: string;
  /** why it is still there, in one sentence */
  why: string;
}

interface Lane {
  story: string;
  run: string;
  branch: string;
  path: string;
  attempt: number;
  landed: string | null;
  rejected: { gate: string } | null;
}

/**
 * The retained worktrees, oldest first. `unfinished`: the run still going (or paused), if any;
 * `blocked`: the stories the latest run blocked (their worktrees are kept on purpose).
 */
export function retainedWorktrees(records: readonly JournalRecord[], unfinished: string | null, blocked: ReadonlySet<string> = new Set()): RetainedWorktree[] {
  const params = new Map<string, Record<string, unknown>>();
  const lanes = new Map<string, Lane>();
  const laneOf = (run: string | null, story: unknown): Lane | undefined => [...lanes.values()].find((lane) => lane.run === run && lane.story === story);
  for (const record of records) {
    if (record.type === 'effect.started') {
      params.set(record.payload.key, record.payload.params as Record<string, unknown>);
      continue;
    }
    if (record.type !== 'effect.completed' || record.run === null) continue;
    const given = params.get(record.payload.key) ?? {};
    const result = record.payload.result as Record<string, unknown>;
    switch (record.payload.kind) {
      case 'worktree.create':
        lanes.set(String(given.branch), {
          story: String(given.story), run: record.run, branch: String(given.branch), path: String(result.path),
          attempt: Number(given.attempt), landed: null, rejected: null,
        });
        break;
      case 'candidate.reject': {
        const lane = laneOf(record.run, given.story);
        if (lane) lane.rejected = { gate: String(given.gate) };
        break;
      }
      case 'story.land': {
        const lane = laneOf(record.run, given.story);
        if (lane) lane.landed = String(result.sha);
        break;
      }
      case 'worktree.remove':
        lanes.delete(String(given.branch));
        break;
      default:
        break;
    }
  }
  return [...lanes.values()].map((lane) => ({ story: lane.story, run: lane.run, branch: lane.branch, path: lane.path, why: whyKept(lane, lane.run === unfinished, blocked.has(lane.story)) }));
}

function whyKept(lane: Lane, live: boolean, blocked: boolean): string {
  if (lane.landed !== null) {
    return live
      ? `its story landed in ${lane.landed.slice(0, 10)}; the run removes the worktree when it goes on`
      : `its story landed in ${lane.landed.slice(0, 10)}, but the run ended before removing it; nothing in it is needed any more`;
  }
  const rejected = lane.rejected === null ? '' : `, after integration rejected a candidate (${lane.rejected.gate})`;
  if (blocked) return `its story is blocked${rejected}: the lane's work is kept on branch ${lane.branch} for you to look at`;
  return live
    ? `its story has not landed yet (attempt ${lane.attempt}${rejected}); the run goes on in it`
    : `the run ended before its story landed${rejected}: the lane's work is kept on branch ${lane.branch}`;
}
