// machines/lifecycles/registry.ts: every descriptor is complete and agrees with its machine and with
// the shipped canon/ — its prompt and init files exist, its yoke.conf template names it, the roles it
// declares are exactly the roles its machine calls, and the plan file and unit it declares are the
// ones its machine writes into prompts and commit messages.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initialTransition, transition } from 'xstate';
import { describe, expect, it } from 'vitest';
import { AGENT_ROLES, LIFECYCLE_FEATURES } from '../../../config/lifecycle-catalog.js';
import { parseConfig } from '../../../config/parse-config.js';
import { modeSchema, type Config } from '../../../config/types.js';
import type { MachineEvent } from '../../../machines/effect-events.js';
import type { EffectRequest } from '../../../machines/effects.js';
import type { LifecycleDescriptor } from '../../../machines/lifecycles/lifecycle-descriptor.js';
import { LIFECYCLE_REGISTRY, LIFECYCLES, lifecycleNamed } from '../../../machines/lifecycles/registry.js';
import { repoRoot } from '../../support/yoke-process.js';
import { requestsOf } from '../support/loop-driver.js';
import { replayAll } from '../support/replay-paths.js';
import { serializeWork, transitionPaths } from '../support/work-graph.js';
import { ACCEPTANCE_SAMPLES, ITERATION_SAMPLES, SAGA_SAMPLES, VERDICT_SAMPLES } from '../support/work-samples.js';

const CANON = join(repoRoot, 'canon');
const LOOP_DIR = '/project/.loop';

/** A small config of `lifecycle`'s mode: two passes, two chunks, a guard, a commit after every passing pass. */
function smallConfig(lifecycle: LifecycleDescriptor): Config {
  const lines = [`mode ${lifecycle.name}`, 'agent cmd ./agent.sh', 'max-iterations 2', 'guard tests true', 'commit each'];
  if (lifecycle.features.includes('chunks')) lines.push('max-chunks 2');
  if (lifecycle.features.includes('judged')) lines.push('max-judge-failures 1');
  if (lifecycle.features.includes('acceptance')) lines.push('accept shipped true');
  const { config, issues } = parseConfig(`${lines.join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
  if (!config || issues.length > 0) throw new Error(`${lifecycle.name}: the test config does not parse cleanly: ${JSON.stringify(issues)}`);
  return config;
}

/** A canon reader that remembers what it was asked for and marks each template with `{{planFile}}`. */
function recordingCanon(): { read: (path: string) => string; paths: string[] } {
  const paths: string[] = [];
  return { paths, read: (path) => (paths.push(path), `[${path}] plan={{planFile}}\n`) };
}

/** Every request the machine emits on any path of its bounded graph (sample outcomes of every effect). */
function emittedRequests(lifecycle: LifecycleDescriptor, input: unknown): EffectRequest[] {
  const samples = { ...ITERATION_SAMPLES, ...ACCEPTANCE_SAMPLES, ...VERDICT_SAMPLES, ...SAGA_SAMPLES };
  const { paths } = transitionPaths(lifecycle.machine, { input: input as never, samples, serialize: serializeWork });
  const [start, actions] = initialTransition(lifecycle.machine, input);
  const found = requestsOf(actions);
  replayAll<MachineEvent, typeof start>(paths, start, (snapshot, path) => {
    const [next, emitted] = transition(lifecycle.machine, snapshot, path[path.length - 1] as MachineEvent);
    found.push(...requestsOf(emitted));
    return next;
  });
  return found;
}

describe('the lifecycle registry', () => {
  it('lists each lifecycle once, under a name `mode` accepts; the by-name table and lookup agree with it', () => {
    const names = LIFECYCLE_REGISTRY.map((lifecycle) => lifecycle.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(modeSchema.safeParse(name).success).toBe(true);
      expect(lifecycleNamed(name)).toBe(LIFECYCLES[name]);
    }
    expect(Object.keys(LIFECYCLES)).toEqual(names);
    // a name read from a file never finds an Object member
    expect(lifecycleNamed('constructor')).toBeUndefined();
    expect(lifecycleNamed('__proto__')).toBeUndefined();
  });
});

describe.each(LIFECYCLE_REGISTRY.map((lifecycle) => [lifecycle.name, lifecycle] as const))('the %s descriptor', (name, lifecycle) => {
  it('is complete: its machine is named after it, a version, a one-line summary, a unit, a plan file, known features', () => {
    expect(lifecycle.machine.id).toBe(name);
    expect(Number.isInteger(lifecycle.version) && lifecycle.version > 0).toBe(true);
    expect(lifecycle.summary).toMatch(/^\S.*\S$/);
    expect(lifecycle.summary).not.toContain('\n');
    expect(lifecycle.unit).toMatch(/^[a-z]+$/);
    expect(lifecycle.planFile).toMatch(/^[a-z][a-z0-9-]*\.[a-z]+$/);
    for (const feature of lifecycle.features) expect(LIFECYCLE_FEATURES).toContain(feature);
  });

  it('declares the worker first and a prompt for every role it has, and no other', () => {
    expect(lifecycle.roles[0]).toBe('worker');
    expect(lifecycle.roles).toEqual(AGENT_ROLES.filter((role) => lifecycle.prompts[role] !== undefined));
    for (const role of lifecycle.roles) {
      const files = lifecycle.prompts[role] ?? [];
      expect(files.length, `${role} prompt`).toBeGreaterThan(0);
      for (const file of files) expect(existsSync(join(CANON, file)), `canon/${file}`).toBe(true);
    }
    const config = smallConfig(lifecycle);
    for (const role of lifecycle.rolesCalled(config)) expect(lifecycle.roles).toContain(role);
  });

  it('has init templates in canon/: its own yoke.conf in canon/init/<mode>/ naming it, the plan file, every spec file', () => {
    const { files, spec } = lifecycle.init;
    for (const path of Object.values(files)) expect(existsSync(join(CANON, path)), `canon/${path}`).toBe(true);
    expect(files['yoke.conf']).toBe(`init/${name}/yoke.conf`);
    const conf = readFileSync(join(CANON, files['yoke.conf'] ?? ''), 'utf8');
    const { config, issues } = parseConfig(conf, 'yoke.conf', LIFECYCLE_REGISTRY);
    expect(issues).toEqual([]);
    expect(config?.mode).toBe(name);
    expect(Object.keys(files)).toContain(lifecycle.planFile);
    for (const file of spec) expect(Object.keys(files)).toContain(file);
    expect(spec).toContain('yoke.conf');
  });

  it('builds the run input from the config, its prompts read through the caller\'s canon reader, and its spec files', () => {
    const config = smallConfig(lifecycle);
    const canon = recordingCanon();
    const input = lifecycle.input(config, canon.read, LOOP_DIR);
    expect(input.config).toBe(config);
    expect(input.loopDir).toBe(LOOP_DIR);
    expect(input.specFiles).toEqual(lifecycle.init.spec);
    expect(input.workerPrompt).toBe((lifecycle.prompts.worker).map((file) => `[${file}] plan={{planFile}}\n`).join(''));
    expect(input.judgePrompt !== undefined).toBe(lifecycle.roles.includes('judge'));
    expect(input.scoperPrompt !== undefined).toBe(lifecycle.roles.includes('scoper'));
    for (const path of canon.paths) expect(existsSync(join(CANON, path)), `canon/${path}`).toBe(true);
  });

  it('calls exactly its roles, gives the worker its plan file, and words commits with its unit', () => {
    const config = smallConfig(lifecycle);
    // A lifecycle with files of its own (stories: prd.yaml) gets its init template's, read from canon/.
    const ownFile = (file: string): string | null => {
      const path = lifecycle.init.files[file];
      return path === undefined ? null : readFileSync(join(CANON, path), 'utf8');
    };
    const requests = emittedRequests(lifecycle, lifecycle.input(config, recordingCanon().read, LOOP_DIR, ownFile));
    const spawns = requests.filter((request): request is Extract<EffectRequest, { kind: 'agent.spawn' }> => request.kind === 'agent.spawn');
    expect(new Set(spawns.map((spawn) => spawn.params.role))).toEqual(new Set(lifecycle.rolesCalled(config)));
    for (const spawn of spawns.filter((s) => s.params.role === 'worker')) expect(spawn.params.prompt).toContain(`plan=${lifecycle.planFile}\n`);
    const messages = requests.flatMap((request) => (request.kind === 'commit.create' || request.kind === 'story.pass' ? [request.params.message] : []));
    // A story's commit is `story.pass`, past its checks and a clock read this generic responder does
    // not answer; tests/e2e/stories.test.ts proves its `feat(<id>): <title>` commits on the bundle.
    if (!lifecycle.validate) expect(messages.length).toBeGreaterThan(0);
    // A story lands as `feat(<id>): <title>` (DESIGN §8); every other unit as `yoke: <unit> N`.
    for (const message of messages) expect(message).toMatch(lifecycle.validate ? /^feat\([A-Za-z0-9_-]+\): \S/ : new RegExp(`^yoke: (${name} done after )?${lifecycle.unit} \\d+$`));
  });
});
