// cli/graph/stately-config.ts: the export rebuilds, with XState itself, into the same machine structure.
import { createMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { machineGraph } from '../../../cli/graph/machine-graph.js';
import { statelyConfig, statelyImportCode } from '../../../cli/graph/stately-config.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';

const lifecycles = LIFECYCLE_REGISTRY;

describe.each(lifecycles.map((l) => [l.name, l] as const))('statelyConfig(%s)', (_name, lifecycle) => {
  const graph = machineGraph(lifecycle.name, lifecycle.version, lifecycle.machine);

  it('is plain JSON that createMachine turns back into the same states and transitions', () => {
    const config = statelyConfig(graph);
    expect(JSON.parse(JSON.stringify(config))).toEqual(config);
    const rebuilt = machineGraph(lifecycle.name, lifecycle.version, createMachine(config as Parameters<typeof createMachine>[0]));
    expect(rebuilt).toEqual(graph);
  });

  it('is printed as the createMachine({...}) call Stately Studio imports', () => {
    const code = statelyImportCode(graph);
    expect(code.startsWith('createMachine({')).toBe(true);
    expect(JSON.parse(code.slice('createMachine('.length, code.lastIndexOf(')')))).toEqual(statelyConfig(graph));
  });
});
