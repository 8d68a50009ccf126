// The retrofit's plan, computed purely: canon + selected agents + the project's files + the lock →
// every path it creates, changes or deletes (with reason and diff summary) and the next lock.
import type { Canon } from './canon.js';
import { LOCK_PATH, renderLock, sortAgents, type CanonLock, type LockEntry } from './canon-lock.js';
import { diffSummary } from './line-diff.js';
import { planJsonFile } from './plan-json-file.js';
import { planMarkedBlock } from './plan-marked-block.js';
import { routeLinks } from './plan-links.js';
import { planStale } from './plan-stale.js';
import { planSeed, planWholeFile } from './plan-whole-file.js';
import type { RetrofitArtifact } from './retrofit-artifact.js';
import { retrofitArtifacts } from './retrofit-artifacts.js';
import { RETROFIT_AGENTS, type RetrofitAgent } from './retrofit-agents.js';
import type { ArtifactPlan, PlanEntry, ProjectFiles, RetrofitPlan } from './retrofit-plan.js';
import { yokeNewPath } from './yoke-new.js';

/** Every path the planner may need to read for `canon` and `lock`: artifacts of every agent, their `.yoke-new`, the lock's paths. */
export function pathsToRead(canon: Canon, lock: CanonLock | null): string[] {
  const paths = new Set<string>([LOCK_PATH]);
  for (const artifact of retrofitArtifacts(canon, RETROFIT_AGENTS)) paths.add(artifact.path);
  for (const path of Object.keys(lock?.files ?? {})) paths.add(path);
  for (const path of [...paths]) paths.add(yokeNewPath(path));
  return [...paths].sort();
}

function planArtifact(artifact: RetrofitArtifact, project: ProjectFiles, previous: LockEntry | undefined): ArtifactPlan {
  switch (artifact.kind) {
    case 'file':
      return planWholeFile(artifact, project, previous);
    case 'seed':
      return planSeed(artifact, project, previous);
    case 'block':
    case 'toml':
      return planMarkedBlock(artifact, project, previous);
    case 'json':
      return planJsonFile(artifact, project, previous);
  }
}

/**
 * Plan the retrofit of `agents` into a project whose files are `project` and whose lock is `lock`.
 * @example planRetrofit(canon, ['claude'], project, null).entries.filter((entry) => entry.action === 'create')
 */
export function planRetrofit(canon: Canon, agents: readonly RetrofitAgent[], project: ProjectFiles, lock: CanonLock | null): RetrofitPlan {
  const selected = sortAgents(agents);
  const universe = new Map(retrofitArtifacts(canon, RETROFIT_AGENTS).map((artifact) => [artifact.path, artifact]));
  const entries: PlanEntry[] = [];
  const files: Record<string, LockEntry> = {};
  const wanted = retrofitArtifacts(canon, selected);
  const routing = routeLinks(wanted, project);
  for (const { artifact, through } of routing.planned) {
    const result = planArtifact(artifact, project, lock?.files[artifact.path]);
    // a link on the way stays: the bytes go where it leads (inside the project)
    entries.push(...(through === null ? result.entries : result.entries.map((entry) => (entry.path === artifact.path && entry.content !== undefined
      ? { ...entry, through, reason: `${entry.reason} (written to ${through}, through the link)` } : entry))));
    if (result.lock !== null) files[artifact.path] = result.lock;
  }
  entries.push(...routing.entries);
  for (const path of routing.refused) {
    const previous = lock?.files[path];
    if (previous !== undefined) files[path] = previous;
  }
  const wantedPaths = new Set(wanted.map((artifact) => artifact.path));
  for (const [path, previous] of Object.entries(lock?.files ?? {})) {
    if (wantedPaths.has(path)) continue;
    // never changed or deleted through a link: it is released as it is
    if (project.links?.has(path) === true) entries.push({ path, action: 'unchanged', reason: 'no longer generated, and a link is on its way now: yoke no longer manages it', summary: '' });
    else entries.push(...planStale(path, previous, universe, project).entries);
  }
  const next: CanonLock = { version: 1, canon: canon.version, agents: selected, files };
  const lockText = renderLock(next);
  const currentLock = project.files.get(LOCK_PATH) ?? null;
  entries.push(currentLock === lockText
    ? { path: LOCK_PATH, action: 'unchanged', reason: 'the record of what yoke generated', summary: '' }
    : { path: LOCK_PATH, action: currentLock === null ? 'create' : 'update', reason: 'the record of what yoke generated', summary: diffSummary(currentLock, lockText), content: lockText });
  return { agents: selected, entries, lock: next };
}
