// Finds a cycle in the stories' `depends-on` graph (pure), for the validation message.
import type { Story } from './story.js';

/**
 * The first cycle found, starting at the story of the cycle that comes first in the file and ending
 * where it started (`['S1', 'S2', 'S1']`), or null when the graph is acyclic. Unknown ids are ignored.
 */
export function dependencyCycle(stories: readonly Pick<Story, 'id' | 'dependsOn'>[]): string[] | null {
  const byId = new Map(stories.map((story) => [story.id, story]));
  const order = new Map(stories.map((story, index) => [story.id, index]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === 'done') return null;
    if (state.get(id) === 'open') {
      const cycle = path.slice(path.indexOf(id));
      // rotate so the story first in the file leads
      const lead = cycle.reduce((best, candidate) => ((order.get(candidate) ?? 0) < (order.get(best) ?? 0) ? candidate : best));
      const at = cycle.indexOf(lead);
      const rotated = [...cycle.slice(at), ...cycle.slice(0, at)];
      return [...rotated, lead];
    }
    state.set(id, 'open');
    path.push(id);
    for (const dep of byId.get(id)?.dependsOn ?? []) {
      if (!byId.has(dep)) continue;
      const found = visit(dep);
      if (found) return found;
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const story of stories) {
    const found = visit(story.id);
    if (found) return found;
  }
  return null;
}
