// `yoke run` on an unfinished stories run that stopped while a story's pass was outstanding (decided,
// not yet recorded): the user's edit of prd.yaml since must leave that pass something to land on.
// Pure: the refusals as located issues, before anything is journaled.
import { parsePrd } from '../../config/prd/parse-prd.js';
import { storyListLine } from '../../config/prd/story-list-line.js';
import type { ConfigIssue } from '../../config/types.js';
import type { EffectRequest } from '../effects.js';
import type { LoopFileReader } from '../lifecycles/lifecycle-descriptor.js';
import type { WorkContext } from '../work/work-context.js';
import { sameCriteria } from './stories-change.js';

const FILE = '.loop/prd.yaml';

/**
 * An error for each story whose pass is outstanding (a `story.pass` in `pending`) that prd.yaml as
 * the user left it (already validated) no longer has, or has with other acceptance criteria: the
 * pass sets its flag on the file as it is now, and it must not mark a story passed that is gone or
 * was never checked against those criteria. Nothing otherwise; the edit is then journaled and kept.
 */
export function prdPassConflicts(context: WorkContext, readLoopFile: LoopFileReader, pending: readonly EffectRequest[]): ConfigIssue[] {
  const passing = pending.flatMap((request) => (request.kind === 'story.pass' ? [request.params.story] : []));
  const text = readLoopFile('prd.yaml');
  if (passing.length === 0 || !context.prd || text === null) return [];
  const stories = parsePrd(text, FILE).stories;
  if (!stories) return [];
  const issues: ConfigIssue[] = [];
  for (const id of passing) {
    const now = stories.find((story) => story.id === id);
    const decided = context.prd.stories.find((story) => story.id === id);
    if (!now) {
      issues.push(refusal(storyListLine(text), `story ${id} passed its gates, and yoke stopped while it recorded that pass, but the list has no story ${id} any more`, `put ${id} back and run \`yoke run\`: its pass lands with your other edits kept; remove it after the run`));
    } else if (decided && !sameCriteria(decided, now)) {
      issues.push(refusal(now.line, `story ${id} passed its gates on its acceptance criteria as they were, and yoke stopped while it recorded that pass, but they changed since`, `put them back and run \`yoke run\`: its pass lands with your other edits kept; change them after the run, and the story is reopened`));
    }
  }
  return issues;
}

function refusal(line: number, message: string, hint: string): ConfigIssue {
  return { file: FILE, line, column: 1, message, hint, severity: 'error' };
}
