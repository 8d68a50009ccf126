// The runner's concurrent half, for parallel stories (DESIGN §10): effects of different lanes run at once.
//
// A request whose params name a `lane` runs in that lane's worktree; requests of one lane run one at a
// time, in order, and requests without a lane (hooks) form one more lane of their own. Everything
// else is the serial runner's rules: `effect.started` is durable before any executor starts (one
// flush covers every effect started together), results are journaled as they arrive, and the
// machine hears each result as its own event, in the order they were journaled. Replay folds that
// order; nothing depends on timing. A run with no lane request never gets here.
import { join } from 'node:path';
import { EffectAborted, type EffectContext } from '../../effects/handler.js';
import { laneWorktreePath } from '../../effects/worktree/locate-lane-worktree.js';
import { settleLaneWorktree, settlementWarning } from '../../effects/worktree/settle-lane-worktree.js';
import { interruptionEvent } from '../../machines/effect-events.js';
import { effectSchemas } from '../../machines/effects.js';
import { laneExpectation } from '../../machines/parallel/lane-expectation.js';
import type { WorkContext } from '../../machines/work/work-context.js';
import { YokeError } from '../../errors/yoke-error.js';
import type { JournalRecord, RecordDraft } from '../journal/record.js';
import { outcomeEvent, type EffectStatus, type KeyedRequest, type RunFold } from './run-fold.js';
import { TAMPER_STOP, type RunnerOptions, type RunToolGate } from './runner.js';
import { hasLane, laneOfRequest } from './request-lane.js';
import { failureMessage } from './failure-message.js';


type Stage = (draft: Omit<RecordDraft, 'run' | 'machine' | 'mv'>) => JournalRecord;
type Handler = { policy: string; execute(params: unknown, context: EffectContext): Promise<unknown>; reconcile?(params: unknown, context: EffectContext): Promise<unknown> };
type Settled = { key: string; ok: true; result: unknown } | { key: string; ok: false; error: unknown; tampered?: true };

/** What one step did: went on (`continue`), has nothing to do (`idle`: the serial runner takes over), or the run stopped. */
export type LaneStep = 'continue' | 'idle' | { interrupted: true };

/** Runs the lanes' effects concurrently for one run. */
export class LaneDriver {
  private readonly inflight = new Map<string, { lane: string; done: Promise<Settled> }>();
  /** lanes whose worktree was compared with the journal in this process */
  private readonly settled = new Set<string>();

  constructor(
    private readonly fold: RunFold,
    private readonly options: RunnerOptions,
    private readonly stage: Stage,
    /** the run's tool-call gate, opened at the first agent call (null: tool control off) */
    private readonly toolGate: () => Promise<RunToolGate | null> = () => Promise.resolve(null),
  ) {}

  /** Lanes are at work, or the machine asks for lane work. */
  get active(): boolean {
    return this.inflight.size > 0 || this.fold.outstanding.some(hasLane);
  }

  /** Tell the machine one settled outcome, start what can start, or wait for the next result. */
  async step(): Promise<LaneStep> {
    for (const next of this.fold.outstanding) {
      if (this.inflight.has(next.key)) continue;
      const status = this.fold.effects.get(next.key);
      if (!status) continue;
      if (!status.completed && !status.interrupted) continue;
      const event = outcomeEvent(status);
      if (event !== null) this.stage({ type: 'event', payload: { cause: next.key, event } });
      return 'continue';
    }
    // Each lane's next request that can start now (one per lane; lanes with an effect in flight wait).
    const busy = new Set([...this.inflight.values()].map((entry) => entry.lane));
    const ready: Array<{ next: KeyedRequest; lane: string; status: EffectStatus }> = [];
    for (const next of this.fold.outstanding) {
      if (this.inflight.has(next.key)) continue;
      const lane = laneOfRequest(next);
      if (busy.has(lane)) continue;
      busy.add(lane);
      const status = this.fold.effects.get(next.key);
      if (!status || status.completed || status.interrupted) continue;
      ready.push({ next, lane, status });
    }
    // What resuming settles first, before any of them is started (a staged start must always launch).
    for (const { next, lane, status } of ready) {
      if (await this.settleWorktree(next, lane, status)) return 'continue';
      if (status.attempts === 0) continue;
      // Started before a crash, never completed: the kind's recovery policy decides.
      const handler = this.options.handlers[next.request.kind] as Handler;
      if (handler.policy === 'surface') {
        this.stage({ type: 'effect.interrupted', payload: { key: next.key, kind: next.request.kind, reason: 'yoke stopped while it ran' } });
        return 'continue';
      }
      if (handler.policy === 'reconcile' && handler.reconcile) {
        await this.options.journal.flush();
        const found = await handler.reconcile(next.request.params, await this.contextFor(next, lane));
        if (found !== null) {
          this.stage({ type: 'effect.completed', payload: { key: next.key, kind: next.request.kind, result: found } });
          return 'continue';
        }
      }
    }
    const launches: Array<() => void> = [];
    // DESIGN §13: a lane's agent call asks the gate on a socket of its own, judged in the lane's worktree
    const gate = ready.some(({ next }) => next.request.kind === 'agent.spawn') ? await this.toolGate() : null;
    for (const { next, lane, status } of ready) {
      const handler = this.options.handlers[next.request.kind] as Handler;
      const context = await this.contextFor(next, lane);
      const gated = gate !== null && next.request.kind === 'agent.spawn' ? gate : null;
      this.stage({ type: 'effect.started', payload: { key: next.key, kind: next.request.kind, params: next.request.params, attempt: status.attempts + 1 } });
      const guarded = next.request.kind === 'agent.spawn' ? this.options.guardLaneCall : undefined;
      launches.push(() => {
        const done = (async (): Promise<Settled> => {
          // DESIGN §6: the tamper check around the lane's agent call, as around a serial one
          const release = await guarded?.();
          let result: unknown;
          let call: Awaited<ReturnType<RunToolGate['openCall']>> | null = null;
          try {
            call = gated === null ? null : await gated.openCall(next.key, context.root);
            result = await handler.execute(next.request.params, call === null ? context : { ...context, toolGate: call.link });
          } catch (error) {
            await call?.close();
            return { key: next.key, ok: false, error };
          }
          await call?.close();
          try {
            await release?.();
          } catch (error) {
            return { key: next.key, ok: false, error, tampered: true };
          }
          return { key: next.key, ok: true, result };
        })();
        this.inflight.set(next.key, { lane, done });
      });
    }
    if (launches.length > 0) {
      await this.options.journal.flush();
      for (const launch of launches) launch();
    }
    if (this.inflight.size === 0) return 'idle';
    const settled = await Promise.race([...this.inflight.values()].map((entry) => entry.done));
    this.inflight.delete(settled.key);
    const request = this.fold.effects.get(settled.key)?.request;
    if (!request) throw new Error(`no request for ${settled.key}`);
    if (!settled.ok) {
      if (settled.error instanceof EffectAborted || this.options.signal.aborted) {
        await this.settleAll();
        return { interrupted: true };
      }
      const said = failureMessage(settled.error, request.request, this.options.secrets);
      // stopped by the tamper check: journaled as such, so `yoke status` says so instead of calling it a crash
      const message = settled.tampered === true ? `${TAMPER_STOP}: ${said}` : said;
      this.stage({ type: 'effect.failed', payload: { key: settled.key, kind: request.request.kind, message } });
      await this.options.journal.flush();
      if (settled.error instanceof YokeError) throw settled.error;
      throw new YokeError('effect', `${request.request.kind} failed in lane ${laneOfRequest(request) || 'main'}: ${message}; fix the cause and run \`yoke run\` again to retry it.`, [], { cause: settled.error });
    }
    const checked = effectSchemas[request.request.kind].result.safeParse(settled.result);
    if (!checked.success) throw new Error(`${request.request.kind} returned a result that does not match its schema: ${checked.error.message}`);
    this.stage({ type: 'effect.completed', payload: { key: settled.key, kind: request.request.kind, result: checked.data } });
    return 'continue';
  }

  /**
   * Before a lane's first effect in this process that works in its worktree (a resumed run's lanes), compare it with the
   * journal: reused when it still holds the recorded base (or candidate) on the lane's branch, else
   * made again from the journal, with a warning. A lane in the middle of a turn then starts that turn
   * over from its restore step: the effect it owed is journaled as interrupted (started first, when it
   * never was), so the machine hears LANE_INTERRUPTED (AGENT_INTERRUPTED for the worker call). True
   * when that was journaled.
   */
  private async settleWorktree(next: KeyedRequest, lane: string, status: EffectStatus): Promise<boolean> {
    if (lane === '' || this.settled.has(lane)) return false;
    const expected = laneExpectation(this.fold.snapshot.context as WorkContext, this.fold.run, next.request, status.attempts);
    // an effect that needs no worktree (a wait, the worktree's own making) leaves the check to the lane's next one
    if (expected === null) return false;
    this.settled.add(lane);
    const settlement = await settleLaneWorktree({ root: this.options.root, loopDir: this.options.loopDir }, this.fold.run, expected, (message) => this.options.warn(message));
    if (settlement.kind === 'reused') return false;
    const reason = `not run: story ${lane}'s worktree was made again (${settlement.why === 'missing' ? 'it was gone' : 'it held another commit'})`;
    const restart = expected.phase === 'turn' && next.request.kind !== 'spec.restore' && interruptionEvent(next.request, reason) !== null;
    this.options.warn(settlementWarning(expected, settlement, restart));
    if (!restart) return false;
    if (status.attempts === 0) this.stage({ type: 'effect.started', payload: { key: next.key, kind: next.request.kind, params: next.request.params, attempt: 1 } });
    this.stage({ type: 'effect.interrupted', payload: { key: next.key, kind: next.request.kind, reason } });
    return true;
  }

  /** Wait for every effect still running (after a signal aborted them). */
  async settleAll(): Promise<void> {
    await Promise.allSettled([...this.inflight.values()].map((entry) => entry.done));
    this.inflight.clear();
  }

  /** A lane's effect runs in its worktree; the main tree stays reachable for integration. */
  private async contextFor(next: KeyedRequest, lane: string): Promise<EffectContext> {
    const options = this.options;
    const root = lane === '' ? options.root : await laneWorktreePath(options.root, lane);
    return {
      root,
      loopDir: lane === '' ? options.loopDir : join(root, '.loop'),
      projectRoot: options.root,
      projectLoopDir: options.loopDir,
      run: this.fold.run,
      key: next.key,
      output: options.outputFor?.(next.key) ?? options.output,
      signal: options.signal,
      recordProcess: ({ pid, startTime }) => {
        this.stage({ type: 'process.spawned', payload: { key: next.key, pid, startTime } });
        options.journal.flush().catch(() => undefined);
      },
      warn: options.warn,
      ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
    };
  }
}
