// `yoke run` on an unfinished stories run whose prd.yaml is gone: an agent removed it and the run
// stopped before its spec restore put it back. Pure: the version the run holds, to write back.
import type { BlobReader, LoopFileReader, ResumeRestore } from '../lifecycles/lifecycle-descriptor.js';
import { heldSpecFiles, type WorkContext } from '../work/work-context.js';

/**
 * prd.yaml as the run holds it (its spec backup, or the newer one a pass or an edit left) when the
 * file is missing; null when it is there, or the run holds none yet (it stopped before its backup).
 */
export function prdResumeRestore(context: WorkContext, readLoopFile: LoopFileReader, readBlob: BlobReader): ResumeRestore | null {
  if (!context.prd || readLoopFile('prd.yaml') !== null) return null;
  const held = heldSpecFiles(context)['prd.yaml'];
  if (typeof held !== 'string') return null;
  return {
    writes: { 'prd.yaml': readBlob(held) },
    notices: [{
      level: 'warn',
      text: '.loop/prd.yaml was missing when the run resumed; yoke put back the version the run holds (to drop stories, edit the list instead of removing the file).',
    }],
  };
}
