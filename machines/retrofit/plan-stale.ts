// Planning what the lock records but the canon no longer generates (a skill dropped, an agent no
// longer selected): deleted only when yoke made it and it is unchanged since; otherwise released.
import type { LockEntry } from './canon-lock.js';
import { contentHash } from './content-hash.js';
import { findParts, removeParts, canonicalJson } from './json-parts.js';
import { diffSummary } from './line-diff.js';
import { findBlock, removeBlock } from './marked-block.js';
import type { RetrofitArtifact } from './retrofit-artifact.js';
import type { ArtifactPlan, PlanEntry, ProjectFiles } from './retrofit-plan.js';
import { planYokeNewCleanup } from './yoke-new.js';

const released = (path: string, why: string): PlanEntry => ({ path, action: 'unchanged', reason: `${why}; yoke no longer manages it`, summary: '' });

/** Remove what yoke owns at `path` (its definition, if any, from `universe`), or release it. Never a lock entry. */
export function planStale(path: string, previous: LockEntry, universe: ReadonlyMap<string, RetrofitArtifact>, project: ProjectFiles): ArtifactPlan {
  const existing = project.files.get(path) ?? null;
  const cleanup = planYokeNewCleanup(project, path, previous);
  const done = (entries: PlanEntry[]): ArtifactPlan => ({ entries: [...entries, ...cleanup], lock: null });
  if (existing === null || project.notText.has(path)) return done([]);
  const reason = 'no longer generated for the selected agents';
  const deleteWhole = (): ArtifactPlan => done([{ path, action: 'delete', reason, summary: diffSummary(existing, null) }]);
  if (previous.file !== undefined && previous.file === contentHash(existing)) return deleteWhole();
  switch (previous.owner) {
    case 'seed':
      return done([released(path, 'a context template, yours')]);
    case 'file':
      return previous.written === contentHash(existing) ? deleteWhole() : done([released(path, 'you edited it: kept')]);
    case 'block': {
      const found = findBlock(existing);
      if (found.state !== 'present') return done([released(path, 'yoke\'s block is not there')]);
      if (previous.written !== contentHash(found.text)) return done([released(path, 'you edited yoke\'s block: kept')]);
      const next = removeBlock(existing, found);
      if (next.trim() === '') return deleteWhole();
      return done([{ path, action: 'update', reason: `${reason}: yoke's block removed, your text stays`, summary: diffSummary(existing, next), content: next }]);
    }
    case 'keys': {
      const artifact = universe.get(path);
      if (artifact?.kind !== 'json') return done([released(path, 'yoke does not know these settings any more')]);
      const found = findParts(existing, artifact.dialect, artifact.parts);
      if (found.problem !== null || contentHash(canonicalJson(found.found)) !== previous.written) return done([released(path, 'you edited yoke\'s entries: kept')]);
      const next = removeParts(existing, artifact.parts, artifact.dialect);
      if (findParts(next, artifact.dialect, []).problem !== null) return done([released(path, 'yoke could not take its entries out cleanly: kept')]);
      return done([{ path, action: 'update', reason: `${reason}: yoke's entries removed, yours stay`, summary: diffSummary(existing, next), content: next }]);
    }
  }
}
