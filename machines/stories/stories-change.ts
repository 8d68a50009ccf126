// What changed between the story list a run knows and prd.yaml as the user left it (pure).
import type { Criterion, Story } from '../../config/prd/story.js';
import { freshProgress, type PrdState } from './story-progress.js';

/** Stories added, removed, edited; `reopened`: passed ones whose criteria changed (they must pass again). */
export interface StoriesChange {
  added: string[];
  removed: string[];
  edited: string[];
  reopened: string[];
}

function criteriaKey(acceptance: readonly Criterion[] | null): string {
  return JSON.stringify((acceptance ?? []).map((criterion) => [criterion.text, criterion.check ?? null]));
}

/** Do the two versions of a story have the same acceptance criteria (texts and checks, in order)? */
export function sameCriteria(a: Pick<Story, 'acceptance'>, b: Pick<Story, 'acceptance'>): boolean {
  return criteriaKey(a.acceptance) === criteriaKey(b.acceptance);
}

/** Everything but the line number and the `passes` flag (yoke's), for "was it edited?"; keys sorted at every depth, so a criterion's text counts too. */
function contentKey(story: Story): string {
  const { line: _line, passes: _passes, ...rest } = story;
  return JSON.stringify(sortedKeys(rest));
}

/** `value` with every object's keys in sorted order (an array replacer would drop the criteria's own keys). */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(object).sort().map((key) => [key, sortedKeys(object[key])]));
}

/** The change from `known` (with which of them passed) to `next`; null when nothing changed. */
export function storiesChange(known: readonly Story[], passed: ReadonlySet<string>, next: readonly Story[]): StoriesChange | null {
  const before = new Map(known.map((story) => [story.id, story]));
  const after = new Map(next.map((story) => [story.id, story]));
  const change: StoriesChange = { added: [], removed: [], edited: [], reopened: [] };
  for (const story of next) {
    const old = before.get(story.id);
    if (!old) change.added.push(story.id);
    else if (contentKey(old) !== contentKey(story)) {
      change.edited.push(story.id);
      if (passed.has(story.id) && !sameCriteria(old, story)) change.reopened.push(story.id);
    }
  }
  for (const story of known) if (!after.has(story.id)) change.removed.push(story.id);
  const any = change.added.length + change.removed.length + change.edited.length > 0;
  return any ? change : null;
}

/**
 * The run's stories after the change: the new list; progress kept for stories that stay, fresh for
 * added ones (passed when prd.yaml says so), and for edited ones the attempts start over (a
 * reopened story is not passed any more).
 */
export function applyStoriesChange(prd: PrdState, stories: readonly Story[], change: StoriesChange): PrdState {
  const progress: PrdState['progress'] = {};
  for (const story of stories) {
    const old = prd.progress[story.id];
    if (!old) progress[story.id] = freshProgress(story);
    else if (change.reopened.includes(story.id)) progress[story.id] = { ...freshProgress({ passes: false }), iterations: old.iterations };
    else if (change.edited.includes(story.id) && !old.passed) progress[story.id] = { ...freshProgress({ passes: false }), iterations: old.iterations };
    else progress[story.id] = old;
  }
  return { ...prd, stories: [...stories], progress, current: prd.current !== null && progress[prd.current] ? prd.current : null };
}
