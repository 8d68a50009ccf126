// The crash/replay property (fast-check): random command sequences — worker results, guard
// results, progress, a crash after any journal record (cut at a record boundary or torn mid-line),
// kill -9 while an effect runs, SIGINT, restart — run against the real Journal, RunFold and
// driveRun (in-process, over a MemoryWorld), and compared with the pure model:
//   - the run always ends, and its replayed snapshot (state, context, output) equals the pure
//     machine folded with the world's answers, interrupted worker calls included;
//   - the requests the journal started are exactly the model's, in order;
//   - no effect is executed once its completion is durable; a `surface` effect (agent, hook) is
//     never executed twice; a commit is never made twice (reconciled by its key);
//   - every interruption is of a `surface` kind, and `yoke replay --verify`'s check agrees.
import { join } from 'node:path';
import fc from 'fast-check';
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { afterAll, describe, expect, it } from 'vitest';
import { handlers as realHandlers } from '../../effects/registry.js';
import { awaitsEvent, completionEvent, interruptionEvent, type MachineEvent } from '../../machines/effect-events.js';
import type { EffectRequest } from '../../machines/effects.js';
import { LIFECYCLES, type Lifecycle } from '../../machines/lifecycles/registry.js';
import type { LoopInput } from '../../machines/lifecycles/loop.js';
import { readJournalFile } from '../../store/journal/file/journal-file.js';
import { findRun } from '../../store/fold/journal-runs.js';
import type { JournalRecord } from '../../store/journal/record.js';
import { replayRun } from '../../store/projections/replay-steps.js';
import { verifyRun } from '../../store/projections/verify-run.js';
import { memoryLoopInput } from '../support/memory-input.js';
import { MemoryProcess, removeScratch, scratchDir } from '../support/memory-process.js';
import { initialFiles, MemoryWorld, type AgentScript } from '../support/memory-world.js';

const loop = LIFECYCLES.loop as Lifecycle;
const INPUT = memoryLoopInput(['max-iterations 3', 'no-modify vendor/', 'guard tests npm test', 'commit each', 'hook iteration-start echo start']);
const NUM_RUNS = Number(process.env.YOKE_PROPERTY_RUNS ?? 1000);
const root = scratchDir('yoke-property-');
afterAll(() => removeScratch(root));

// ---- the system under test ------------------------------------------------------------------

/** One simulated workspace: the world, its journal file, and the yoke process working on it (if any). */
class System {
  readonly world = new MemoryWorld();
  readonly violations: string[] = [];
  process: MemoryProcess;

  constructor(readonly path: string) {
    this.process = this.spawn();
  }

  /** `yoke run`: a new process folds the journal and resumes (paused before its first effect). */
  spawn(): MemoryProcess {
    this.process = new MemoryProcess(this.path, this.world, loop, INPUT, null, {
      permits: 0,
      onExecute: (kind, key, records) => {
        if (records.some((r) => r.type === 'effect.completed' && r.payload.key === key)) this.violations.push(`${kind} ${key} executed after its completion was durable`);
      },
    });
    return this.process;
  }

  get ended(): boolean {
    return this.process.state !== 'paused';
  }

  get finished(): boolean {
    return this.process.state === 'finished';
  }
}

type Model = { commands: number };
type Command = fc.AsyncCommand<Model, System>;

const whenRunning = (system: System) => !system.ended;

class ScriptAgent implements Command {
  constructor(readonly script: AgentScript) {}
  check = () => true;
  run(_model: Model, system: System): Promise<void> {
    system.world.scriptAgent(this.script);
    return Promise.resolve();
  }
  toString = () => `agent ${this.script.notes}${this.script.changed.some((p) => p.startsWith('vendor/')) ? ' +violation' : ''}${this.script.usage ? ' +usage' : ''}`;
}

class ScriptGuard implements Command {
  constructor(readonly exitCode: number) {}
  check = () => true;
  run(_model: Model, system: System): Promise<void> {
    system.world.scriptGuard(this.exitCode);
    return Promise.resolve();
  }
  toString = () => `guard exit ${this.exitCode}`;
}

class Advance implements Command {
  constructor(readonly count: number) {}
  check = () => true;
  async run(_model: Model, system: System): Promise<void> {
    if (whenRunning(system)) await system.process.advance(this.count);
  }
  toString = () => `advance ${this.count}`;
}

class CrashAfter implements Command {
  constructor(readonly records: number, readonly torn: boolean) {}
  check = () => true;
  async run(_model: Model, system: System): Promise<void> {
    if (!whenRunning(system)) return;
    system.process.armCrash(this.records, this.torn);
    await system.process.advance(Infinity);
  }
  toString = () => `${this.torn ? 'torn write of' : 'crash after'} record +${this.records}`;
}

class Kill implements Command {
  check = () => true;
  async run(_model: Model, system: System): Promise<void> {
    if (whenRunning(system)) await system.process.kill();
  }
  toString = () => 'kill -9';
}

class Interrupt implements Command {
  check = () => true;
  async run(_model: Model, system: System): Promise<void> {
    if (whenRunning(system)) await system.process.interrupt();
  }
  toString = () => 'SIGINT';
}

class Restart implements Command {
  check = () => true;
  async run(_model: Model, system: System): Promise<void> {
    if (!system.ended || system.finished) return;
    await system.spawn().advance(0);
  }
  toString = () => 'yoke run';
}

const usage = fc.option(fc.record({
  inputTokens: fc.nat(5000), outputTokens: fc.nat(2000), cacheReadTokens: fc.constant(null), cacheWriteTokens: fc.constant(null),
  costUsd: fc.option(fc.integer({ min: 0, max: 100 }).map((cents) => cents / 100)), model: fc.constant('m'),
}), { nil: null });
const agentScript = fc.record({
  notes: fc.constantFrom('DONE' as const, 'IN_PROGRESS' as const),
  changed: fc.constantFrom(['src/app.ts'], ['src/app.ts', 'vendor/lib.js'], []).map((paths) => [...paths]),
  usage,
});
const advance = fc.integer({ min: 1, max: 6 }).map((count) => new Advance(count));
const commands = [
  agentScript.map((script) => new ScriptAgent(script)),
  fc.constantFrom(0, 1).map((exitCode) => new ScriptGuard(exitCode)),
  // progress is weighted: most sequences get far into the run before the next mishap
  advance, advance, advance,
  fc.tuple(fc.integer({ min: 1, max: 14 }), fc.boolean()).map(([records, torn]) => new CrashAfter(records, torn)),
  fc.constant(new Kill()),
  fc.constant(new Interrupt()),
  fc.constant(new Restart()), fc.constant(new Restart()),
];

// ---- the pure model -------------------------------------------------------------------------

/** Fold the machine with the world's answers, interrupting each iteration's worker `interruptions` times. */
function model(world: MemoryWorld, input: LoopInput, interruptions: Map<number, number>): { requests: EffectRequest[]; snapshot: AnyMachineSnapshot } {
  const files = initialFiles();
  const requests: EffectRequest[] = [];
  const queue: EffectRequest[] = [];
  const take = (actions: ReadonlyArray<{ type: string; params?: unknown }>): void => {
    const emitted = actions.filter((a) => a.type === 'request').map((a) => a.params as EffectRequest);
    requests.push(...emitted);
    queue.push(...emitted);
  };
  const [first, actions] = initialTransition(loop.machine, input);
  let snapshot: AnyMachineSnapshot = first;
  take(actions);
  const feed = (event: MachineEvent): void => {
    const [next, more] = transition(loop.machine, snapshot, event);
    snapshot = next;
    take(more);
  };
  for (let steps = 0; queue.length > 0; steps += 1) {
    if (steps > 500) throw new Error('the model never ended');
    const request = queue.shift() as EffectRequest;
    if (request.kind === 'agent.spawn' && (interruptions.get(request.params.iteration) ?? 0) > 0) {
      interruptions.set(request.params.iteration, (interruptions.get(request.params.iteration) ?? 0) - 1);
      const event = interruptionEvent(request, 'yoke stopped while it ran');
      if (event) feed(event);
      continue;
    }
    const event = completionEvent(request, world.respond(request, files));
    if (event && awaitsEvent(request)) feed(event);
  }
  return { requests, snapshot };
}

/** Interrupted worker calls per iteration, as the journal tells them. */
function interruptionsOf(records: readonly JournalRecord[]): Map<number, number> {
  const iterationOf = new Map<string, number>();
  const counts = new Map<number, number>();
  for (const record of records) {
    if (record.type === 'effect.started' && record.payload.kind === 'agent.spawn') iterationOf.set(record.payload.key, (record.payload.params as { iteration: number }).iteration);
    if (record.type === 'event' && record.payload.event.type === 'AGENT_INTERRUPTED' && record.payload.cause) {
      const iteration = iterationOf.get(record.payload.cause) ?? -1;
      counts.set(iteration, (counts.get(iteration) ?? 0) + 1);
    }
  }
  return counts;
}

// ---- the property ---------------------------------------------------------------------------

/** Drive whatever is left to the end: restart after a crash or a signal, no more mishaps. */
async function finish(system: System): Promise<void> {
  for (let attempt = 0; !system.finished; attempt += 1) {
    if (attempt > 5) throw new Error(`the run never finished (process ${system.process.state})`);
    if (system.ended) system.spawn();
    await system.process.advance(Infinity);
  }
}

function checkRun(system: System): void {
  expect(system.violations).toEqual([]);
  const { records } = readJournalFile(system.path);
  const replayed = replayRun(records, findRun(records));
  const expected = model(system.world, INPUT, interruptionsOf(records));

  // The replayed run is the pure model's run.
  expect(replayed.fold.snapshot.value).toEqual(expected.snapshot.value);
  expect(replayed.fold.snapshot.context).toEqual(expected.snapshot.context);
  expect(replayed.fold.snapshot.output).toEqual(expected.snapshot.output);
  const finished = records.find((r) => r.type === 'run.finished');
  expect(finished?.payload).toMatchObject({ exitCode: (expected.snapshot.output as { exitCode: number }).exitCode });
  const started = new Map<string, EffectRequest>();
  for (const r of records) if (r.type === 'effect.started' && !started.has(r.payload.key)) started.set(r.payload.key, { kind: r.payload.kind, params: r.payload.params } as EffectRequest);
  expect([...started.values()]).toEqual(expected.requests);

  // Policies: surface effects and commits ran at most once per key; only surface kinds were interrupted.
  const executions = new Map<string, number>();
  for (const execution of system.world.executions) executions.set(execution.key, (executions.get(execution.key) ?? 0) + 1);
  for (const [key, request] of started) {
    const policy = realHandlers[request.kind].policy;
    if (policy !== 'retry') expect(executions.get(key) ?? 0, `${request.kind} ${key}`).toBeLessThanOrEqual(1);
  }
  for (const r of records) {
    if (r.type === 'effect.interrupted') expect(realHandlers[started.get(r.payload.key)?.kind ?? 'notes.read'].policy).toBe('surface');
  }
  expect(verifyRun(records, findRun(records)).status).toBe('verified');
}

describe('crash/replay property', () => {
  it(`random worker/guard results, crashes (clean and torn), kill -9, SIGINT and restarts: the run ends as the pure model says (${NUM_RUNS} runs)`, async () => {
    let index = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 48, size: 'max' }), async (sequence) => {
        index += 1;
        const system = new System(join(root, `run-${index}.jsonl`));
        await system.process.advance(0);
        await fc.asyncModelRun(() => ({ model: { commands: 0 }, real: system }), sequence);
        await finish(system);
        checkRun(system);
      }),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);
});
