// Watches a run as `yoke run` drives it: keeps the heartbeat and the status view for `yoke status`,
// and the facts the live status line shows.
import type { OutputSink } from '../effects/handler.js';
import type { EffectParams } from '../machines/effects.js';
import type { LoopContext } from '../machines/lifecycles/loop.js';
import { LIFECYCLES } from '../machines/lifecycles/registry.js';
import { HeartbeatKeeper } from '../store/liveness/heartbeat-keeper.js';
import { heartbeatPath } from '../store/liveness/heartbeat.js';
import type { JournalWriter } from '../store/journal/journal-writer.js';
import type { JournalRecord } from '../store/journal/record.js';
import type { RunFold } from '../store/fold/run-fold.js';
import { summarizeRun } from '../store/projections/run-summary.js';
import { statusViewPath, viewKey, writeStatusView } from '../store/projections/status-view.js';
import { runRulings, runUsage, type LedgerBase } from '../store/projections/checkpoint-ledger.js';
import { sameHead } from '../store/journal/journal-head.js';
import type { UsageTotals } from '../store/projections/usage-ledger.js';
import type { WorkspacePaths } from '../store/session/workspace-paths.js';
import { describePhase } from './phase-text.js';
import { statusLineText } from './status-line-text.js';

/** The status view is rewritten at most this often while records flow (and always at the end). */
const VIEW_INTERVAL_MS = 200;

/** What the monitor needs: the workspace, the open journal and the run's fold (kept current by the runner). */
export interface RunMonitorOptions {
  paths: WorkspacePaths;
  journal: JournalWriter;
  fold: RunFold;
  /** may the status line use color? */
  color: boolean;
  /** the checkpoint the journal was read from (null: `journal.records` are every record) */
  base?: LedgerBase | null;
  now?: () => number;
}

/**
 * One run's monitor. `onRecord` is fed every record the runner stages; `output` wraps the sink
 * agents write to. The heartbeat costs a few small writes per agent call plus at most one a second
 * while the agent talks; the view at most one per {@link VIEW_INTERVAL_MS}. Neither is ever fsynced:
 * both are hints, and `yoke status` checks the view against the journal before trusting it.
 */
export class RunMonitor {
  private readonly heartbeat: HeartbeatKeeper;
  private readonly now: () => number;
  private readonly agentRecords: JournalRecord[];
  private usage: UsageTotals;
  private phase: { key: string; text: string } | null = null;
  private call: { key: string; startedAt: number; lastOutputAt: number | null } | null = null;
  /** effect keys of lane steps in flight (a parallel run) */
  private readonly laneKeys = new Set<string>();
  private viewTimer: NodeJS.Timeout | null = null;
  private lastViewAt = 0;

  constructor(private readonly options: RunMonitorOptions) {
    this.now = options.now ?? Date.now;
    this.heartbeat = new HeartbeatKeeper(heartbeatPath(options.paths.journalDir), options.fold.run, this.now);
    this.agentRecords = options.journal.records.filter((record) => record.run === options.fold.run && isAgentRecord(record));
    this.usage = runUsage(this.agentRecords, options.fold.run, options.base ?? null);
    this.scheduleView();
  }

  /** Wrap the output sink so agent output counts as a sign of life. */
  output(sink: OutputSink): OutputSink {
    return heardThrough(sink, () => {
      if (!this.call) return;
      this.call.lastOutputAt = this.now();
      this.heartbeat.output();
    });
  }

  /** The sink for one effect's output: a lane step's output is that lane's sign of life. */
  outputFor(sink: OutputSink): (key: string) => OutputSink {
    const wrapped = this.output(sink);
    return (key) => (this.laneKeys.has(key) ? heardThrough(sink, () => this.heartbeat.laneOutput(key)) : wrapped);
  }

  /** The lane a step belongs to, in a parallel run (serial stories effects carry `lane` too; they are not lanes). */
  private laneOf(params: unknown): string | null {
    if ((this.options.fold.snapshot.context as Partial<LoopContext>).config?.parallel === undefined) return null;
    const lane = (params as { lane?: unknown } | null)?.lane;
    return typeof lane === 'string' && lane !== '' ? lane : null;
  }

  /** Fed every record the runner stages. */
  onRecord(record: JournalRecord): void {
    switch (record.type) {
      case 'effect.started': {
        this.phase = { key: record.payload.key, text: describePhase(record.payload.kind, record.payload.params) };
        const lane = this.laneOf(record.payload.params);
        if (lane !== null) {
          // a lane's step: its own line in the heartbeat (the single `call` is the serial run's)
          this.laneKeys.add(record.payload.key);
          this.heartbeat.laneStep({ story: lane, key: record.payload.key, phase: this.phase.text, startedAt: this.now(), agent: record.payload.kind === 'agent.spawn' });
          if (record.payload.kind === 'agent.spawn') this.agentRecords.push(record);
          break;
        }
        if (record.payload.kind === 'agent.spawn') {
          const params = record.payload.params as EffectParams<'agent.spawn'>;
          this.call = { key: record.payload.key, startedAt: this.now(), lastOutputAt: null };
          this.heartbeat.callStarted({ key: record.payload.key, role: params.role, iteration: params.iteration, startedAt: this.call.startedAt, idleTimeoutMs: params.idleTimeoutMs });
          this.agentRecords.push(record);
        }
        break;
      }
      case 'process.spawned':
        this.heartbeat.agentSpawned(record.payload.key, record.payload.pid, record.payload.startTime);
        break;
      case 'effect.completed':
      case 'effect.interrupted':
      case 'effect.failed':
        if (this.phase?.key === record.payload.key) this.phase = null;
        if (this.laneKeys.delete(record.payload.key)) this.heartbeat.laneStepEnded(record.payload.key);
        if (record.payload.kind === 'agent.spawn') {
          if (this.call?.key === record.payload.key) this.call = null;
          this.heartbeat.callEnded(record.payload.key);
          this.agentRecords.push(record);
          this.usage = runUsage(this.agentRecords, this.options.fold.run, this.options.base ?? null);
        }
        break;
      default:
        break;
    }
    this.scheduleView();
  }

  /** The status line's text now. */
  statusLine(): string {
    const { fold } = this.options;
    const context = fold.snapshot.context as Partial<LoopContext>;
    const lifecycle = LIFECYCLES[fold.started.payload.mode];
    const now = this.now();
    return statusLineText({
      mode: fold.started.payload.mode,
      run: fold.run,
      chunk: context.chunk ?? null,
      iteration: context.iteration ?? null,
      maxIterations: context.maxIterations ?? null,
      unit: lifecycle?.unit ?? 'iteration',
      phase: this.laneKeys.size > 0 ? this.heartbeat.currentLanes().map((lane) => `${lane.story} ${lane.phase}`).join(', ') : this.phase?.text ?? null,
      elapsedMs: now - Date.parse(fold.started.ts),
      usage: this.usage,
      silentMs: this.call ? now - (this.call.lastOutputAt ?? this.call.startedAt) : null,
      progress: lifecycle?.progress?.(context) ?? null,
    }, this.options.color);
  }

  /** The run stopped being driven by this process: write the final view, remove the heartbeat. */
  async finish(): Promise<void> {
    if (this.viewTimer) clearTimeout(this.viewTimer);
    this.viewTimer = null;
    await this.writeView();
    this.heartbeat.stop();
  }

  private scheduleView(): void {
    if (this.viewTimer) return;
    const wait = Math.max(0, this.lastViewAt + VIEW_INTERVAL_MS - this.now());
    this.viewTimer = setTimeout(() => {
      this.viewTimer = null;
      void this.writeView(); // never rejects: a failed write is a cache miss
    }, wait);
    this.viewTimer.unref();
  }

  /**
   * Save the view of the journal as it is stored, keyed on the store's head. While records are
   * staged or being written, or the stored head is not the one this run wrote, nothing is saved (a
   * later write catches up).
   */
  private async writeView(): Promise<void> {
    this.lastViewAt = this.now();
    const { journal, fold, paths } = this.options;
    try {
      if (journal.durableHead.seq !== journal.head.seq) return;
      const summary = summarizeRun(fold, journal.records);
      const usage = this.usage;
      const phase = this.phase?.text ?? null;
      const stored = await journal.store.head();
      if (stored.torn || !sameHead(stored, journal.durableHead) || journal.durableHead.seq !== journal.head.seq) return;
      const rulings = runRulings(journal.records, summary.run, this.options.base ?? null);
      writeStatusView(statusViewPath(paths.journalDir), { v: 2, summary, usage, rulings, phase, journal: viewKey(stored) });
    } catch {
      // a cache: `yoke status` folds the journal instead
    }
  }
}

/** `sink`, calling `heard` before each chunk passes through. */
function heardThrough(sink: OutputSink, heard: () => void): OutputSink {
  return {
    stdout: (chunk) => {
      heard();
      sink.stdout(chunk);
    },
    stderr: (chunk) => {
      heard();
      sink.stderr(chunk);
    },
  };
}

function isAgentRecord(record: JournalRecord): boolean {
  // run.started carries the run's `price` directives, which the ledger applies like the machine does
  return record.type === 'run.started' || ((record.type === 'effect.started' || record.type === 'effect.completed' || record.type === 'effect.interrupted') && record.payload.kind === 'agent.spawn');
}
