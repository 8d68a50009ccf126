import { describe, expect, it } from 'vitest';
import { positionOf } from '../../../store/fleet/journal-position.js';
import { openLanesRefusal, uncommittedWorkRefusal } from '../../../store/fleet/resume-refusal.js';
import type { JournalRecord } from '../../../store/journal/record.js';

const RUN = '01M9RUNAAAAAAAAAAAAAAAAAAA';
const hash = (c: string): string => c.repeat(64);

/** Records of one run from inline literals: seq, prev, ids and times do not matter to positionOf. */
function journal(run: string, commit: string, entries: Array<[string, Record<string, unknown>]>, from = 1, mode = 'stories'): JournalRecord[] {
  const started = { type: 'run.started', payload: { mode, input: { config: { commit } }, argv: [] } };
  return [started, ...entries.map(([type, payload]) => ({ type, payload }))].map((record, index) => ({
    v: 1, seq: from + index, id: `id${from + index}`, ts: '2026-12-01T00:00:00.000Z', run, machine: 'stories', mv: 1, prev: '', ...record,
  }) as unknown as JournalRecord);
}

const done = (key: string, kind: string, result: unknown): [string, Record<string, unknown>] => ['effect.completed', { key, kind, result }];
const begun = (key: string, kind: string, params: unknown): [string, Record<string, unknown>] => ['effect.started', { key, kind, params, attempt: 1 }];

describe('positionOf', () => {
  it('takes the last commit from story.pass (and story.land) too, not only commit.create, and the latest prd.yaml backup a story wrote', () => {
    const records = journal(RUN, 'done', [
      begun('b', 'baseline.capture', { specFiles: ['prd.yaml'], ignoredUnder: ['vendor/'] }),
      done('b', 'baseline.capture', { tree: 'tree0', specFiles: { 'prd.yaml': hash('a'), 'yoke.conf': hash('b') }, head: { branch: 'work', sha: 'base0' } }),
      done('a1', 'agent.spawn', { outcome: 'exited' }),
      done('p1', 'story.pass', { sha: 'commit1', prdBlob: hash('c') }),
      done('r1', 'spec.restore', { restored: [], displaced: { 'notes.md': hash('d') } }),
    ]);
    const position = positionOf(records, 0);
    expect(position).toMatchObject({
      open: RUN, jobRun: RUN, finished: null, lastCommit: 'commit1', commits: ['commit1'], baselineTree: 'tree0', baselineHead: 'base0',
      ignoredUnder: ['vendor/'], specFiles: { 'prd.yaml': hash('c'), 'yoke.conf': hash('b') }, commitSetting: 'done', agentCalls: 1, openLanes: [], length: 6,
    });
    expect(position.blobs.sort()).toEqual([hash('a'), hash('b'), hash('c'), hash('d')]);
    expect(uncommittedWorkRefusal(position, 'shop')).toBeNull();
  });

  it('a parallel run: story.land is its last commit, a lane candidate is not; a lane made and not removed is open', () => {
    const records = journal(RUN, 'each', [
      begun('w1', 'worktree.create', { lane: 'S1', story: 'S1' }),
      begun('w2', 'worktree.create', { lane: 'S2', story: 'S2' }),
      done('c1', 'candidate.commit', { sha: 'candidate1', tree: 't' }),
      done('l1', 'story.land', { sha: 'landed1', prdBlob: hash('e') }),
      begun('x1', 'worktree.remove', { lane: 'S1', story: 'S1' }),
      done('x1', 'worktree.remove', { removed: true }),
    ]);
    const position = positionOf(records, 0);
    expect(position.lastCommit).toBe('landed1');
    expect(position.openLanes).toEqual(['S2']);
    expect(openLanesRefusal(position, 'shop')).toMatch(new RegExp(`^run ${RUN} is a parallel stories run with lanes in progress \\(S2\\)`));
  });

  it('a loop under commit done (or stories under commit off) with an agent call and no commit cannot move; stories under commit done, loop under commit each, or no agent call yet can', () => {
    const call = done('a1', 'agent.spawn', { outcome: 'exited' });
    const refusal = (commit: string, mode: string, entries = [call]) => uncommittedWorkRefusal(positionOf(journal(RUN, commit, entries, 1, mode), 0), 'shop');
    expect(refusal('done', 'loop')).toMatch(/^run \S+ completed 1 agent call\(s\) under `commit done` and has no commit yet/);
    expect(refusal('off', 'stories')).toMatch(/under `commit off` and has no commit yet/);
    expect(refusal('done', 'stories')).toBeNull();
    expect(refusal('each', 'loop')).toBeNull();
    expect(refusal('done', 'loop', [])).toBeNull();
  });

  it('the job\'s run is the first one started after it was queued; a finished one has no open run left', () => {
    const older = journal('01M9OLDAAAAAAAAAAAAAAAAAAA', 'each', [['run.finished', { state: 'done', exitCode: 0, reason: 'done' }]]);
    const mine = journal(RUN, 'each', [['run.finished', { state: 'done', exitCode: 0, reason: 'done' }]], 3);
    const position = positionOf([...older, ...mine], 2);
    expect(position).toMatchObject({ open: null, jobRun: RUN, finished: { state: 'done', exitCode: 0, reason: 'done' } });
  });
});
