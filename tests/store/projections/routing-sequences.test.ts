// The routing ledger (store/projections/routing-sequences.ts): journal records in, sequences out.
// Per-story and per-chunk sequences are folded through the real machines in tests/e2e/routing.test.ts.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config/parse-config.js';
import type { Config } from '../../../config/types.js';
import type { Usage } from '../../../machines/effects.js';
import { LIFECYCLE_REGISTRY } from '../../../machines/lifecycles/registry.js';
import type { JournalRecord } from '../../../store/journal/record.js';
import { routingSequences } from '../../../store/projections/routing-sequences.js';

function config(lines: string[]): Config {
  const { config: parsed, issues } = parseConfig(`${['mode goal', 'accept t true', 'profile cheap tier light cmd ./cheap.sh', 'profile dear cmd ./dear.sh', ...lines].join('\n')}\n`, 'yoke.conf', LIFECYCLE_REGISTRY);
  if (!parsed) throw new Error(JSON.stringify(issues));
  return parsed;
}

/** A journal of goal runs, written record by record (only the fields the ledger reads are real). */
function journal() {
  const records: JournalRecord[] = [];
  let seq = 0;
  const add = (run: string, type: JournalRecord['type'], payload: unknown) => {
    seq += 1;
    records.push({ v: 1, seq, id: '0'.repeat(26), ts: '2025-01-01T00:00:00.000Z', run, machine: 'goal', mv: 1, type, payload, prev: '0'.repeat(64) } as JournalRecord);
  };
  const usage = (fields: Partial<Usage>): Usage => ({ inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null, costUsd: null, model: null, ...fields });
  return {
    records,
    start: (run: string, cfg: Config) => add(run, 'run.started', { mode: 'goal', input: { config: cfg, sequenceRouting: true }, argv: [] }),
    call: (run: string, key: string, profile: string, result: Usage | 'interrupted', role = 'worker', classification = 'ok') => {
      add(run, 'effect.started', { key, kind: 'agent.spawn', attempt: 1, params: { role, iteration: 1, agent: { kind: 'cmd', command: 'x' }, model: null, profile, prompt: '', idleTimeoutMs: 0 } });
      if (result === 'interrupted') add(run, 'effect.interrupted', { key, kind: 'agent.spawn', reason: 'crash' });
      else add(run, 'effect.completed', { key, kind: 'agent.spawn', result: { outcome: 'exited', exitCode: 0, signal: null, durationMs: 1000, usage: result, transcript: 't', classification } });
    },
    finish: (run: string, exitCode: number) => add(run, 'run.finished', { state: 'done', exitCode, reason: exitCode === 0 ? 'goal-complete' : 'attempts' }),
    abandon: (run: string) => add(run, 'run.abandoned', { reason: 'yoke run --fresh' }),
    usage,
  };
}

describe('the routing ledger', () => {
  it('prices a call that reported tokens but no cost with `price`: priced cost is reported cost', () => {
    const j = journal();
    j.start('R1', config(['agent cheap', 'price m 1000 2000']));
    j.call('R1', 'k1', 'cheap', j.usage({ inputTokens: 100, outputTokens: 10, model: 'm' }));
    j.call('R1', 'k2', 'dear', j.usage({ inputTokens: 1, outputTokens: 1, costUsd: 0.5 }), 'judge');
    j.finish('R1', 0);
    expect(routingSequences(j.records)).toEqual([expect.objectContaining({ run: 'R1', unit: 'run', profile: 'cheap', attempts: 1, accepted: true, complete: true, costUsd: 0.62, unknownTokens: false, partial: false, infrastructure: false, durationMs: 2000 })]);
  });

  it('an unpriced call leaves the cost unknown (never zero), and a call without token counts marks partial usage', () => {
    const j = journal();
    j.start('R1', config(['agent cheap']));
    j.call('R1', 'k1', 'cheap', j.usage({ inputTokens: 100, outputTokens: 10, costUsd: 0.01 }));
    j.call('R1', 'k2', 'cheap', j.usage({ inputTokens: 100, outputTokens: 10, model: 'unpriced' }));
    j.finish('R1', 1);
    j.start('R2', config(['agent cheap']));
    j.call('R2', 'k3', 'cheap', j.usage({ costUsd: 0.01 }));
    j.finish('R2', 0);
    expect(routingSequences(j.records).map((s) => [s.run, s.costUsd, s.unknownTokens, s.accepted])).toEqual([['R1', null, false, false], ['R2', 0.01, true, true]]);
  });

  it('a call cut short makes its sequence partial; an unfinished or abandoned run is no complete sequence', () => {
    const j = journal();
    j.start('R1', config(['agent dear']));
    j.call('R1', 'k1', 'dear', 'interrupted');
    j.call('R1', 'k2', 'dear', j.usage({ inputTokens: 1, outputTokens: 1, costUsd: 0.01 }));
    j.finish('R1', 0);
    j.start('R2', config(['agent dear']));
    j.call('R2', 'k3', 'dear', j.usage({ inputTokens: 1, outputTokens: 1, costUsd: 0.01 }));
    j.abandon('R2');
    j.start('R3', config(['agent cheap']));
    j.call('R3', 'k4', 'cheap', j.usage({ inputTokens: 1, outputTokens: 1, costUsd: 0.01 }));
    expect(routingSequences(j.records).map((s) => [s.run, s.profile, s.attempts, s.partial, s.complete])).toEqual([
      ['R1', 'dear', 2, true, true], ['R2', 'dear', 1, false, false], ['R3', 'cheap', 1, false, false],
    ]);
  });

  it('a call that ended in an infrastructure failure (an idle timeout here) marks its sequence', () => {
    const j = journal();
    j.start('R1', config(['agent cheap']));
    j.call('R1', 'k1', 'cheap', j.usage({ inputTokens: 1, outputTokens: 1, costUsd: 0.01 }));
    j.finish('R1', 0);
    j.start('R2', config(['agent cheap']));
    j.call('R2', 'k2', 'cheap', j.usage({ inputTokens: 1, outputTokens: 1, costUsd: 0.01 }), 'worker', 'idle-timeout');
    j.finish('R2', 1);
    expect(routingSequences(j.records).map((s) => [s.run, s.infrastructure])).toEqual([['R1', false], ['R2', true]]);
  });

  it('runs without profiles are no evidence', () => {
    const j = journal();
    const plain = parseConfig('mode goal\naccept t true\nagent claude\n', 'yoke.conf', LIFECYCLE_REGISTRY).config as Config;
    j.start('R1', plain);
    j.call('R1', 'k1', 'cheap', j.usage({ costUsd: 0.01 }));
    j.finish('R1', 0);
    expect(routingSequences(j.records)).toEqual([]);
  });
});
