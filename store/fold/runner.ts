// The durable runner: folds the journal, executes owed effects write-ahead, feeds results back.
//
// DESIGN §6 in one loop: for the oldest outstanding request, (1) if its result is journaled but
// the machine was not told, journal the event; (2) if it started but never completed, apply the
// kind's recovery policy; (3) otherwise journal `effect.started` durably, execute, journal
// `effect.completed`. Records are staged and flushed together right before the next effect runs,
// so one durable append covers "completed + event + next started" and nothing executes un-journaled.
import { EffectAborted, type EffectContext, type HandlerTable, type OutputSink, type ToolGateLink } from '../../effects/handler.js';
import type { SecretValue } from '../../effects/process/redact-secrets.js';
import { effectSchemas } from '../../machines/effects.js';
import type { Lifecycle } from '../../machines/lifecycles/registry.js';
import { heldSpecFiles, type WorkContext } from '../../machines/work/work-context.js';
import type { JournalHead } from '../journal/journal-head.js';
import type { JournalWriter } from '../journal/journal-writer.js';
import type { JournalRecord, RecordDraft } from '../journal/record.js';
import { outcomeEvent, type KeyedRequest, type RunFold } from './run-fold.js';
import { stateText } from './state-text.js';
import { LaneDriver } from './lane-driver.js';
import { failureMessage } from './failure-message.js';
import { heldLanes } from '../projections/held-lanes.js';
import { unansweredToolHold } from '../gate/tool-records.js';
import type { LedgerBase } from '../projections/checkpoint-ledger.js';
import { YokeError } from '../../errors/yoke-error.js';

/** How an `effect.failed` message begins when the tamper check stopped the run after an agent call. */
export const TAMPER_STOP = 'stopped by the tamper check';

/** How a drive ended. */
export type DriveResult =
  | { kind: 'finished'; exitCode: number; state: string; reason: string }
  | { kind: 'interrupted'; signal: string }
  /** waiting for an outside input (a budget raise): the run stays unfinished */
  | { kind: 'paused'; reason: string; state: string };

/** What the runner needs from its surroundings. */
export interface RunnerOptions {
  journal: JournalWriter;
  lifecycle: Lifecycle;
  handlers: HandlerTable;
  root: string;
  loopDir: string;
  output: OutputSink;
  /** the sink for one effect's output, by its key (default: `output`): lets a watcher tell the lanes of a parallel run apart */
  outputFor?: (key: string) => OutputSink;
  warn: (message: string) => void;
  /** aborted with the signal name as reason on SIGINT/SIGTERM */
  signal: AbortSignal;
  /** called for every record staged (progress, `--json`) */
  onRecord?: (record: JournalRecord) => void;
  /** checks run around every agent call: started before it, the returned check after; rejects when the journal or stash was touched */
  guardAgentCall?: () => Promise<() => Promise<void>>;
  /** the same for a parallel lane's agent call (default: none) */
  guardLaneCall?: () => Promise<() => Promise<void>>;
  /**
   * The run's tool-call gate (DESIGN §13), opened with the runner's own staging so yoke stays the
   * only journal writer; absent = agents run without one.
   */
  /**
   * Fold checkpoints (store/fold/fold-checkpoint.ts): every `every` records, right after a flush,
   * `take` saves the fold and returns the digest a `checkpoint` record then vouches for (null: none
   * taken). Absent = no checkpoints (backends without a checkpoint file).
   */
  checkpoints?: { every: number; take(fold: RunFold, head: JournalHead): string | null };
  /** the checkpoint the journal's records were read from (its kept records, then every one after it); absent = every record */
  ledgerBase?: LedgerBase | null;
  /** values no journaled text may contain (the store's password), handed to every effect; absent = none */
  secrets?: readonly SecretValue[];
  openToolGate?: (host: { stage: (draft: Omit<RecordDraft, 'run' | 'machine' | 'mv'>) => JournalRecord; flush: () => Promise<void> }) => Promise<RunToolGate>;
}

/** The gate as the runner drives it: which agent call is in progress, the link handed to it, and close. */
export interface RunToolGate {
  setCall(key: string | null): void;
  link: ToolGateLink;
  /**
   * A link of its own for agent call `key`, which runs alongside others (a parallel lane's), its
   * tool calls judged in `root` (the lane's worktree); closed once the call ended.
   */
  openCall(key: string, root: string): Promise<{ link: ToolGateLink; close(): Promise<void> }>;
  close(): Promise<void>;
}

/** Drive a run until its machine reaches a final state or a signal stops it. */
export async function driveRun(fold: RunFold, options: RunnerOptions): Promise<DriveResult> {
  const stage = (draft: Omit<RecordDraft, 'run' | 'machine' | 'mv'>): JournalRecord => {
    const record = options.journal.stage({
      ...draft,
      run: fold.run,
      machine: options.lifecycle.name,
      mv: options.lifecycle.version,
    } as RecordDraft);
    fold.apply(record);
    options.onRecord?.(record);
    return record;
  };

  const held = heldFor(fold);
  if (fold.active && fold.snapshot.hasTag('paused') && held !== null && goesOn(held, fold.run, options.journal.records, options.ledgerBase ?? null)) {
    // Held because its agent could not authenticate: being run again is the user's "try again".
    // Held on a tool call: once the operator answered it, the next call goes on with the answer.
    stage({ type: 'event', payload: { cause: null, event: { type: 'AGENT_RETRY' } } });
  }
  let gate: RunToolGate | null = null;
  try {
    return await drive(fold, options, stage, async () => {
      gate ??= (await options.openToolGate?.({ stage, flush: () => options.journal.flush() })) ?? null;
      return gate;
    });
  } finally {
    await (gate as RunToolGate | null)?.close();
  }
}

/**
 * Does `yoke run` send a run held for `heldFor` on (AGENT_RETRY)? When its hold is not an unanswered
 * tool call, or, in a parallel run held in several lanes, when any of them is: AGENT_RETRY sends
 * every held lane on, and a lane whose call is still unanswered holds again on it.
 */
function goesOn(heldFor: string, run: string, records: readonly JournalRecord[], base: LedgerBase | null): boolean {
  if (!unansweredToolHold(heldFor, records)) return true;
  // a lane held on no hold id it names (tool calls that went around the gate, an agent that could not
  // authenticate) goes on when run again, as a serial run held so does
  return heldLanes(records, run, base).some((lane) => lane.reason !== 'tool-held' || lane.holds[0] === undefined || !unansweredToolHold(`tool:${lane.holds[0]}`, records));
}

async function drive(
  fold: RunFold,
  options: RunnerOptions,
  stage: (draft: Omit<RecordDraft, 'run' | 'machine' | 'mv'>) => JournalRecord,
  toolGate: () => Promise<RunToolGate | null>,
): Promise<DriveResult> {
  let lastCheckpoint = lastCheckpointOf(fold, options.journal.records);
  let checkpointFailed = false;
  /** Right after a flush: take a checkpoint when `every` records went by since the last one. */
  const checkpoint = (): void => {
    const taker = options.checkpoints;
    const head = options.journal.durableHead;
    if (!taker || checkpointFailed || head.seq - lastCheckpoint < taker.every || options.journal.head.seq !== head.seq) return;
    lastCheckpoint = head.seq;
    try {
      const digest = taker.take(fold, head);
      // Rides with the next flush: a checkpoint whose record never became durable is never trusted.
      if (digest !== null) stage({ type: 'checkpoint', payload: { upTo: head.seq, digest } });
    } catch (error) {
      // A checkpoint is a cache: without one, the next resume folds the run from its start.
      checkpointFailed = true;
      options.warn(`could not save a fold checkpoint (${error instanceof Error ? error.message : String(error)}); the run goes on, and a resume will fold it from the start`);
    }
  };
  const lanes = new LaneDriver(fold, options, stage, toolGate);
  for (;;) {
    if (options.signal.aborted) {
      await lanes.settleAll();
      return await interrupted(options, stage);
    }
    if (lanes.active) {
      const step = await lanes.step();
      if (step === 'continue') continue;
      if (step !== 'idle') return await interrupted(options, stage);
    }
    const next = fold.outstanding[0];
    if (!next) {
      if (fold.active && fold.snapshot.hasTag('paused')) {
        // Held by a budget (`yoke budget …` journals BUDGET_RAISED) or by its agent (the next
        // `yoke run` journals AGENT_RETRY): not finished either way.
        const context = fold.snapshot.context as { blockedOn?: string | null };
        const reason = heldFor(fold) ?? `budget:${context.blockedOn ?? 'unknown'}`;
        const last = options.journal.records[options.journal.records.length - 1];
        if (!(last?.type === 'run.paused' && last.run === fold.run)) stage({ type: 'run.paused', payload: { reason } });
        await options.journal.flush();
        return { kind: 'paused', reason, state: describeState(fold) };
      }
      if (fold.active) {
        throw new YokeError('workspace', `run ${fold.run} is stuck: the machine is in ${describeState(fold)} but requested nothing; this is a bug in yoke — please report it with the journal.`);
      }
      const output = fold.snapshot.output as { exitCode: number; reason: string; protection?: string } | undefined;
      const exitCode = output?.exitCode ?? 1;
      const reason = output?.reason ?? 'unknown';
      const protection = output?.protection === undefined ? {} : { protection: output.protection };
      stage({ type: 'run.finished', payload: { state: describeState(fold), exitCode, reason, ...protection } });
      await options.journal.flush();
      return { kind: 'finished', exitCode, state: describeState(fold), reason };
    }
    const status = fold.effects.get(next.key);
    if (!status) throw new Error(`no status for ${next.key}`);

    if (status.completed || status.interrupted) {
      // built once: the fold checks the event against this same outcome when it is staged
      const event = outcomeEvent(status);
      if (event) stage({ type: 'event', payload: { cause: next.key, event } });
      continue;
    }

    const handler = options.handlers[next.request.kind];
    const gate = next.request.kind === 'agent.spawn' ? await toolGate() : null;
    const context = { ...effectContext(next, fold, options, stage), ...(gate === null ? {} : { toolGate: gate.link }) };
    if (status.attempts > 0) {
      // Started before a crash or a signal, never completed: the kind's recovery policy decides.
      if (handler.policy === 'surface') {
        stage({ type: 'effect.interrupted', payload: { key: next.key, kind: next.request.kind, reason: 'yoke stopped while it ran' } });
        continue;
      }
      if (handler.policy === 'reconcile' && handler.reconcile) {
        await options.journal.flush();
        const found = await (handler as { reconcile(params: unknown, context: EffectContext): Promise<unknown> }).reconcile(next.request.params, context);
        if (found !== null) {
          stage({ type: 'effect.completed', payload: { key: next.key, kind: next.request.kind, result: found } });
          continue;
        }
      }
    }

    stage({ type: 'effect.started', payload: { key: next.key, kind: next.request.kind, params: next.request.params, attempt: status.attempts + 1 } });
    await options.journal.flush();
    checkpoint();
    const release = next.request.kind === 'agent.spawn' ? await options.guardAgentCall?.() : undefined;
    let result: unknown;
    gate?.setCall(next.key);
    try {
      result = await (handler as { execute(params: unknown, context: EffectContext): Promise<unknown> }).execute(next.request.params, context);
    } catch (error) {
      gate?.setCall(null);
      if (error instanceof EffectAborted || options.signal.aborted) return await interrupted(options, stage);
      const message = failureMessage(error, next.request, options.secrets);
      stage({ type: 'effect.failed', payload: { key: next.key, kind: next.request.kind, message } });
      await options.journal.flush();
      // A handler that already knows what is wrong (a damaged workspace) says so itself.
      if (error instanceof YokeError) throw error;
      throw new YokeError('effect', `${next.request.kind} failed: ${message}; fix the cause and run \`yoke run\` again to retry it.`, [], { cause: error });
    }
    gate?.setCall(null);
    try {
      await release?.();
    } catch (error) {
      // The tamper check stopped the run: journal why (and which copy was kept), so `yoke status`
      // says so instead of calling it a crash. The call's result is not journaled; `yoke run`
      // surfaces it as interrupted and calls the agent again.
      if (!(error instanceof YokeError)) throw error;
      stage({ type: 'effect.failed', payload: { key: next.key, kind: next.request.kind, message: `${TAMPER_STOP}: ${error.message}` } });
      await options.journal.flush();
      throw error;
    }
    const checked = effectSchemas[next.request.kind].result.safeParse(result);
    if (!checked.success) throw new Error(`${next.request.kind} returned a result that does not match its schema: ${checked.error.message}`);
    stage({ type: 'effect.completed', payload: { key: next.key, kind: next.request.kind, result: checked.data } });
  }
}

function effectContext(
  next: KeyedRequest,
  fold: RunFold,
  options: RunnerOptions,
  stage: (draft: Omit<RecordDraft, 'run' | 'machine' | 'mv'>) => JournalRecord,
): EffectContext {
  return {
    root: options.root,
    loopDir: options.loopDir,
    run: fold.run,
    key: next.key,
    output: options.outputFor?.(next.key) ?? options.output,
    signal: options.signal,
    recordProcess: ({ pid, startTime }) => {
      stage({ type: 'process.spawned', payload: { key: next.key, pid, startTime } });
      // Not awaited (a spawn callback cannot wait): the file backend has written it by the time
      // flush() returns; a failure breaks the writer, so the effect's next flush reports it.
      options.journal.flush().catch(() => undefined);
    },
    warn: options.warn,
    // the spec files as the run holds them now: an edit journaled on resume reaches an effect decided before it
    heldSpecFiles: heldSpecFiles(fold.snapshot.context as WorkContext),
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
  };
}

async function interrupted(
  options: RunnerOptions,
  stage: (draft: Omit<RecordDraft, 'run' | 'machine' | 'mv'>) => JournalRecord,
): Promise<DriveResult> {
  const signal = typeof options.signal.reason === 'string' ? options.signal.reason : 'SIGINT';
  stage({ type: 'run.interrupted', payload: { signal } });
  await options.journal.flush();
  return { kind: 'interrupted', signal };
}

/** The record the run's last checkpoint was taken after (its `run.started` when none was). */
function lastCheckpointOf(fold: RunFold, records: readonly JournalRecord[]): number {
  for (let index = records.length - 1; index >= 0; index -= 1) {
    const record = records[index];
    if (record === undefined || record.seq <= fold.started.seq) break;
    if (record.type === 'checkpoint' && record.run === fold.run) return record.payload.upTo;
  }
  return fold.started.seq;
}

/** Why the run is held other than by a budget (`agent:auth-error`), or null. */
function heldFor(fold: RunFold): string | null {
  return (fold.snapshot.context as { heldFor?: string | null }).heldFor ?? null;
}

/** A state value as text: `checking`, `iteration.working`, … */
export function describeState(fold: RunFold): string {
  return stateText(fold.snapshot.value);
}
