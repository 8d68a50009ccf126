// Executes a world trie (support/world-plan.ts) against the real runner: the real journal writer, RunFold,
// driveRun and handler table, in real git workspaces, with the scripted agent and checks.
//
// Depth first: the run goes down a chain of single-child nodes in one drive; where the trie
// branches, the runner is stopped (SIGINT, as `yoke run` would be) right after the branch node's
// event, the world is copied once per further child, and each copy resumes with a fresh fold of its
// journal (as `yoke run` after an interruption). After every journaled event the step is checked
// (support/step-checks.ts). Outside inputs are journaled the way the CLI does it while no runner
// works (an edit of prd.yaml: the file is written, then `yoke run`'s own validation and change
// event); an interrupted agent call is a SIGINT while the agent hangs, and the resumed runner
// journals the interruption (`surface` policy). A run held for its agent (an authentication
// failure) pauses by itself; the next drive journals AGENT_RETRY on its own, as `yoke run` does.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ulid } from 'ulid';
import { settleHooks } from '../../../effects/handlers/hook-fire.js';
import { putBlob } from '../../../effects/fs/blob-store.js';
import type { HandlerTable } from '../../../effects/handler.js';
import { handlers as realHandlers } from '../../../effects/registry.js';
import type { MachineEvent } from '../../../machines/effect-events.js';
import type { EffectRequest } from '../../../machines/effects.js';
import { lifecycleNamed, type Lifecycle } from '../../../machines/lifecycles/registry.js';
import type { WorkContext, WorkInput } from '../../../machines/work/work-context.js';
import { foldRun, runStarts } from '../../../store/fold/journal-runs.js';
import { openFileJournal } from '../../../store/journal/file/open-file-journal.js';
import type { JournalWriter } from '../../../store/journal/journal-writer.js';
import type { JournalRecord } from '../../../store/journal/record.js';
import { RunFold } from '../../../store/fold/run-fold.js';
import { driveRun, type DriveResult } from '../../../store/fold/runner.js';
import { cloneWorld, copyJournal, removeWorld, type ModelWorld } from './model-world.js';
import { eventProblem, fileProblems, projection, requestProblem } from './step-checks.js';
import { describeNode, type PlanNode } from './world-plan.js';
import { prepareStep } from './world-script.js';

/** How to execute one model's trie. */
export interface ExecutionOptions {
  lifecycle: Lifecycle;
  /** the input journaled in run.started (the model's config with the scripted agent and checks) */
  input: WorkInput;
  /** the committed template world to start from, and where copies go */
  template: ModelWorld;
  scratch: string;
  /** the plan file the worker scribbles on besides protocol.md (restored by yoke) */
  planFile: string | null;
  /** set the wall clock the `clock.read` handler will read (a CLOCK_READ sample fixes it) */
  setClock?: (now: number) => void;
  /** what actually runs (default: the lifecycle's machine and the real handler table); the paths stay those of `lifecycle` */
  runs?: { machine?: Lifecycle['machine']; handlers?: HandlerTable };
  /** stop exploring at the first failure (to show that a broken runner is caught, cheaply) */
  firstFailureOnly?: boolean;
}

/** What an execution did and found. */
export interface ExecutionReport {
  failures: string[];
  warnings: string[];
  drives: number;
  copies: number;
}

const json = (value: unknown): string => JSON.stringify(value);

/** Steps the outside world journals while no runner works (the next drive is a resume). */
const outside = (node: PlanNode): boolean => node.step.kind === 'external' || node.step.kind === 'prd-edit';

class Executor {
  readonly report: ExecutionReport = { failures: [], warnings: [], drives: 0, copies: 0 };
  private run = '';

  constructor(private readonly o: ExecutionOptions) {}

  private async open(world: ModelWorld): Promise<{ journal: JournalWriter; fold: RunFold }> {
    const journal = await openFileJournal(world.journalPath, { warn: (message) => this.report.warnings.push(message) });
    const started = runStarts(journal.records)[0];
    if (!started) throw new Error('no run.started');
    if (!this.o.runs?.machine) return { journal, fold: foldRun(journal.records, started) };
    const fold = new RunFold(this.o.runs.machine, started);
    for (const record of journal.records) if (record.seq > started.seq && record.run === started.run) fold.apply(record);
    return { journal, fold };
  }

  private stage(journal: JournalWriter, draft: { type: string; payload: unknown }): JournalRecord {
    return journal.stage({ ...draft, run: this.run, machine: this.o.lifecycle.name, mv: this.o.lifecycle.version } as never);
  }

  /** Start the run in a copy of the template and execute every path of the trie. */
  async execute(root: PlanNode): Promise<ExecutionReport> {
    const world = cloneWorld(this.o.template, this.o.scratch);
    try {
      const journal = await openFileJournal(world.journalPath, { warn: (message) => this.report.warnings.push(message) });
      this.run = ulid();
      this.stage(journal, { type: 'run.started', payload: { mode: this.o.input.config.mode, input: this.o.input, argv: ['run'] } });
      await journal.close();
      root.executed = true;
      await this.explore(root, world);
    } finally {
      removeWorld(world.root);
    }
    return this.report;
  }

  /** The world stands right after `node`'s event, with no runner working: take every child. */
  private async explore(node: PlanNode, world: ModelWorld): Promise<void> {
    const children = [...node.children.values()];
    for (const [i, child] of children.entries()) {
      if (this.o.firstFailureOnly === true && this.report.failures.length > 0) return;
      const last = i === children.length - 1;
      // An outside input that ends a path touches nothing but the journal: a copy of the journal is its world.
      const journalOnly = !last && child.step.kind === 'external' && child.children.size === 0;
      const here = last ? world : journalOnly ? copyJournal(world, this.o.scratch) : cloneWorld(world, this.o.scratch);
      if (!last) this.report.copies += 1;
      try {
        const reached = await this.chain(node, child, here);
        if (reached) await this.explore(reached, here);
      } finally {
        if (!last) removeWorld(here.root);
      }
    }
  }

  private fail(node: PlanNode, problem: string): void {
    this.report.failures.push(`${problem}\n  at step ${describeNode(node)}`);
  }

  private prepare(node: PlanNode, world: ModelWorld): void {
    // the wall clock the step reads: a CLOCK_READ's reading, or the moment an agent's call ends (its `endedAt`)
    const now = node.step.kind === 'clock' ? node.step.now : node.step.kind === 'agent' ? node.step.action.exit.endedAt : undefined;
    if (now !== undefined) {
      if (!this.o.setClock) throw new Error(`${node.name} needs setClock`);
      this.o.setClock(now);
    }
    prepareStep(world, node.step, this.o.planFile);
  }

  /** Check the step into `node` once its event is journaled and folded. */
  private checkStep(node: PlanNode, record: Extract<JournalRecord, { type: 'event' }>, fold: RunFold, world: ModelWorld): boolean {
    const real = record.payload.event as MachineEvent;
    const snapshot = fold.snapshot;
    // the request as the real run journaled it (its params carry real blob hashes, file names…)
    const answered = record.payload.cause ? (fold.effects.get(record.payload.cause)?.request.request ?? null) : null;
    const problems = [
      node.event ? eventProblem(node.event, real) : 'an event at the start',
      json(projection(snapshot)) === json(projection(node.snapshot)) ? null : `the real machine is at ${json(projection(snapshot))}\n  the path's machine is at ${json(projection(node.snapshot))}`,
      ...fileProblems(world, node, answered, real, record.payload.cause, this.run),
    ].filter((p): p is string => p !== null);
    for (const problem of problems) this.fail(node, problem);
    if (problems.length > 0) return false;
    node.real = real;
    node.executed = true;
    return true;
  }

  /**
   * The user leaves `text` in .loop/prd.yaml; `yoke run` validates it and journals what changed
   * (the lifecycle's `resumeEdit`, which also sets a reopened story back to `passes: false`; its
   * writes and blobs are applied first, as store/session/begin-run.ts does).
   * Null (a failure reported) when the file is refused or the edit changes nothing.
   */
  private async editPrd(node: PlanNode, text: string, world: ModelWorld, fold: RunFold): Promise<MachineEvent | null> {
    writeFileSync(join(world.loopDir, 'prd.yaml'), text);
    const read = (name: string): string | null => (existsSync(join(world.loopDir, name)) ? readFileSync(join(world.loopDir, name), 'utf8') : null);
    const errors = (lifecycleNamed(this.o.lifecycle.name)?.validate?.(read) ?? []).filter((issue) => issue.severity === 'error');
    if (errors.length > 0) {
      this.fail(node, `yoke run refuses the edited prd.yaml: ${json(errors)}`);
      return null;
    }
    const edit = lifecycleNamed(this.o.lifecycle.name)?.resumeEdit?.(fold.snapshot.context as WorkContext, read) ?? null;
    if (edit === null) {
      this.fail(node, 'the edit of prd.yaml changes nothing the run knows: `yoke run` journals no STORIES_CHANGED');
      return null;
    }
    for (const [name, content] of Object.entries(edit.writes)) writeFileSync(join(world.loopDir, name), content);
    for (const content of edit.blobs) await putBlob(world.loopDir, Buffer.from(content));
    return edit.event;
  }

  /**
   * From `from` (the world stands after it), take `first` and then every only child, in as few
   * drives as the path needs. Returns the node where the trie branches or ends, or null on a failure.
   */
  private async chain(from: PlanNode, first: PlanNode, world: ModelWorld): Promise<PlanNode | null> {
    let cursor = from;
    let next: PlanNode | null = first;
    let pending: EffectRequest[] = [...from.pending];
    let agentHangs = false;
    const onlyChild = (node: PlanNode): PlanNode | null => (node.children.size === 1 ? ([...node.children.values()][0] as PlanNode) : null);

    while (next) {
      const step: PlanNode = next;
      if (outside(step)) {
        // `yoke budget …` / `yoke run --max-iterations` / `yoke run` after prd.yaml was edited: journaled while no runner works
        const { journal, fold } = await this.open(world);
        const event = step.step.kind === 'prd-edit' ? await this.editPrd(step, step.step.text, world, fold) : step.event;
        if (event === null) {
          await journal.close();
          return null;
        }
        const record = this.stage(journal, { type: 'event', payload: { cause: null, event } }) as Extract<JournalRecord, { type: 'event' }>;
        fold.apply(record);
        await journal.close();
        if (!this.checkStep(step, record, fold, world)) return null;
        cursor = step;
        pending = [...pending, ...step.emitted];
        next = onlyChild(step);
        continue;
      }
      if (!agentHangs) this.prepare(step, world);

      const { journal, fold } = await this.open(world);
      // anything journaled after run.started means this is `yoke run` resuming the run
      if (journal.records.length > 1) journal.stage({ type: 'run.resumed', run: this.run, machine: this.o.lifecycle.name, mv: this.o.lifecycle.version, payload: { pid: process.pid } });
      await journal.flush();
      const controller = new AbortController();
      let failed = false;
      let interruptedAgent = false;
      const fail = (node: PlanNode, problem: string): void => {
        this.fail(node, problem);
        failed = true;
        controller.abort('SIGINT');
      };
      const onRecord = (record: JournalRecord): void => {
        if (failed) return;
        const expected: PlanNode | null = next;
        switch (record.type) {
          case 'effect.started': {
            const problem = requestProblem(pending.shift(), record.payload.kind, record.payload.params);
            if (problem) fail(expected ?? cursor, problem);
            return;
          }
          case 'process.spawned':
            if (expected?.step.kind === 'interrupt' && !agentHangs) {
              agentHangs = true;
              interruptedAgent = true;
              // A SIGINT arrives on a later turn of the event loop, never inside the synchronous
              // record callback (runInProcessGroup listens for the abort only after onSpawn returns).
              setImmediate(() => controller.abort('SIGINT'));
            }
            return;
          case 'event': {
            if (!expected) return fail(cursor, `${record.payload.event.type} journaled after the path ended`);
            if (pending.length > 0) return fail(expected, `${record.payload.event.type} was fed before ${pending.map((r) => r.kind).join(', ')} ran`);
            if (!this.checkStep(expected, record, fold, world)) {
              failed = true;
              controller.abort('SIGINT');
              return;
            }
            agentHangs = false;
            cursor = expected;
            pending = [...expected.emitted];
            const only = onlyChild(expected);
            next = only;
            if (only && !outside(only) && only.step.kind !== 'resume') {
              this.prepare(only, world);
              return;
            }
            // Stop here (a branch, the path's end, an outside input or a resume next), unless the run ends or holds by itself.
            const holds = fold.active && fold.snapshot.hasTag('paused') && fold.outstanding.length === 0;
            if (fold.active && !holds) controller.abort('SIGINT');
            return;
          }
          case 'run.finished': {
            const output = cursor.snapshot.output as { exitCode: number; reason: string } | undefined;
            if (output?.exitCode !== record.payload.exitCode || output.reason !== record.payload.reason) {
              fail(cursor, `run.finished says exit ${record.payload.exitCode} (${record.payload.reason}), the path ends with ${json(output)}`);
            }
            return;
          }
          default:
            return;
        }
      };
      this.report.drives += 1;
      let drive: DriveResult | null = null;
      try {
        drive = await driveRun(fold, {
          journal, lifecycle: this.o.lifecycle, handlers: this.o.runs?.handlers ?? realHandlers, root: world.project, loopDir: world.loopDir,
          output: { stdout: () => undefined, stderr: () => undefined },
          warn: (message) => this.report.warnings.push(message),
          signal: controller.signal,
          onRecord,
        });
      } catch (error) {
        this.fail(next ?? cursor, `the runner threw: ${error instanceof Error ? error.message : String(error)}`);
        failed = true;
      } finally {
        await journal.close();
        await settleHooks(10_000); // as `yoke run` does before it exits: hooks are fire-and-forget
      }
      if (failed) return null;
      if (interruptedAgent) continue; // resume: the runner journals the interruption
      if (next === step) {
        this.fail(step, 'the runner stopped before journaling this step');
        return null;
      }
      // a run held for its agent: the next drive (`yoke run` again) journals AGENT_RETRY itself
      if (next?.step.kind === 'resume') {
        const heldFor = (cursor.snapshot.context as WorkContext).heldFor;
        if (drive?.kind !== 'paused' || drive.reason !== heldFor) {
          this.fail(next, `the run was to be held for its agent (${json(heldFor)}), but the runner ended its drive with ${json(drive)}`);
          return null;
        }
        continue;
      }
      if (next && !outside(next)) {
        this.fail(next, 'the runner stopped in the middle of a chain');
        return null;
      }
    }
    return cursor;
  }
}

/** Execute every path of `root`'s trie for real; the failures say which step of which path broke what. */
export function executePlan(root: PlanNode, options: ExecutionOptions): Promise<ExecutionReport> {
  return new Executor(options).execute(root);
}
