// A simulated `yoke run` process in-process: the real journal writer (file backend), RunFold and
// driveRun over a MemoryWorld, with crashes injected at exact journal positions and a gate that
// pauses the runner between effects. A crash discards everything the process held in memory: the
// file keeps exactly the records that were durable (cut to a record boundary, or torn in the middle
// of one), and the next process reopens it, as `yoke run` after kill -9 does.
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EffectAborted, type EffectContext } from '../../effects/handler.js';
import type { EffectKind } from '../../machines/effects.js';
import type { Lifecycle } from '../../machines/lifecycles/registry.js';
import { openFileJournal } from '../../store/journal/file/open-file-journal.js';
import type { JournalWriter } from '../../store/journal/journal-writer.js';
import { lifecycleForRun } from '../../store/fold/machine-versions.js';
import type { JournalRecord, RecordDraft } from '../../store/journal/record.js';
import { RunFold } from '../../store/fold/run-fold.js';
import { driveRun, type DriveResult } from '../../store/fold/runner.js';
import type { ExecutionGate, MemoryWorld } from './memory-world.js';

/** Thrown inside a simulated process when it "dies". */
export class SimulatedCrash extends Error {
  constructor() {
    super('simulated crash');
  }
}

/** Where the next crash lands: right after record `seq` is durable, or halfway through writing it. */
export interface CrashPlan {
  seq: number;
  torn: boolean;
}

/** A scratch folder on tmpfs when there is one (fsync is free there), else the OS temp folder. */
export function scratchDir(prefix: string): string {
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  return mkdtempSync(join(base, prefix));
}

/** One simulated yoke process driving the run in `journalPath`. */
export class MemoryProcess {
  /** how the drive ended: a DriveResult, or 'crashed' */
  readonly done: Promise<DriveResult | 'crashed'>;
  private journal: JournalWriter | null = null;
  private readonly controller = new AbortController();
  private dead = false;
  private durableSeq = 0;
  private permits: number;
  private waiter: { resume: () => void; fail: (error: Error) => void } | null = null;
  private blocked: (() => void) | null = null;
  private ended: DriveResult | 'crashed' | null = null;

  constructor(
    readonly journalPath: string,
    world: MemoryWorld,
    lifecycle: Lifecycle,
    input: unknown,
    private crash: CrashPlan | null,
    options: { permits?: number; warn?: (message: string) => void; onExecute?: (kind: EffectKind, key: string, records: readonly JournalRecord[]) => void } = {},
  ) {
    this.permits = options.permits ?? Infinity;
    const gate = async (kind: EffectKind, key: string, context: EffectContext): Promise<void> => {
      options.onExecute?.(kind, key, this.journal?.records ?? []);
      await this.pass(context);
    };
    this.done = this.drive(lifecycle, input, world, gate, options.warn ?? (() => undefined)).then((ended) => {
      this.ended = ended;
      return ended;
    });
  }

  private async drive(lifecycle: Lifecycle, input: unknown, world: MemoryWorld, gate: ExecutionGate, warn: (message: string) => void): Promise<DriveResult | 'crashed'> {
    try {
      const journal = await openFileJournal(this.journalPath, { warn });
      this.journal = journal;
      this.durableSeq = journal.records.length;
      const original = journal.flush.bind(journal);
      journal.flush = () => this.flush(journal, original);
      const fold = await this.foldOrStart(journal, lifecycle, input);
      const result = await driveRun(fold, {
        journal, lifecycle, handlers: world.handlers(gate), root: '/project', loopDir: '/project/.loop',
        output: { stdout: () => undefined, stderr: () => undefined }, warn: () => undefined, signal: this.controller.signal,
      });
      this.close();
      return result;
    } catch (error) {
      if (!(error instanceof SimulatedCrash)) throw error;
      return 'crashed';
    }
  }

  /** Crash once `records` more records are durable (`torn`: halfway through writing the last of them). */
  armCrash(records: number, torn: boolean): void {
    this.crash = { seq: this.durableSeq + records, torn };
  }

  /** How the process stands: paused at an effect, or ended (finished, interrupted, crashed). */
  get state(): 'paused' | 'finished' | 'interrupted' | 'crashed' {
    if (this.ended === null) return 'paused';
    if (this.ended === 'crashed') return 'crashed';
    return this.ended.kind;
  }

  /** Let `count` more executions through, then wait until the runner is paused, finished or dead. */
  async advance(count: number): Promise<void> {
    this.permits += count;
    this.waiter?.resume();
    await this.settle();
  }

  /** kill -9 now: the effect in flight (if any) dies with the process. */
  async kill(): Promise<void> {
    this.die();
    this.waiter?.fail(new SimulatedCrash());
    await this.done;
  }

  /** SIGINT: the runner journals `run.interrupted` and stops. */
  async interrupt(): Promise<void> {
    this.controller.abort('SIGINT');
    this.waiter?.fail(new EffectAborted('agent.spawn'));
    await this.settle();
  }

  private async foldOrStart(journal: JournalWriter, lifecycle: Lifecycle, input: unknown): Promise<RunFold> {
    const started = journal.records.find((record): record is Extract<JournalRecord, { type: 'run.started' }> => record.type === 'run.started');
    const stage = (draft: Omit<RecordDraft, 'run' | 'machine' | 'mv'>, run: string) =>
      journal.stage({ ...draft, run, machine: lifecycle.name, mv: lifecycle.version } as RecordDraft);
    if (!started) {
      const record = stage({ type: 'run.started', payload: { mode: lifecycle.name, input, argv: ['run'] } }, '01PROPERTYRUN0000000000000');
      await journal.flush();
      return new RunFold(lifecycle.machine, record as Extract<JournalRecord, { type: 'run.started' }>);
    }
    const fold = new RunFold(lifecycleForRun(started).machine, started);
    for (const record of journal.records) if (record.seq > started.seq && record.run === started.run) fold.apply(record);
    if (!fold.finished) {
      fold.apply(stage({ type: 'run.resumed', payload: { pid: 1 } }, fold.run));
      await journal.flush();
    }
    return fold;
  }

  /**
   * The writer's flush, then the crash if it is due. The file backend has written the batch by the
   * time `original()` returns (no flush is ever in flight here), so the cut happens exactly where a
   * kill -9 right after that write would leave the file.
   */
  private flush(journal: JournalWriter, original: () => Promise<void>): Promise<void> {
    if (this.dead) return Promise.reject(new SimulatedCrash());
    const firstSeq = this.durableSeq + 1;
    const lastSeq = journal.records.length;
    const written = original();
    this.durableSeq = lastSeq;
    const crash = this.crash;
    if (crash && crash.seq >= firstSeq && crash.seq <= lastSeq) {
      this.cutFile(crash);
      this.die();
      return written.then(() => Promise.reject(new SimulatedCrash()));
    }
    return written;
  }

  /** Leave on disk only what a crash at `crash` leaves: whole records up to it, or half of it. */
  private cutFile(crash: CrashPlan): void {
    const bytes = readFileSync(this.journalPath);
    let offset = 0;
    for (let seq = 1; seq < crash.seq; seq += 1) offset = bytes.indexOf(0x0a, offset) + 1;
    const end = bytes.indexOf(0x0a, offset) + 1;
    truncateSync(this.journalPath, crash.torn ? offset + Math.max(1, Math.floor((end - 1 - offset) / 2)) : end);
  }

  private die(): void {
    if (this.dead) return;
    this.dead = true;
    this.crash = null;
    this.close();
  }

  private close(): void {
    // A dead process must not write through its descriptor again: the store lets go of it at once.
    this.journal?.store.close().catch(() => undefined); // closing twice is a no-op; nothing to report
  }

  private async pass(context: EffectContext): Promise<void> {
    if (this.dead) throw new SimulatedCrash();
    if (context.signal.aborted) throw new EffectAborted('agent.spawn');
    if (this.permits > 0) {
      this.permits -= 1;
      return;
    }
    await new Promise<void>((resume, fail) => {
      this.waiter = { resume, fail };
      this.blocked?.();
    });
    this.waiter = null;
    await this.pass(context);
  }

  private async settle(): Promise<void> {
    await Promise.race([
      this.done,
      new Promise<void>((resolve) => {
        this.blocked = resolve;
        if (this.waiter && this.permits === 0) resolve();
      }),
    ]);
    this.blocked = null;
  }
}

/** Remove a scratch folder. */
export function removeScratch(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
