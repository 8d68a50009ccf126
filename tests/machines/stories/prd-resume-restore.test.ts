// machines/stories/prd-resume-restore.ts: a prd.yaml missing as a stories run resumes is put back as the run holds it.
import { describe, expect, it } from 'vitest';
import { parsePrd } from '../../../config/prd/parse-prd.js';
import { prdResumeRestore } from '../../../machines/stories/prd-resume-restore.js';
import { initialPrd } from '../../../machines/stories/story-progress.js';
import type { WorkContext } from '../../../machines/work/work-context.js';

const PRD = 'stories:\n  - id: S1\n    title: First\n    acceptance: [it works]\n';
const BACKUP = 'a'.repeat(64);
const PASSED = 'b'.repeat(64);
const context = (baseline: Record<string, string> | null, chunkSpecFiles: Record<string, string> = {}): WorkContext => ({
  prd: initialPrd(parsePrd(PRD, '.loop/prd.yaml').stories ?? []),
  baseline: baseline === null ? null : { specFiles: baseline, tree: '' },
  chunkSpecFiles,
}) as unknown as WorkContext;
const blobs: Record<string, string> = { [BACKUP]: PRD, [PASSED]: `${PRD}    passes: true\n` };
const readBlob = (sha: string): string => blobs[sha] ?? (() => { throw new Error(`no blob ${sha}`); })();

describe('prdResumeRestore', () => {
  it('puts back the newest version the run holds (a pass\'s over the backup) and warns, when prd.yaml is missing', () => {
    const restore = prdResumeRestore(context({ 'prd.yaml': BACKUP }, { 'prd.yaml': PASSED }), () => null, readBlob);
    expect(restore?.writes).toEqual({ 'prd.yaml': `${PRD}    passes: true\n` });
    expect(restore?.notices).toEqual([{ level: 'warn', text: expect.stringMatching(/^\.loop\/prd\.yaml was missing when the run resumed; yoke put back the version the run holds/) as string }]);
  });

  it('changes nothing when prd.yaml is there (an edit is resumeEdit\'s), or the run stopped before its backup', () => {
    expect(prdResumeRestore(context({ 'prd.yaml': BACKUP }), () => 'stories: []\n', readBlob)).toBeNull();
    expect(prdResumeRestore(context(null), () => null, readBlob)).toBeNull();
  });
});
