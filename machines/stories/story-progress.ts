// Where each story of a stories run stands, and which one the next iteration works on (pure).
import { lacksCriteria, type Story } from '../../config/prd/story.js';

/** What the run knows about one story beyond prd.yaml. */
export interface StoryProgress {
  passed: boolean;
  /** DONE claims that failed a gate (bounded by max-story-attempts) */
  attempts: number;
  /** iterations spent on it (IN_PROGRESS turns included) */
  iterations: number;
  /** why it is blocked (`attempts`, `no-progress`), null while it may still pass */
  blocked: 'attempts' | 'no-progress' | null;
  /** the commit its pass landed in */
  commit: string | null;
  /** the last failed attempt's fingerprint and how many in a row failed that way */
  lastFingerprint: string | null;
  fingerprintRepeats: number;
  /** the previous attempt's guard results and verdict, shown to the worker next time */
  feedback: string | null;
}

/** The stories of a run and their progress. */
export interface PrdState {
  stories: Story[];
  progress: Record<string, StoryProgress>;
  /** the story the current iteration works on */
  current: string | null;
  /** the passing attempt's notes, read for its decision entry */
  decisionNotes: string | null;
}

/** What `yoke stories` calls a story's state. */
export type StoryState = 'passed' | 'ready' | 'waiting' | 'blocked' | 'stopped';

/** A story nobody worked on yet (passed when prd.yaml says so: an import carries `passes`). */
export function freshProgress(story: Pick<Story, 'passes'>): StoryProgress {
  return { passed: story.passes, attempts: 0, iterations: 0, blocked: null, commit: null, lastFingerprint: null, fingerprintRepeats: 0, feedback: null };
}

/** The state of a new run's stories. */
export function initialPrd(stories: readonly Story[]): PrdState {
  return { stories: [...stories], progress: Object.fromEntries(stories.map((story) => [story.id, freshProgress(story)])), current: null, decisionNotes: null };
}

function progressOf(prd: PrdState, id: string): StoryProgress {
  return prd.progress[id] ?? freshProgress({ passes: false });
}

/** passed, blocked, waiting (a dependency has not passed), stopped (no criteria) or ready. */
export function storyState(prd: PrdState, story: Story): StoryState {
  const progress = progressOf(prd, story.id);
  if (progress.passed) return 'passed';
  if (progress.blocked !== null) return 'blocked';
  if (!story.dependsOn.every((dep) => progressOf(prd, dep).passed)) return 'waiting';
  return lacksCriteria(story) ? 'stopped' : 'ready';
}

/**
 * The next story: among those not passed, not blocked and with every dependency passed, the lowest
 * priority (none = last), then the lowest id. `all-passed` when every story passed; `none` when the
 * rest are blocked or wait on a blocked one.
 */
export function selectStory(prd: PrdState): { kind: 'story'; story: Story } | { kind: 'all-passed' } | { kind: 'none' } {
  const candidates = prd.stories.filter((story) => {
    const state = storyState(prd, story);
    return state === 'ready' || state === 'stopped';
  });
  candidates.sort((a, b) => (a.priority ?? Infinity) - (b.priority ?? Infinity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const [first] = candidates;
  if (first) return { kind: 'story', story: first };
  return prd.stories.every((story) => progressOf(prd, story.id).passed) ? { kind: 'all-passed' } : { kind: 'none' };
}

/** How many of the run's stories passed, of how many. */
export function storiesPassed(prd: PrdState): { passed: number; total: number } {
  return { passed: prd.stories.filter((story) => progressOf(prd, story.id).passed).length, total: prd.stories.length };
}

/** "n of m stories passed": the worker's prompt, `yoke status` and the progress lines say it alike. */
export function progressText(prd: PrdState): string {
  const { passed, total } = storiesPassed(prd);
  return `${passed} of ${total} stories passed`;
}

/** The current story, or null. */
export function currentStory(prd: PrdState | undefined): Story | null {
  if (!prd || prd.current === null) return null;
  return prd.stories.find((story) => story.id === prd.current) ?? null;
}

/** The same progress with one story's entry changed. */
export function updateProgress(prd: PrdState, id: string, change: Partial<StoryProgress>): PrdState {
  return { ...prd, progress: { ...prd.progress, [id]: { ...progressOf(prd, id), ...change } } };
}
