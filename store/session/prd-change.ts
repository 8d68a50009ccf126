// `yoke run` on an unfinished stories run: journal the user's edits to prd.yaml since the run last saw it (DESIGN §8).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePrd } from '../../config/prd/parse-prd.js';
import { setStoryPasses } from '../../config/prd/set-story-passes.js';
import { putBlob } from '../../effects/fs/blob-store.js';
import type { MachineEvent } from '../../machines/effect-events.js';
import { storiesChange } from '../../machines/stories/stories-change.js';
import type { WorkContext } from '../../machines/work/work-context.js';

/**
 * The STORIES_CHANGED event for prd.yaml's `text` (already validated), or null when nothing changed
 * or the run has no stories. A passed story whose criteria changed is set back to `passes: false`
 * in the file (and named in `reopened`); the file as it is then becomes the spec backup.
 */
export async function prdChangeEvent(context: WorkContext, loopDir: string, text: string): Promise<Extract<MachineEvent, { type: 'STORIES_CHANGED' }> | null> {
  if (!context.prd) return null;
  const { stories } = parsePrd(text, '.loop/prd.yaml');
  if (!stories) return null;
  const passed = new Set(Object.entries(context.prd.progress).filter(([, progress]) => progress.passed).map(([id]) => id));
  const change = storiesChange(context.prd.stories, passed, stories);
  if (change === null) return null;
  let written = text;
  for (const id of change.reopened) written = setStoryPasses(written, id, false) ?? written;
  if (written !== text) writeFileSync(join(loopDir, 'prd.yaml'), written);
  const final = parsePrd(written, '.loop/prd.yaml').stories ?? stories;
  return { type: 'STORIES_CHANGED', stories: final, prdBlob: await putBlob(loopDir, Buffer.from(written)), ...change };
}
