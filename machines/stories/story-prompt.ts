// The story-specific values of the worker's and the judge's prompts (pure).
import type { Story } from '../../config/prd/story.js';
import { progressText, type PrdState } from './story-progress.js';

/** The story as the agents read it: id, title, description, notes and each criterion (with its check). */
export function renderStory(story: Story): string {
  const lines = [`### ${story.id}: ${story.title}`, ''];
  if (story.description !== undefined) lines.push(story.description.trimEnd(), '');
  lines.push('Acceptance criteria:', '');
  for (const criterion of story.acceptance ?? []) {
    lines.push(`- ${criterion.text}${criterion.check === undefined ? '' : ` (yoke checks it with \`${criterion.check}\`)`}`);
  }
  lines.push('');
  if (story.dependsOn.length > 0) lines.push(`It builds on: ${story.dependsOn.join(', ')} (already passed).`, '');
  if (story.notes !== undefined) lines.push('Notes:', '', story.notes.trimEnd(), '');
  return lines.join('\n');
}

/** `{{storyId}}`, `{{storyTitle}}`, `{{story}}`, `{{progress}}` and `{{feedback}}` for the story being worked on. */
export function storyPromptValues(prd: PrdState, story: Story): Record<string, string | number> {
  const progress = prd.progress[story.id];
  const feedback = progress?.feedback ?? null;
  return {
    storyId: story.id,
    storyTitle: story.title,
    story: renderStory(story),
    progress: progressText(prd),
    storyAttempt: (progress?.attempts ?? 0) + 1,
    feedback: feedback === null
      ? 'This is your first attempt at this story.'
      : `Your previous attempt at this story did not pass. What yoke's gates reported:\n\n${feedback.trimEnd()}`,
  };
}
