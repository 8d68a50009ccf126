// store/projections/replay-steps.ts: a run recorded by the real runner (in-memory world) replayed step by step.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIFECYCLES, type Lifecycle } from '../../../machines/lifecycles/registry.js';
import { readJournalFile } from '../../../store/journal/file/journal-file.js';
import { findRun } from '../../../store/fold/journal-runs.js';
import type { JournalRecord } from '../../../store/journal/record.js';
import { replayRun, RunReplay, type ReplayStep } from '../../../store/projections/replay-steps.js';
import { memoryLoopInput } from '../../support/memory-input.js';
import { MemoryProcess, removeScratch, scratchDir } from '../../support/memory-process.js';
import { MemoryWorld } from '../../support/memory-world.js';

const loop = LIFECYCLES.loop as Lifecycle;
const CONF = ['max-iterations 4', 'no-modify vendor/', 'guard tests npm test', 'commit each', 'hook iteration-end echo end'];
const USAGE = { inputTokens: 1000, outputTokens: 200, cacheReadTokens: null, cacheWriteTokens: null, costUsd: 0.25, model: 'm' };

let dir: string;
let records: JournalRecord[];

beforeAll(async () => {
  dir = scratchDir('yoke-replay-');
  const world = new MemoryWorld();
  world.scriptAgent({ notes: 'IN_PROGRESS', changed: ['src/a.ts'], usage: USAGE });
  world.scriptAgent({ notes: 'IN_PROGRESS', changed: ['src/a.ts'], usage: null });
  world.scriptAgent({ notes: 'DONE', changed: ['src/a.ts'], usage: USAGE });
  world.scriptGuard(1);
  const path = join(dir, 'journal.jsonl');
  // Crash once right after the first agent call started (before it ran), then resume.
  const first = new MemoryProcess(path, world, loop, memoryLoopInput(CONF), null, { permits: 2 });
  await first.advance(0);
  await first.kill();
  const second = new MemoryProcess(path, world, loop, memoryLoopInput(CONF), null);
  expect(await second.done).toMatchObject({ kind: 'finished', exitCode: 0 });
  records = readJournalFile(path).records;
});

afterAll(() => removeScratch(dir));

describe('replayRun', () => {
  it('shows every machine transition with its effect, and the records about the run', () => {
    const replayed = replayRun(records, findRun(records));
    const events = replayed.steps.map((step) => step.event);
    expect(events[0]).toBe('run.started');
    expect(events).toContain('run.resumed');
    expect(events).toContain('AGENT_INTERRUPTED');
    expect(events.at(-1)).toBe('run.finished');
    expect(replayed.steps.filter((step) => step.event === 'AGENT_EXITED')).toHaveLength(3);
    const seqs = replayed.steps.map((step) => step.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    for (const step of replayed.steps.filter((s) => s.record === 'event' && s.event !== 'SET_MAX_ITERATIONS')) {
      expect(step.effect, `seq ${step.seq}`).not.toBeNull();
    }
  });

  it('reports the state before and after, transient states, outcomes, durations and usage', () => {
    const { steps } = replayRun(records, findRun(records));
    const agent = steps.find((step) => step.event === 'AGENT_EXITED');
    expect(agent).toMatchObject({ from: 'working', to: 'readingNotes', usage: USAGE, effect: { kind: 'agent.spawn', outcome: 'exit 0', durationMs: 1000 } });
    const failed = steps.find((step) => step.event === 'CHECK_FINISHED');
    expect(failed?.effect?.outcome).toBe('FAIL (exit 1)');
    const scanned = steps.find((step) => step.event === 'BOUNDARY_SCANNED');
    expect(scanned?.via).toContain('routingChecks');
    const hook = steps.find((step) => step.effect?.kind === 'hook.fire');
    expect(hook).toMatchObject({ record: 'effect.completed', effect: { outcome: 'started' } });
  });

  it('totals the outcome: exit code, agent calls, tokens and cost (unknown usage counted apart)', () => {
    const { outcome } = replayRun(records, findRun(records));
    // Three completed calls (one without usage) and one cut short: the interrupted call counts as a
    // call whose usage is unknown, as `yoke usage` and the budgets count it.
    expect(outcome).toMatchObject({
      status: 'finished', state: 'done', exitCode: 0, reason: 'done',
      agentCalls: 4, inputTokens: 2000, outputTokens: 400, costUsd: 0.5, unknownUsage: 2, unknownCost: 2,
    });
  });

  it('stops at --at: the state and what is owed right after that record', () => {
    const agentStart = records.find((r) => r.type === 'effect.started' && r.payload.kind === 'agent.spawn');
    const replayed = replayRun(records, findRun(records), agentStart?.seq ?? 0);
    expect(replayed.fold.snapshot.value).toBe('working');
    expect(replayed.fold.outstanding[0]?.request.kind).toBe('agent.spawn');
    expect(replayed.steps.at(-1)?.seq).toBeLessThan(agentStart?.seq ?? 0);
  });
  it('streamed with settled effects forgotten, tells the same steps and the same outcome', () => {
    const whole = replayRun(records, findRun(records));
    const steps: ReplayStep[] = [];
    const streamed = new RunReplay(findRun(records), (step) => void steps.push(step), true);
    for (const record of records) streamed.feed(record);
    expect(steps).toEqual(whole.steps);
    expect(streamed.outcome()).toEqual(whole.outcome);
    expect(streamed.fold.effects.size).toBeLessThan(whole.fold.effects.size);
  });
});
