// The executed paths have teeth: a runner whose effects or machine misbehave fails at the first
// step where the real world or the real state leaves the path (each run stops at its first failure).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { HandlerTable } from '../../effects/handler.js';
import { handlers } from '../../effects/registry.js';
import { LIFECYCLES, type Lifecycle } from '../../machines/lifecycles/registry.js';
import { loopMachine } from '../../machines/lifecycles/loop.js';
import { makeTemplate, removeWorld, scratchRoot } from './support/model-world.js';
import { BRUTE_MODELS, LOOP_MODELS } from './support/path-models.js';
import { STORIES_MODELS } from './support/stories-models.js';
import { runPathModel, type ExecutionModel } from './support/run-path-models.js';

const scratch = scratchRoot('yoke-model-broken-');
afterAll(() => removeWorld(scratch));

async function firstFailure(machine: 'loop' | 'brute' | 'stories', model: ExecutionModel | undefined, runs: { machine?: Lifecycle['machine']; handlers?: HandlerTable }): Promise<string> {
  if (!model) throw new Error('no such model');
  const template = makeTemplate(scratch, machine, model.files);
  // the world's wall clock, as in the path suites (a rate-limited call ends at its sample's moment)
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    const result = await runPathModel(LIFECYCLES[machine] as Lifecycle, { ...model, histories: false }, {
      template, scratch, planFile: machine === 'stories' ? null : 'plan.md', runs, firstFailureOnly: true, setClock: (now) => vi.setSystemTime(now),
    });
    return result.report.failures[0] ?? '(no failure)';
  } finally {
    vi.useRealTimers();
    removeWorld(template.root);
  }
}

describe('a broken runner fails the executed paths', () => {
  it('a spec restore that restores nothing', async () => {
    const broken = { ...handlers, 'spec.restore': { ...handlers['spec.restore'], execute: () => Promise.resolve({ restored: [], displaced: {} }) } };
    expect(await firstFailure('loop', LOOP_MODELS.checks, { handlers: broken })).toMatch(/was not restored to its backup|still holds what the worker scribbled/);
  }, 120_000);

  it('a notes reset that leaves the worker\'s DONE in place', async () => {
    const broken = { ...handlers, 'notes.reset': { ...handlers['notes.reset'], execute: () => Promise.resolve({ changed: false }) } };
    expect(await firstFailure('brute', BRUTE_MODELS.patient, { handlers: broken })).toMatch(/notes\.md starts with "STATUS: DONE" after the reset/);
  }, 120_000);

  it('a machine that runs the checks past a boundary violation', async () => {
    const ignoresBoundary = loopMachine.provide({ guards: { boundaryBroken: () => false } });
    expect(await firstFailure('loop', LOOP_MODELS.checks, { machine: ignoresBoundary })).toMatch(/^(the runner started check\.run|the real machine is at)/);
  }, 120_000);

  it('an agent call that loses the retry-after its agent reported', async () => {
    const spawn = handlers['agent.spawn'];
    const broken = { ...handlers, 'agent.spawn': { ...spawn, execute: async (...args: Parameters<typeof spawn.execute>) => ({ ...(await spawn.execute(...args)), retryAfterMs: null }) } };
    expect(await firstFailure('loop', LOOP_MODELS.setbacks, { handlers: broken })).toMatch(/^AGENT_EXITED outcome is .*"rate-limited",null,null,.*expected .*"rate-limited",null,1,/);
  }, 120_000);

  it('a story pass that leaves the story\'s decision entry out of DECISIONS.md and its commit', async () => {
    const pass = handlers['story.pass'];
    const broken = { ...handlers, 'story.pass': { ...pass, execute: (params: Parameters<typeof pass.execute>[0], ctx: Parameters<typeof pass.execute>[1]) => pass.execute({ ...params, decision: '' }, ctx) } };
    expect(await firstFailure('stories', STORIES_MODELS.context, { handlers: broken })).toMatch(/DECISIONS\.md does not end with the story's one entry/);
  }, 120_000);

  it('a story pass whose passes: true does not stay in prd.yaml', async () => {
    const pass = handlers['story.pass'];
    const forgets = async (params: Parameters<typeof pass.execute>[0], ctx: Parameters<typeof pass.execute>[1]) => {
      const before = readFileSync(join(ctx.loopDir, 'prd.yaml'));
      const result = await pass.execute(params, ctx);
      writeFileSync(join(ctx.loopDir, 'prd.yaml'), before);
      return result;
    };
    const broken = { ...handlers, 'story.pass': { ...pass, execute: forgets } };
    expect(await firstFailure('stories', STORIES_MODELS.blockedStop, { handlers: broken })).toMatch(/prd\.yaml is not the blob yoke journaled/);
  }, 120_000);

  it('a machine that takes an authentication failure for a call that worked', async () => {
    const ignoresAuth = loopMachine.provide({ guards: { agentAuthFailed: () => false } });
    expect(await firstFailure('loop', LOOP_MODELS.setbacks, { machine: ignoresAuth })).toMatch(/^the real machine is at \{"state":"readingNotes".*\n {2}the path's machine is at \{"state":"workerAgentHold"/);
  }, 120_000);
});
