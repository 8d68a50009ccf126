// cli/graph/run-overlay.ts: golden runs laid over the loop graph — arrows taken, visits, time, cost —
// and a real parallel stories run over the stories graph, lane by lane.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { drawnEdges } from '../../../cli/graph/drawn-edges.js';
import { machineGraph } from '../../../cli/graph/machine-graph.js';
import { dotOverlay, runOverlay } from '../../../cli/graph/run-overlay.js';
import { LIFECYCLES, type Lifecycle } from '../../../machines/lifecycles/registry.js';
import { readJournalFile } from '../../../store/journal/file/journal-file.js';
import { findRun } from '../../../store/fold/journal-runs.js';
import { replayRun } from '../../../store/projections/replay-steps.js';
import { recordParallelRun } from '../../support/parallel-workspace.js';

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

describe('runOverlay of a parallel stories run (three stories on two lanes)', () => {
  const stories = LIFECYCLES.stories as Lifecycle;
  const storiesGraph = machineGraph('stories', stories.version, stories.machine);
  const storiesEdges = drawnEdges(storiesGraph).edges;
  let records: Awaited<ReturnType<typeof recordParallelRun>> = [];
  let replayed: ReturnType<typeof replayRun>;
  let overlay: ReturnType<typeof runOverlay>;
  beforeAll(async () => {
    records = await recordParallelRun(['S1', 'S2', 'S3'], 2);
    replayed = replayRun(records, findRun(records));
    overlay = runOverlay(storiesGraph, replayed);
  }, 180_000);
  const state = (name: string) => overlay.states.find((s) => s.name === name);
  const timesTaken = (source: string, event: string | null, target: string): number => {
    const edge = storiesEdges.find((e) => e.source === `stories.${source}` && e.event === event && e.target === `stories.${target}`);
    return edge ? overlay.edges.get(edge.id) ?? 0 : -1;
  };

  it('visits each lane\'s states, with the lane\'s agent calls, and the integration lane\'s', () => {
    // one lane takes up the third story: which one, the scheduler says
    const working = ['lane1', 'lane2'].map((lane) => state(`parallel.${lane}.working`));
    for (const lane of working) expect(lane?.visits).toBeGreaterThanOrEqual(1);
    for (const lane of working) expect(lane?.agentCalls).toBe(lane?.visits);
    expect(working.reduce((total, lane) => total + (lane?.agentCalls ?? 0), 0)).toBe(3);
    expect(state('parallel.integration.rebasing')).toMatchObject({ visits: 3, effects: 3 });
    expect(state('parallel.integration.landing')).toMatchObject({ visits: 3, effects: 3 });
    // a lane the run had no story for leaves no trace
    expect(overlay.states.filter((s) => /^parallel\.lane[3-8]\./.test(s.name))).toEqual([]);
  });

  it('counts every agent call and effect once, in the state that ran it', () => {
    const sum = (pick: (s: (typeof overlay.states)[number]) => number) => overlay.states.reduce((total, s) => total + pick(s), 0);
    expect(replayed.outcome.agentCalls).toBe(3);
    expect(sum((s) => s.agentCalls)).toBe(replayed.outcome.agentCalls);
    expect(sum((s) => s.effects)).toBe(replayed.steps.filter((step) => step.effect !== null).length);
    expect(state('parallel')?.effects).toBe(0);
  });

  it('marks the arrows taken inside the lanes', () => {
    const lanes = ['lane1', 'lane2'];
    // a new run's worker exit goes through the spec restore
    const exited = lanes.map((lane) => timesTaken(`parallel.${lane}.working`, 'AGENT_EXITED', `parallel.${lane}.restoringAfterWorker`));
    expect(lanes.map((lane) => timesTaken(`parallel.${lane}.restoringAfterWorker`, 'SPEC_RESTORED', `parallel.${lane}.readingNotes`))).toEqual(exited);
    expect(Math.min(...exited)).toBeGreaterThanOrEqual(1);
    expect(exited[0]! + exited[1]!).toBe(3);
    expect(lanes.map((lane) => timesTaken(`parallel.${lane}.idle`, null, `parallel.${lane}.creating`))).toEqual(exited);
    expect(timesTaken('parallel.integration.landing', 'STORY_LANDED', 'parallel.integration.idle')).toBe(3);
    // each check's result comes back to `checking`: the guard check, then the acceptance check leaves
    expect(timesTaken('parallel.integration.checking', 'CHECK_FINISHED', 'parallel.integration.checking')).toBe(3);
    expect(timesTaken('choosing', null, 'parallel')).toBe(1);
    expect(timesTaken('parallel', null, 'done')).toBe(1);
    expect(overlay.current).toEqual(['stories.done']);
  });

  it('times the parallel state by the wall clock and each lane on its own', () => {
    const parallel = state('parallel');
    expect(parallel?.visits).toBe(1);
    expect(state('choosing')?.timeMs).toBe(0);
    const entered = replayed.steps.find((step) => step.to.startsWith('parallel.'));
    const left = replayed.steps.find((step) => step.from?.startsWith('parallel.') && !step.to.startsWith('parallel.'));
    expect(parallel?.timeMs).toBe((left?.elapsedMs ?? 0) - (entered?.elapsedMs ?? 0));
    // a region is always in one of its states: its states' times add up to the parallel state's
    for (const region of ['lane1', 'lane2', 'integration']) {
      const time = overlay.states.filter((s) => s.name.startsWith(`parallel.${region}.`)).reduce((total, s) => total + s.timeMs, 0);
      expect(time, region).toBe(parallel?.timeMs);
    }
  });

  it('stands, mid-run, in every busy lane\'s state', () => {
    const both = replayed.steps.find((step) => step.to.includes('lane1.working') && step.to.includes('lane2.working'));
    const midway = runOverlay(storiesGraph, replayRun(records, findRun(records), both?.seq ?? 0));
    expect(midway.current).toEqual(expect.arrayContaining(['stories.parallel.lane1.working', 'stories.parallel.lane2.working']));
    expect(midway.current.filter((id) => id === 'stories.parallel' || id.endsWith('.idle'))).toEqual([]);
    expect(dotOverlay(overlay).states.get('stories.parallel')).toEqual([expect.stringMatching(/^1× · \d/)]);
  });
});
