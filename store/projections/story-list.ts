// What `yoke stories` shows: each story of prd.yaml with its state, attempts and commit, from the
// latest stories run in the journal (when there is one) and the commits' `Yoke-Story` trailers.
import type { Story } from '../../config/prd/story.js';
import type { LoopContext } from '../../machines/lifecycles/loop.js';
import { freshProgress, storyState, type PrdState, type StoryState } from '../../machines/stories/story-progress.js';
import type { RunFold } from '../fold/run-fold.js';

/** One row of `yoke stories`. */
export interface StoryRow {
  id: string;
  title: string;
  state: StoryState;
  /** DONE claims on it: the failed ones (counted against max-story-attempts) plus the passing one */
  attempts: number;
  /** the full sha of the commit it landed in, or null */
  commit: string | null;
}

/** The rows and the count `yoke stories --json` prints. */
export interface StoryList {
  stories: StoryRow[];
  passed: number;
  total: number;
}

/**
 * The stories as prd.yaml lists them now, with what the latest stories run knows about them
 * (`fold`, null before any run) and the commit each landed in (`commits`: id → sha from trailers).
 * prd.yaml's `passes: true` counts as passed even when no run of this journal passed it (an import).
 */
export function listStories(stories: readonly Story[], fold: RunFold | null, commits: ReadonlyMap<string, string>): StoryList {
  const journaled = (fold?.snapshot.context as Partial<LoopContext> | undefined)?.prd ?? null;
  const passedByRun = fold === null ? new Set<string>() : storiesPassedIn(fold);
  const prd: PrdState = {
    stories: [...stories],
    progress: Object.fromEntries(stories.map((story) => {
      const known = journaled?.progress[story.id] ?? freshProgress(story);
      return [story.id, { ...known, passed: story.passes || known.passed }];
    })),
    current: null,
    decisionNotes: null,
  };
  const rows = stories.map((story): StoryRow => {
    const progress = prd.progress[story.id] ?? freshProgress(story);
    const state = storyState(prd, story);
    return {
      id: story.id,
      title: story.title,
      state,
      attempts: progress.attempts + (passedByRun.has(story.id) ? 1 : 0),
      commit: state === 'passed' ? progress.commit ?? commits.get(story.id) ?? null : null,
    };
  });
  return { stories: rows, passed: rows.filter((row) => row.state === 'passed').length, total: rows.length };
}

/** The ids a run's completed `story.pass` effects passed. */
function storiesPassedIn(fold: RunFold): Set<string> {
  const ids = new Set<string>();
  for (const status of fold.effects.values()) {
    const request = status.request.request;
    if (request.kind === 'story.pass' && status.completed !== null) ids.add(request.params.story);
  }
  return ids;
}
