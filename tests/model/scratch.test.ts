import { it } from 'vitest';
import { LIFECYCLES, type Lifecycle } from '../../machines/lifecycles.js';
import { allStateNodes, allTransitions, coverageOf, missing } from '../machines/support/transition-coverage.js';
import { transitionPaths, type GraphModel } from '../machines/support/work-graph.js';
import { planNodes, planWorld } from './support/world-plan.js';
import { MODELS } from './support/path-models.js';

it('sizes', () => {
  for (const [machineName, models] of Object.entries(MODELS)) {
    const machine = (LIFECYCLES as Record<string, Lifecycle>)[machineName]!.machine;
    const union = { nodes: new Set<string>(), candidates: new Set<string>() };
    let total = 0;
    for (const [name, model] of Object.entries(models as Record<string, GraphModel>)) {
      const t = transitionPaths(machine, model);
      const names = new Map(Object.entries(model.samples).map(([n, s]) => [s.event, n]));
      const root = planWorld(machine, model.input, t.paths, names);
      const steps = planNodes(root).filter((n) => n.step.kind !== 'external').length - 1; const ext = planNodes(root).filter((n) => n.step.kind === 'external').length;
      const branches = planNodes(root).filter((n) => n.children.size > 1).reduce((a, n) => a + n.children.size - 1, 0);
      total += steps;
      const cov = coverageOf(model.input, t.paths, machine);
      cov.nodes.forEach((n) => union.nodes.add(n)); cov.candidates.forEach((n) => union.candidates.add(n));
      console.log(machineName, name, 'vertices', t.vertices, 'paths', t.paths.length, 'steps', steps, 'ext', ext, 'copies', branches);
    }
    const nodes = allStateNodes(machine.root).map((n) => n.id);
    const { candidates } = allTransitions(machine);
    console.log(machineName, 'TOTAL steps', total, 'missing nodes', missing(nodes, union.nodes), 'missing candidates', missing(candidates, union.candidates));
  }
});
