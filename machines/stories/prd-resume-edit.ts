// `yoke run` in stories mode: the user's edits to prd.yaml since a run last saw it, as data (DESIGN
// §8): the STORIES_CHANGED event, prd.yaml with reopened stories set back to `passes: false`, and
// the blob that becomes its spec backup. On resume the edit is against the unfinished run; on a new
// run, against the last stories run's final list. Pure: `yoke run` applies it.
import { createHash } from 'node:crypto';
import { parsePrd } from '../../config/prd/parse-prd.js';
import { setStoryPasses } from '../../config/prd/set-story-passes.js';
import type { LoopFileReader, Notice, ResumeEdit } from '../lifecycles/lifecycle-descriptor.js';
import type { WorkContext } from '../work/work-context.js';
import { storiesChange } from './stories-change.js';

/**
 * The edit for prd.yaml as `readLoopFile` finds it (already validated), or null when nothing changed
 * or the run has no stories. A passed story whose criteria changed is set back to `passes: false`
 * in the file (and named in `reopened`); the file as it is then becomes the spec backup.
 */
export function prdResumeEdit(context: WorkContext, readLoopFile: LoopFileReader): ResumeEdit | null {
  return prdEdit(context, readLoopFile, true);
}

/**
 * On a new stories run: the edit for prd.yaml (already validated) against the last stories run's
 * final list (`last`, its final context), or null when nothing changed. As on resume, a story that
 * run passed and whose criteria changed since is set back to `passes: false` in the file before the
 * new run backs it up; the event names no blob.
 */
export function prdSinceLastRun(last: WorkContext, readLoopFile: LoopFileReader): ResumeEdit | null {
  return prdEdit(last, readLoopFile, false);
}

/** The change from the stories `context` knows to prd.yaml, with the file as written and (`backup`) its blob. */
function prdEdit(context: WorkContext, readLoopFile: LoopFileReader, backup: boolean): ResumeEdit | null {
  if (!context.prd) return null;
  const text = readLoopFile('prd.yaml') ?? '';
  const { stories } = parsePrd(text, '.loop/prd.yaml');
  if (!stories) return null;
  const passed = new Set(Object.entries(context.prd.progress).filter(([, progress]) => progress.passed).map(([id]) => id));
  const change = storiesChange(context.prd.stories, passed, stories);
  if (change === null) return null;
  let written = text;
  for (const id of change.reopened) written = setStoryPasses(written, id, false) ?? written;
  const final = parsePrd(written, '.loop/prd.yaml').stories ?? stories;
  const parts: Array<[string, string[]]> = [['added', change.added], ['removed', change.removed], ['edited', change.edited]];
  const notices: Notice[] = [
    ...change.reopened.map((id): Notice => ({ level: 'warn', text: `story ${id} passed before, but its acceptance criteria changed: it is not passed any more` })),
    { level: 'progress', text: `prd.yaml changed: ${parts.filter(([, ids]) => ids.length > 0).map(([what, ids]) => `${what} ${ids.join(', ')}`).join('; ')}` },
  ];
  return {
    event: { type: 'STORIES_CHANGED', stories: final, prdBlob: backup ? createHash('sha256').update(written).digest('hex') : null, ...change },
    writes: written === text ? {} : { 'prd.yaml': written },
    blobs: backup ? [written] : [],
    notices,
  };
}
