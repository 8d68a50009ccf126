// `yoke inspect [machine]`: a lifecycle machine as Mermaid, DOT, JSON, an offline HTML page, or a
// config for Stately Studio. Reads no workspace and runs nothing.
import { writeFileSync } from 'node:fs';
import { LIFECYCLE_REGISTRY, type Lifecycle } from '../../machines/lifecycles/registry.js';
import { YokeError } from '../../errors/yoke-error.js';
import { renderDot } from '../graph/dot.js';
import { machineGraph, type MachineGraph } from '../graph/machine-graph.js';
import { renderMermaid } from '../graph/mermaid.js';
import { statelyImportCode } from '../graph/stately-config.js';

/** Flags of `yoke inspect`. */
export interface InspectFlags {
  format: 'mermaid' | 'dot' | 'json' | 'html';
  stately: boolean;
  json: boolean;
  output?: string;
}

/** Every lifecycle this yoke has, in mode order. */
export function lifecycles(): Lifecycle[] {
  return [...LIFECYCLE_REGISTRY];
}

/** Print (or write to `--output`) the chosen machine in the chosen format; without a machine, list them. */
export async function inspectCommand(name: string | undefined, flags: InspectFlags): Promise<number> {
  const all = lifecycles();
  if (name === undefined) {
    const list = all.map((lifecycle) => {
      const graph = machineGraph(lifecycle.name, lifecycle.version, lifecycle.machine);
      return { name: lifecycle.name, version: lifecycle.version, states: graph.states.length - 1, transitions: graph.transitions.length };
    });
    if (flags.json || flags.format === 'json') return emit(`${JSON.stringify(list)}\n`, flags.output);
    const lines = list.map((m) => `${m.name.padEnd(8)} v${m.version}  ${m.states} states, ${m.transitions} transitions`);
    lines.push('', 'Show one with `yoke inspect <machine> [--format mermaid|dot|json|html]`, or export it with `--stately`.');
    return emit(`${lines.join('\n')}\n`, flags.output);
  }
  const lifecycle = all.find((candidate) => candidate.name === name);
  if (!lifecycle) throw new YokeError('usage', `there is no ${name} machine; choose one of: ${all.map((l) => l.name).join(', ')}.`);
  const graph = machineGraph(lifecycle.name, lifecycle.version, lifecycle.machine);
  return emit(await render(graph, flags), flags.output);
}

async function render(graph: MachineGraph, flags: InspectFlags): Promise<string> {
  if (flags.stately) return statelyImportCode(graph);
  const format = flags.json ? 'json' : flags.format;
  switch (format) {
    case 'mermaid':
      return renderMermaid(graph);
    case 'dot':
      return renderDot(graph);
    case 'json':
      return `${JSON.stringify(graph, null, 2)}\n`;
    case 'html': {
      const { machinePage } = await import('../graph/machine-page.js');
      return machinePage(graph);
    }
  }
}

function emit(text: string, output: string | undefined): number {
  if (output === undefined) process.stdout.write(text);
  else writeFileSync(output, text);
  return 0;
}
