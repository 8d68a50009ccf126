// The executed paths have teeth: a runner whose effects or machine misbehave fails at the first
// step where the real world or the real state leaves the path (each run stops at its first failure).
import { afterAll, describe, expect, it } from 'vitest';
import type { HandlerTable } from '../../effects/handler.js';
import { handlers } from '../../effects/registry.js';
import { LIFECYCLES, type Lifecycle } from '../../machines/lifecycles.js';
import { loopMachine } from '../../machines/loop.js';
import { makeTemplate, removeWorld, scratchRoot } from './support/model-world.js';
import { BRUTE_MODELS, LOOP_MODELS } from './support/path-models.js';
import { runPathModel, type ExecutionModel } from './support/run-path-models.js';

const scratch = scratchRoot('yoke-model-broken-');
afterAll(() => removeWorld(scratch));

async function firstFailure(machine: 'loop' | 'brute', model: ExecutionModel | undefined, runs: { machine?: Lifecycle['machine']; handlers?: HandlerTable }): Promise<string> {
  if (!model) throw new Error('no such model');
  const template = makeTemplate(scratch, machine);
  const result = await runPathModel(LIFECYCLES[machine] as Lifecycle, { ...model, histories: false }, { template, scratch, planFile: 'plan.md', runs, firstFailureOnly: true });
  removeWorld(template.root);
  return result.report.failures[0] ?? '(no failure)';
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
});
