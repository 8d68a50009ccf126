// Which story a free lane takes next (DESIGN §10): dependencies first, and never two stories side by side
// whose last attempts touched the same files (pure; the decision is journaled with the lane's worktree).
import { lacksCriteria } from '../../config/prd/story.js';
import { storyState, type PrdState } from '../stories/story-progress.js';

/** The story to start and why, as journaled in `worktree.create`'s `reason`. */
export interface Scheduled {
  story: string;
  reason: string;
}

/**
 * Among the stories that are ready (not passed, not blocked, every dependency passed, with acceptance
 * criteria) and not in a lane already, the lowest priority then id, skipping any whose last attempt
 * touched a file that the last attempt of a story now in a lane touched too. Null when none can start.
 */
export function scheduleStory(prd: PrdState, busy: readonly string[], touched: Readonly<Record<string, readonly string[]>>): Scheduled | null {
  const ready = prd.stories
    .filter((story) => storyState(prd, story) === 'ready' && !lacksCriteria(story) && !busy.includes(story.id))
    .sort((a, b) => (a.priority ?? Infinity) - (b.priority ?? Infinity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const held: string[] = [];
  for (const story of ready) {
    const mine = new Set(touched[story.id] ?? []);
    const clash = busy.map((other) => [other, (touched[other] ?? []).filter((file) => mine.has(file))] as const).find(([, files]) => files.length > 0);
    if (clash) {
      held.push(`${story.id} (touched ${clash[1].join(', ')} like ${clash[0]})`);
      continue;
    }
    const waiting = prd.stories.filter((other) => storyState(prd, other) === 'waiting').map((other) => other.id);
    const parts = [`${story.id} is the ready story with the lowest priority, then id`];
    if (story.dependsOn.length > 0) parts.push(`its dependencies ${story.dependsOn.join(', ')} passed`);
    if (busy.length > 0) parts.push(`in lanes: ${busy.join(', ')}`);
    if (held.length > 0) parts.push(`held back: ${held.join('; ')}`);
    if (waiting.length > 0) parts.push(`waiting on dependencies: ${waiting.join(', ')}`);
    return { story: story.id, reason: parts.join('; ') };
  }
  return null;
}
