// A story of `.loop/prd.yaml` (DESIGN §8), as parsed and validated: plain data, journaled in `run.started`.
import { z } from 'zod';

/** Ids become branch and file names: a letter or digit, then letters, digits, `_` and `-`, at most 64 characters. */
export const STORY_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** One acceptance criterion: its text, and optionally a command that proves it (exit 0 = met). */
export const criterionSchema = z.object({ text: z.string(), check: z.string().optional() });
export type Criterion = z.infer<typeof criterionSchema>;

export const storySchema = z.object({
  id: z.string().regex(STORY_ID),
  title: z.string(),
  /** lower runs first; absent = after every story that has one */
  priority: z.number().nullable(),
  dependsOn: z.array(z.string()),
  /** null: no `acceptance` key at all; an empty list or null stops the line when selected */
  acceptance: z.array(criterionSchema).nullable(),
  passes: z.boolean(),
  description: z.string().optional(),
  notes: z.string().optional(),
  /** the line of the story's entry in prd.yaml, for messages */
  line: z.number().int(),
});
export type Story = z.infer<typeof storySchema>;

/** Does the story stop the line (no acceptance criteria)? */
export function lacksCriteria(story: Pick<Story, 'acceptance'>): boolean {
  return story.acceptance === null || story.acceptance.length === 0;
}

/** The commands of a story's executable criteria, in order. */
export function storyChecks(story: Pick<Story, 'acceptance'>): Criterion[] {
  return (story.acceptance ?? []).filter((criterion) => criterion.check !== undefined);
}
