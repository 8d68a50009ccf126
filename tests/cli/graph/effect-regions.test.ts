// cli/graph/effect-regions.ts: in a real parallel stories run (three stories on two lanes), every
// effect inside the parallel state is put down to the region that ran it — the lanes their own
// work, the integration lane the rebase, checks and landing of each candidate, though the lane
// that queued the candidate names the same story meanwhile.
import { beforeAll, describe, expect, it } from 'vitest';
import { effectRegions } from '../../../cli/graph/effect-regions.js';
import { machineGraph } from '../../../cli/graph/machine-graph.js';
import { regionsOf } from '../../../cli/timeline.js';
import { LIFECYCLES, type Lifecycle } from '../../../machines/lifecycles/registry.js';
import { findRun } from '../../../store/fold/journal-runs.js';
import { laneOfRequest } from '../../../store/fold/request-lane.js';
import { replayRun, type ReplayedRun, type ReplayStep } from '../../../store/projections/replay-steps.js';
import { recordParallelRun } from '../../support/parallel-workspace.js';

const stories = LIFECYCLES.stories as Lifecycle;
const graph = machineGraph('stories', stories.version, stories.machine);
let replayed: ReplayedRun;
let owners: Map<ReplayStep, string>;
beforeAll(async () => {
  const records = await recordParallelRun(['S1', 'S2', 'S3'], 2);
  replayed = replayRun(records, findRun(records));
  owners = effectRegions(graph, replayed);
}, 180_000);

const storyOf = (step: ReplayStep): string => {
  const keyed = step.effect === null ? undefined : replayed.fold.effects.get(step.effect.key)?.request;
  return keyed === undefined ? '?' : laneOfRequest(keyed);
};

describe('effectRegions', () => {
  it('names a region for every effect reported inside the parallel state, and none outside it', () => {
    const inside = replayed.steps.filter((step) => step.effect !== null && step.from !== null && regionsOf(step.from) !== null);
    expect(inside.length).toBeGreaterThan(30);
    expect(inside.filter((step) => !owners.has(step)).map((step) => step.seq)).toEqual([]);
    expect([...owners.keys()].filter((step) => !inside.includes(step)).map((step) => step.seq)).toEqual([]);
  });

  it('puts the integration lane\'s effects down to it and a lane\'s to that lane, in the state that asked', () => {
    const integrationKinds = new Set(['candidate.rebase', 'clock.read', 'story.land']);
    for (const [step, region] of owners) {
      const kind = step.effect?.kind ?? '';
      if (kind === 'check.run') continue;
      expect({ seq: step.seq, kind, region }).toEqual({ seq: step.seq, kind, region: integrationKinds.has(kind) ? 'integration' : expect.stringMatching(/^lane[12]$/) as string });
    }
    // the region ran it from a state of its own, not from idle or a queue it waits in
    for (const [step, region] of owners) expect(['idle', 'queued']).not.toContain(regionsOf(step.from ?? '')?.regions.get(region));
  });

  it('tells a lane\'s checks of a story from the integration lane\'s checks of the same story', () => {
    for (const story of ['S1', 'S2', 'S3']) {
      const ofStory = [...owners].filter(([step]) => storyOf(step) === story);
      const committed = ofStory.find(([step]) => step.effect?.kind === 'candidate.commit')?.[0].seq ?? -1;
      const rebased = ofStory.find(([step]) => step.effect?.kind === 'candidate.rebase')?.[0].seq ?? -1;
      const checks = ofStory.filter(([step]) => step.effect?.kind === 'check.run');
      expect(checks.length, `${story}: guard and accept checks in its lane and again in integration`).toBe(4);
      for (const [step, region] of checks) expect(region === 'integration' ? step.seq > rebased : step.seq < committed, `${story} check at seq ${step.seq} by ${region}`).toBe(true);
      // one lane runs all of a story's own work
      expect(new Set(ofStory.map(([, region]) => region).filter((region) => region !== 'integration')).size).toBe(1);
    }
  });
});
