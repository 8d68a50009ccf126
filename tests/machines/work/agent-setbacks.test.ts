// Rate limits and authentication failures: "events in → effects out" on the loop, brute and saga machines.
import { describe, expect, it } from 'vitest';
import { transition } from 'xstate';
import { loopMachine } from '../../../machines/lifecycles/loop.js';
import { bruteMachine } from '../../../machines/lifecycles/brute.js';
import { RATE_LIMIT_MAX_WAIT_MS, rateLimitWaitMs } from '../../../machines/work/agent-setbacks.js';
import type { AgentClassification, EffectRequest, EffectResult } from '../../../machines/effects.js';
import { drive, makeAcceptanceResult, makeCheckResult, makeConfig, makeInput, requestsOf, requestsOfKind, type Responder } from '../support/loop-driver.js';

const ENDED_AT = 1_750_000_000_000;

function agentResult(classification: AgentClassification, extra: Partial<EffectResult<'agent.spawn'>> = {}): EffectResult<'agent.spawn'> {
  return { outcome: 'exited', exitCode: classification === 'ok' ? 0 : 1, signal: null, durationMs: 5, usage: null, transcript: 't.log', classification, detail: classification, endedAt: ENDED_AT, ...extra };
}

/** Answers everything like a healthy world; agent calls by role take their classification from `script` in order. */
function world(script: Partial<Record<'worker' | 'judge', Array<AgentClassification | Partial<EffectResult<'agent.spawn'>>>>>): Responder {
  let looks = 0;
  const left = { worker: [...(script.worker ?? [])], judge: [...(script.judge ?? [])] };
  return (r: EffectRequest) => {
    switch (r.kind) {
      case 'agent.spawn': {
        const next = r.params.role === 'scoper' ? undefined : left[r.params.role].shift();
        if (next === undefined) return agentResult('ok');
        return typeof next === 'string' ? agentResult(next) : agentResult(next.classification ?? 'ok', next);
      }
      case 'baseline.capture': return { specFiles: { 'plan.md': 'sha' }, tree: 'tree-0' };
      case 'spec.restore': return { restored: [], displaced: {} };
      case 'notes.read': return { firstLine: 'STATUS: DONE' };
      case 'boundary.scan': return { changed: [] };
      case 'acceptance.check': return makeAcceptanceResult(r.params);
      case 'check.run': return makeCheckResult(0, 'ok');
      case 'file.write': return { sha256: 'f'.repeat(64) };
      case 'hook.fire': return { started: true };
      case 'file.inspect': return r.params.file === 'verdict.md' ? { exists: true, firstLine: 'VERDICT: PASS', blank: false, stamp: `stamp-${(looks += 1)}` } : { exists: false, firstLine: null, blank: true, stamp: null };
      case 'file.read': return { content: null };
      case 'notes.reset': return { changed: true };
      case 'clock.read': return { now: ENDED_AT };
      case 'wait.until': return { waitedMs: r.params.until - ENDED_AT };
      case 'commit.create': return { sha: null };
      case 'protect.scan': return { files: [] };
      case 'protect.restore': return { restored: [] };
      case 'story.pass': return { sha: null, prdBlob: 'b'.repeat(64) };
      case 'context.read': return { block: '', files: [], guard: { 'PROJECT.md': null, 'DECISIONS.md': null } };
      case 'worktree.create': case 'candidate.commit': case 'candidate.rebase': case 'candidate.reject': case 'story.land': case 'worktree.remove':
        throw new Error(`only parallel stories request ${r.kind}`);
    }
  };
}

describe('rate limits', () => {
  it('a rate-limited worker call waits (30 s, then 60 s, …) and is made again for the same iteration, spending no iteration and no attempt', () => {
    const input = makeInput(makeConfig(['max-iterations 1', 'budget attempts 1']));
    const { requests, output, snapshot } = drive(input, world({ worker: ['rate-limited', 'rate-limited', 'ok'] }));
    expect(output).toEqual({ exitCode: 0, reason: 'done', iterations: 1 });
    expect(requestsOfKind(requests, 'wait.until').map((r) => r.params.until - ENDED_AT)).toEqual([30_000, 60_000]);
    expect(requestsOfKind(requests, 'agent.spawn').map((r) => r.params.iteration)).toEqual([1, 1, 1]);
    // each retry restores the spec first, like any new worker call
    const kinds = requests.map((r) => r.kind).filter((k) => k !== 'hook.fire');
    expect(kinds.slice(0, 8)).toEqual(['baseline.capture', 'spec.restore', 'agent.spawn', 'wait.until', 'spec.restore', 'agent.spawn', 'wait.until', 'spec.restore']);
    expect(snapshot.context).toMatchObject({ rateLimits: 0, agentCalls: 1, spent: { attempts: 1 } });
  });

  it('the wait the API asked for is honored, and rate-limit-wait sets the first backoff', () => {
    const asked = drive(makeInput(makeConfig(['max-iterations 1'])), world({ worker: [{ classification: 'rate-limited', retryAfterMs: 7_000 }] }));
    expect(requestsOfKind(asked.requests, 'wait.until').map((r) => r.params.until - ENDED_AT)).toEqual([7_000]);
    const configured = makeConfig(['max-iterations 1']);
    const short = drive(makeInput({ ...configured, rateLimitWaitMs: 1_000 }), world({ worker: ['rate-limited', 'rate-limited'] }));
    expect(requestsOfKind(short.requests, 'wait.until').map((r) => r.params.until - ENDED_AT)).toEqual([1_000, 2_000]);
  });

  it('backoff doubles up to 15 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => rateLimitWaitMs(n, null, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, RATE_LIMIT_MAX_WAIT_MS, RATE_LIMIT_MAX_WAIT_MS]);
  });

  it('a rate-limited judge is asked again after the wait; its verdict is read only from the call that worked', () => {
    const config = { ...makeConfig(['max-iterations 2']), mode: 'brute' as const };
    const input = makeInput(config, { judgePrompt: 'judge {{iteration}}' });
    const { requests, output } = drive(input, world({ judge: ['rate-limited'] }), { machine: bruteMachine });
    expect(output).toEqual({ exitCode: 0, reason: 'judge-pass', iterations: 1 });
    expect(requestsOfKind(requests, 'agent.spawn').map((r) => r.params.role)).toEqual(['worker', 'judge', 'judge']);
    expect(requestsOfKind(requests, 'wait.until')).toHaveLength(1);
  });
});

describe('authentication failures', () => {
  it('an auth-error holds the run (paused, nothing requested) until AGENT_RETRY, then the same iteration goes on', () => {
    const input = makeInput(makeConfig(['max-iterations 1']));
    const held = drive(input, world({ worker: [{ classification: 'auth-error', detail: 'HTTP 401: invalid x-api-key' }] }));
    expect(held.end).toBe('stuck');
    expect(held.snapshot.hasTag('paused')).toBe(true);
    expect(held.snapshot.value).toBe('workerAgentHold');
    expect(held.snapshot.context).toMatchObject({ heldFor: 'agent:auth-error', holdDetail: 'the worker agent could not authenticate: HTTP 401: invalid x-api-key', spent: { attempts: 0 } });

    // AGENT_RETRY is what `yoke run` journals for a run held by its agent: the call is made again.
    const [after, actions] = transition(loopMachine, held.snapshot, { type: 'AGENT_RETRY' });
    expect(after.hasTag('paused')).toBe(false);
    expect(after.context).toMatchObject({ heldFor: null, holdDetail: null, iteration: 1 });
    expect(requestsOf(actions).map((r) => r.kind)).toEqual(['spec.restore']);
  });
});
