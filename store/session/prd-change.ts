// `yoke run` in stories mode: journal the user's edits to prd.yaml since a run last saw it (DESIGN §8),
// on resume (against the unfinished run) and on a new run (against the last stories run's final list).
import { writeFileSync } from 'node:fs';
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parsePrd } from '../../config/prd/parse-prd.js';
import { setStoryPasses } from '../../config/prd/set-story-passes.js';
import type { Story } from '../../config/prd/story.js';
import { getBlob, putBlob } from '../../effects/fs/blob-store.js';
import { YokeError } from '../../errors/yoke-error.js';
import type { MachineEvent } from '../../machines/effect-events.js';
import { storiesChange } from '../../machines/stories/stories-change.js';
import type { PrdState } from '../../machines/stories/story-progress.js';
import { heldSpecFiles, type WorkContext } from '../../machines/work/work-context.js';
import { foldRun, runStarts } from '../fold/journal-runs.js';
import type { JournalRecord } from '../journal/record.js';

/** The event that journals a change of prd.yaml. */
export type StoriesChangedEvent = Extract<MachineEvent, { type: 'STORIES_CHANGED' }>;

/**
 * The STORIES_CHANGED event for prd.yaml's `text` (already validated), or null when nothing changed
 * or the run has no stories. A passed story whose criteria changed is set back to `passes: false`
 * in the file (and named in `reopened`); the file as it is then becomes the spec backup.
 */
export async function prdChangeEvent(context: WorkContext, loopDir: string, text: string): Promise<StoriesChangedEvent | null> {
  if (!context.prd) return null;
  const change = reopenChanged(context.prd, loopDir, text);
  if (change === null) return null;
  const { written, ...event } = change;
  return { ...event, prdBlob: await putBlob(loopDir, Buffer.from(written)) };
}

/**
 * On a new stories run: the change from the last stories run's final story list (finished or
 * abandoned) to prd.yaml's `text` (already validated), or null when there was no such run or
 * nothing changed. As on resume, a story that run passed and whose criteria changed since is set
 * back to `passes: false` in the file, before the new run reads it. The event carries no blob: the
 * new run backs up the file as it starts. A last run this yoke cannot fold is not compared.
 */
export function prdChangeSinceLastRun(records: readonly JournalRecord[], loopDir: string, text: string): StoriesChangedEvent | null {
  const started = runStarts(records).filter((record) => record.payload.mode === 'stories').at(-1);
  if (started === undefined) return null;
  let prd: PrdState | undefined;
  try {
    prd = (foldRun(records, started).snapshot.context as WorkContext).prd;
  } catch (error) {
    if (error instanceof YokeError && error.code === 'workspace') return null;
    throw error;
  }
  if (!prd) return null;
  const change = reopenChanged(prd, loopDir, text);
  if (change === null) return null;
  const { written: _written, ...event } = change;
  return { ...event, prdBlob: null };
}

/**
 * Resume only: when an agent removed prd.yaml and the run stopped before its spec restore, put back
 * the version the run holds. True when it did; false when the file is there or the run holds none.
 */
export async function restoreMissingPrd(context: WorkContext, loopDir: string): Promise<boolean> {
  const path = join(loopDir, 'prd.yaml');
  if (await access(path).then(() => true, () => false)) return false;
  const held = context.prd ? heldSpecFiles(context)['prd.yaml'] : undefined;
  if (typeof held !== 'string') return false;
  await writeFile(path, await getBlob(loopDir, held));
  return true;
}

/** The change from `known` to `text`, with reopened stories' flags set back in the file (written); null when nothing changed. */
function reopenChanged(known: PrdState, loopDir: string, text: string): (Omit<StoriesChangedEvent, 'prdBlob'> & { written: string }) | null {
  const { stories } = parsePrd(text, '.loop/prd.yaml');
  if (!stories) return null;
  const passed = new Set(Object.entries(known.progress).filter(([, progress]) => progress.passed).map(([id]) => id));
  const change = storiesChange(known.stories, passed, stories);
  if (change === null) return null;
  let written = text;
  for (const id of change.reopened) written = setStoryPasses(written, id, false) ?? written;
  if (written !== text) writeFileSync(join(loopDir, 'prd.yaml'), written);
  const final: Story[] = parsePrd(written, '.loop/prd.yaml').stories ?? stories;
  return { type: 'STORIES_CHANGED', stories: final, ...change, written };
}

/** The progress line for a journaled change (`prd.yaml changed: added S4; edited S1`), and one warning per reopened story. */
export function describePrdChange(change: StoriesChangedEvent): { line: string; warnings: string[] } {
  const parts: Array<[string, string[]]> = [['added', change.added], ['removed', change.removed], ['edited', change.edited]];
  return {
    line: `prd.yaml changed: ${parts.filter(([, ids]) => ids.length > 0).map(([what, ids]) => `${what} ${ids.join(', ')}`).join('; ')}`,
    warnings: change.reopened.map((id) => `story ${id} passed before, but its acceptance criteria changed: it is not passed any more`),
  };
}
