// `yoke stories [--json]`: each story of .loop/prd.yaml with its state, attempts and commit (DESIGN §8).
import type { Story } from '../../config/prd/story.js';
import { storyCommits } from '../../effects/git/story-commits.js';
import { YokeError } from '../../errors/yoke-error.js';
import { isAbsolute, relative } from 'node:path';
import { laneWorktreePath } from '../../effects/worktree/locate-lane-worktree.js';
import { lifecycleHas } from '../../machines/lifecycles/registry.js';
import { foldRun, runStarts, unfinishedRun } from '../../store/fold/journal-runs.js';
import { retainedWorktrees } from '../../store/projections/retained-worktrees.js';
import type { RunFold } from '../../store/fold/run-fold.js';
import { listStories, type StoryList } from '../../store/projections/story-list.js';
import { readWorkspace } from '../../store/session/read-workspace.js';
import type { WorkspacePaths } from '../../store/session/workspace-paths.js';
import { findProjectQuick } from '../find-project-quick.js';
import { loadConfig } from '../load-config.js';
import { readPrdStories } from '../prd-stories.js';
import { warn } from '../terminal.js';

/** Print the stories: a table, or `{ stories, passed, total }` with --json. */
export async function storiesCommand(flags: { json: boolean }): Promise<number> {
  const paths = await findProjectQuick(process.cwd());
  const stories = readStories(paths);
  const { records } = await readWorkspace(paths);
  const list = listStories(stories, latestStoriesFold(records), await storyCommits(paths.root));
  const blocked = new Set(list.stories.filter((row) => row.state === 'blocked').map((row) => row.id));
  // where each worktree is on this machine (the journal names it as it was where the lane ran)
  const retained = await Promise.all(retainedWorktrees(records, unfinishedRun(records), blocked).map(async (kept) => ({ ...kept, path: shownPath(paths.root, await laneWorktreePath(paths.root, kept.story)) })));
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ...list, retained })}\n`);
    return 0;
  }
  const idWidth = Math.max(2, ...list.stories.map((row) => row.id.length));
  for (const row of list.stories) {
    const attempts = `${row.attempts} attempt${row.attempts === 1 ? '' : 's'}`;
    process.stdout.write(`${row.id.padEnd(idWidth)}  ${row.state.padEnd(7)}  ${attempts.padEnd(10)}  ${(row.commit?.slice(0, 10) ?? '-').padEnd(10)}  ${row.title}\n`);
  }
  process.stdout.write(`${list.passed} of ${list.total} stories passed\n`);
  if (retained.length > 0) {
    process.stdout.write(`\nretained worktrees (${retained.length}):\n`);
    for (const kept of retained) process.stdout.write(`  ${kept.story.padEnd(idWidth)}  ${kept.path}: ${kept.why}\n`);
  }
  return 0;
}

/** The story list of a stories workspace; a `usage` error outside stories mode or for an invalid prd.yaml. */
export async function loadStoryList(paths: WorkspacePaths): Promise<StoryList> {
  const stories = readStories(paths);
  const { records } = await readWorkspace(paths);
  return listStories(stories, latestStoriesFold(records), await storyCommits(paths.root));
}

/** prd.yaml's stories, validated; refuses a workspace in another mode. */
export function readStories(paths: WorkspacePaths): Story[] {
  const config = loadConfig(paths, (line) => process.stderr.write(`${line}\n`));
  if (!lifecycleHas(config.mode, 'stories')) {
    throw new YokeError('usage', `this workspace is in ${config.mode} mode, and stories exist only in stories mode; run \`yoke mode stories\` (or \`yoke stories import <file>\`) to switch.`);
  }
  return readPrdStories(paths);
}

/** The fold of the latest stories run, or null (none yet, or recorded by a machine this yoke cannot fold: said on stderr). */
function latestStoriesFold(records: Parameters<typeof runStarts>[0]): RunFold | null {
  const started = runStarts(records).filter((record) => lifecycleHas(record.payload.mode, 'stories')).at(-1);
  if (started === undefined) return null;
  try {
    return foldRun(records, started);
  } catch (error) {
    if (!(error instanceof YokeError) || error.code !== 'workspace') throw error;
    warn(`${error.message} The stories are shown from prd.yaml alone.`);
    return null;
  }
}

/** A path inside the project relative to its root, any other as it is. */
function shownPath(root: string, path: string): string {
  const inside = relative(root, path);
  return inside.startsWith('..') || isAbsolute(inside) ? path : inside;
}
