// cli/graph/run-overlay.ts: golden runs laid over the loop graph — arrows taken, visits, time, cost.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { drawnEdges } from '../../../cli/graph/drawn-edges.js';
import { machineGraph } from '../../../cli/graph/machine-graph.js';
import { dotOverlay, runOverlay } from '../../../cli/graph/run-overlay.js';
import { LIFECYCLES, type Lifecycle } from '../../../machines/lifecycles/registry.js';
import { readJournalFile } from '../../../store/journal/file/journal-file.js';
import { findRun } from '../../../store/fold/journal-runs.js';
import { replayRun } from '../../../store/projections/replay-steps.js';

const golden = (name: string) => join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'golden', `${name}.v0.1.0.jsonl`);
const loop = LIFECYCLES.loop as Lifecycle;
const graph = machineGraph('loop', loop.version, loop.machine);
const { edges } = drawnEdges(graph);

function overlayOf(name: string) {
  const { records } = readJournalFile(golden(name));
  return runOverlay(graph, replayRun(records, findRun(records)));
}

function taken(overlay: ReturnType<typeof runOverlay>, source: string, event: string | null, target: string): number {
  const edge = edges.find((e) => e.source === `loop.${source}` && e.event === event && e.target === `loop.${target}`);
  return edge ? overlay.edges.get(edge.id) ?? 0 : -1;
}

describe('runOverlay', () => {
  it('counts the arrows a 3-iteration run took, eventless ones included', () => {
    const overlay = overlayOf('loop-done');
    expect(taken(overlay, 'working', 'AGENT_EXITED', 'readingNotes')).toBe(3);
    expect(taken(overlay, 'routingChecks', null, 'checking')).toBe(3);
    expect(taken(overlay, 'advancing', null, 'restoring')).toBe(2);
    expect(taken(overlay, 'advancing', null, 'done')).toBe(1);
    expect(taken(overlay, 'advancing', null, 'exhausted')).toBe(0);
    expect(overlay.current).toEqual(['loop.done']);
  });

  it('gives per-state visits, agent calls, tokens and cost', () => {
    const working = overlayOf('loop-done').states.find((s) => s.name === 'working');
    expect(working).toMatchObject({ visits: 3, agentCalls: 3, inputTokens: 3006, outputTokens: 600 });
    expect(working?.costUsd).toBeCloseTo(0.06);
    expect(working?.timeMs).toBeGreaterThan(0);
  });

  it('draws an interrupted call and never-visited states apart', () => {
    const overlay = overlayOf('loop-crash-resume');
    expect(taken(overlay, 'working', 'AGENT_INTERRUPTED', 'restoring')).toBe(1);
    expect(overlay.states.find((s) => s.name === 'working')?.visits).toBe(4);
    expect(overlay.states.some((s) => s.name === 'exhausted')).toBe(false);
    const max = overlayOf('loop-max-iterations');
    expect(taken(max, 'routingChecks', null, 'reporting')).toBe(1);
    expect(max.current).toEqual(['loop.exhausted']);
  });

  it('turns into the DOT overlay: one line of visits and time, one of calls and cost', () => {
    const dot = dotOverlay(overlayOf('loop-done'));
    expect(dot.states.get('loop.working')).toEqual([expect.stringMatching(/^3× · \d/), '3 calls · $0.06']);
  });
});
