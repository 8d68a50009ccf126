// Planning yoke's marked block inside a text file (AGENTS.md, CLAUDE.md, .yoke/.gitignore) or a
// TOML file (.codex/config.toml): text outside the markers is never changed.
import type { LockEntry } from './canon-lock.js';
import { contentHash } from './content-hash.js';
import { diffSummary } from './line-diff.js';
import { lineEnding, withLineEnding } from './line-ending.js';
import { appendBlock, findBlock, removeBlock, renderBlock, replaceBlock } from './marked-block.js';
import type { RetrofitArtifact } from './retrofit-artifact.js';
import type { ArtifactPlan, PlanEntry, ProjectFiles } from './retrofit-plan.js';
import { renderToml, tomlMergeProblem } from './toml-block.js';
import { planYokeNew, planYokeNewCleanup } from './yoke-new.js';

type BlockArtifact = Extract<RetrofitArtifact, { kind: 'block' | 'toml' }>;

function blockOf(artifact: BlockArtifact): { body: string; block: string } {
  const body = artifact.kind === 'toml' ? renderToml(artifact.value) : artifact.body;
  return { body, block: renderBlock(artifact.kind === 'toml' ? 'hash' : artifact.style, body) };
}

/** For TOML: why the next text would not mean the user's values plus yoke's, else null. */
function mergeProblem(artifact: BlockArtifact, existing: string, next: string): PlanEntry | null {
  if (artifact.kind !== 'toml') return null;
  const found = findBlock(existing);
  const userText = found.state === 'present' ? removeBlock(existing, found) : existing;
  const problem = tomlMergeProblem(userText, next, artifact.value);
  if (problem === null) return null;
  return { path: artifact.path, action: 'refused', reason: `line ${problem.line}: ${problem.reason}; yoke left it untouched`, summary: '' };
}

/** Create the file with only the block, add the block, update it while unedited, or keep the user's edit and write `.yoke-new`. */
export function planMarkedBlock(artifact: BlockArtifact, project: ProjectFiles, previous: LockEntry | undefined): ArtifactPlan {
  const { path } = artifact;
  const { body, block: lf } = blockOf(artifact);
  const source = contentHash(body);
  // written in the file's own line ending (a CRLF file stays CRLF); `source` stays the canon's
  const block = withLineEnding(lf, lineEnding(project.files.get(path) ?? null));
  const owned = (text: string, created: boolean): LockEntry => ({ owner: 'block', source, written: contentHash(block), ...(created ? { file: contentHash(text) } : {}) });
  if (project.notText.has(path)) return { entries: [{ path, action: 'refused', reason: 'is not UTF-8 text; yoke leaves it untouched', summary: '' }], lock: previous ?? null };
  const existing = project.files.get(path) ?? null;
  const cleanup = planYokeNewCleanup(project, path, previous);
  if (existing === null) {
    const refused = mergeProblem(artifact, '', block);
    if (refused) return { entries: [refused], lock: previous ?? null };
    return { entries: [{ path, action: 'create', reason: artifact.reason, summary: diffSummary(null, block), content: block }, ...cleanup], lock: owned(block, true) };
  }
  const found = findBlock(existing);
  const created = previous?.file !== undefined;
  switch (found.state) {
    case 'broken':
      return { entries: [{ path, action: 'refused', reason: `line ${found.line}: ${found.reason}; fix or remove yoke's markers, yoke left the file untouched`, summary: '' }], lock: previous ?? null };
    case 'absent': {
      if (artifact.kind === 'block' && artifact.satisfiedBy?.test(existing)) {
        return { entries: [{ path, action: 'unchanged', reason: 'your text already does this (it imports AGENTS.md)', summary: '' }, ...cleanup], lock: null };
      }
      const next = appendBlock(existing, block);
      const refused = mergeProblem(artifact, existing, next);
      if (refused) return { entries: [refused], lock: previous ?? null };
      const reason = previous === undefined ? `${artifact.reason}; yoke's block goes after your text` : `${artifact.reason}; yoke's block was removed, added again`;
      return { entries: [{ path, action: 'update', reason, summary: diffSummary(existing, next), content: next }, ...cleanup], lock: owned(next, false) };
    }
    case 'present': {
      if (found.text === block) {
        // `file` keeps the hash of the file as yoke last wrote it: the user's text outside the block changes nothing here
        const kept: LockEntry = { owner: 'block', source, written: contentHash(block), ...(previous?.file !== undefined ? { file: previous.file } : {}) };
        return { entries: [{ path, action: 'unchanged', reason: artifact.reason, summary: '' }, ...cleanup], lock: kept };
      }
      const next = replaceBlock(existing, found, block);
      if (previous !== undefined && previous.written === contentHash(found.text)) {
        const refused = mergeProblem(artifact, existing, next);
        if (refused) return { entries: [refused], lock: previous };
        return { entries: [{ path, action: 'update', reason: `${artifact.reason}; the canon changed`, summary: diffSummary(existing, next), content: next }, ...cleanup], lock: owned(next, created && previous.file === contentHash(existing)) };
      }
      const yokeNew = planYokeNew(project, path, next);
      const reason = previous === undefined ? 'holds a yoke block yoke has no record of: kept as it is' : 'you edited yoke\'s block since the last retrofit: kept as it is';
      return {
        entries: [{ path, action: 'drifted', reason, summary: diffSummary(existing, next) }, yokeNew.entry],
        lock: { owner: 'block', source, written: previous?.written ?? null, pending: yokeNew.pending },
      };
    }
  }
}
