// Generated paths with a symbolic link on their way (DESIGN §11). A link is the user's and stays a
// link: yoke writes through it to where the bytes really are, inside the project, and never through
// one that leads out. Two generated paths that are one file (`ln -s AGENTS.md CLAUDE.md`, or a shared
// `.agents/skills → ../.claude/skills`) are written once: CLAUDE.md's `@AGENTS.md` import is not
// needed when CLAUDE.md is AGENTS.md, identical skills are one file, and anything else is refused.
import type { RetrofitArtifact } from './retrofit-artifact.js';
import type { PlanEntry, ProjectFiles } from './retrofit-plan.js';

/** What the links make of the wanted artifacts. */
export interface LinkRouting {
  /** the artifacts still to plan, each with the project path its bytes go to when a link is on its way (null: its own path) */
  planned: Array<{ artifact: RetrofitArtifact; through: string | null }>;
  /** the entries of the artifacts the links settle (unchanged) or refuse */
  entries: PlanEntry[];
  /** artifacts refused here: their lock entries stay as they were */
  refused: string[];
}

function sameFile(a: RetrofitArtifact, b: RetrofitArtifact): boolean {
  return a.kind === 'file' && b.kind === 'file' && a.content === b.content;
}

/** Settle one group of artifacts that are the same file on disk. */
function settleGroup(group: readonly RetrofitArtifact[], real: string, project: ProjectFiles, routing: LinkRouting): void {
  const through = (artifact: RetrofitArtifact): string | null => (project.links?.has(artifact.path) === true ? real : null);
  const instructions = group.find((artifact) => artifact.kind === 'block' && artifact.path === 'AGENTS.md');
  const importer = group.find((artifact) => artifact.kind === 'block' && artifact.satisfiedBy !== undefined);
  if (group.length === 2 && instructions !== undefined && importer !== undefined) {
    routing.planned.push({ artifact: instructions, through: through(instructions) });
    const reason = project.links?.has(importer.path) === true
      ? `a link to AGENTS.md: Claude Code reads the baseline through it, nothing to import`
      : `AGENTS.md is a link to it, so it holds the baseline itself: nothing to import`;
    routing.entries.push({ path: importer.path, action: 'unchanged', reason, summary: '' });
    return;
  }
  const [first, ...rest] = group;
  if (first !== undefined && rest.every((artifact) => sameFile(first, artifact))) {
    routing.planned.push({ artifact: first, through: through(first) });
    for (const artifact of rest) routing.entries.push({ path: artifact.path, action: 'unchanged', reason: `the same file as ${first.path} (a link on the way): written once, there`, summary: '' });
    return;
  }
  for (const artifact of group) {
    const others = group.filter((other) => other !== artifact).map((other) => other.path).join(', ');
    routing.entries.push({ path: artifact.path, action: 'refused', reason: `is the same file as ${others} (\`${real}\`, through a link), and yoke would write something else to each; make them separate files or remove the link`, summary: '' });
    routing.refused.push(artifact.path);
  }
}

/** Route `wanted` through the project's links: what to plan where, and what the links settle or refuse. */
export function routeLinks(wanted: readonly RetrofitArtifact[], project: ProjectFiles): LinkRouting {
  const routing: LinkRouting = { planned: [], entries: [], refused: [] };
  const groups = new Map<string, RetrofitArtifact[]>();
  for (const artifact of wanted) {
    const linked = project.links?.get(artifact.path);
    if (linked !== undefined && 'refused' in linked) {
      routing.entries.push({ path: artifact.path, action: 'refused', reason: `${linked.refused}; left untouched`, summary: '' });
      routing.refused.push(artifact.path);
      continue;
    }
    const real = linked?.real ?? artifact.path;
    groups.set(real, [...(groups.get(real) ?? []), artifact]);
  }
  for (const [real, group] of groups) {
    const [only] = group;
    if (group.length === 1 && only !== undefined) routing.planned.push({ artifact: only, through: project.links?.has(only.path) === true ? real : null });
    else settleGroup(group, real, project, routing);
  }
  return routing;
}
