// `yoke run`: start a run, or resume the unfinished one exactly where the journal says it stopped.
import { ulid } from 'ulid';
import type { Config } from '../../config/types.js';
import { checkAgentAvailability } from '../../effects/adapters/agent-availability.js';
import { settleHooks } from '../../effects/handlers/hook-fire.js';
import { handlers } from '../../effects/registry.js';
import { LIFECYCLES } from '../../machines/lifecycles/registry.js';
import type { WorkContext as LoopContext, WorkInput } from '../../machines/work/work-context.js';
import { readFailpoint } from '../../store/journal/failpoint.js';
import { foldRun, lifecycleOf, runStarts, unfinishedRun } from '../../store/fold/journal-runs.js';
import { Journal } from '../../store/journal/file/journal.js';
import type { JournalRecord } from '../../store/journal/record.js';
import { describeState, driveRun } from '../../store/fold/runner.js';
import { foldStashIndex } from '../../store/stash/stash-index.js';
import type { StashContext } from '../../store/stash/stash-operation.js';
import { settleStash } from '../../store/stash/stash-recovery.js';
import { stopOrphans } from '../../store/session/stop-orphans.js';
import { watchForTampering } from '../../store/session/tamper-check.js';
import { acquireLock } from '../../store/journal/file/workspace-lock.js';
import type { WorkspacePaths } from '../../store/session/workspace-paths.js';
import { YokeError } from '../../errors/yoke-error.js';
import { modeTemplates, readPrompt } from '../canon.js';
import type { LiveInspector } from '../live-inspector.js';
import { describeHold } from '../budget-hold.js';
import { EXIT, exitCodeForSignal } from '../exit-codes.js';
import { findProject } from '../find-project.js';
import { loadConfig } from '../load-config.js';
import { describeProgress } from '../progress.js';
import { settleLines } from '../stash-format.js';
import { RunMonitor } from '../run-monitor.js';
import { runTerminal } from '../run-terminal.js';
import { warn, type OutputMode } from '../terminal.js';

export interface RunFlags extends OutputMode {
  fresh: boolean;
  maxIterations?: number;
  /** stream each record's fold snapshot to the Stately inspector (issue 5) */
  live?: boolean;
  livePort?: number;
}

/** Start or resume; resolves to the process exit code. */
export async function runCommand(flags: RunFlags, argv: string[]): Promise<number> {
  const paths = findProject(process.cwd());
  // Validate everything that can be validated before touching the workspace.
  const known = Journal.readKnown(paths.journal);
  const existing = known.contents;
  const resuming = !flags.fresh && unfinishedRun(existing.records) !== null;
  const config = resuming ? null : loadConfig(paths, warn);
  if (config && !LIFECYCLES[config.mode]) {
    throw new YokeError('usage', `${paths.conf}: mode ${config.mode} is not available in this version of yoke yet; use \`mode loop\`.`);
  }
  // The agent CLIs must be installed before anything is journaled (a resumed run uses its journaled config).
  const runConfig = config ?? journaledConfig(existing.records);
  if (runConfig) {
    // only presence on PATH: `--version` can take seconds (gemini) and `yoke config check` shows it
    const missing = (await checkAgentAvailability(runConfig, process.env, false)).filter((agent) => !agent.found);
    const [first, ...rest] = missing;
    if (first) throw new YokeError('usage', `${first.message}; nothing was run.`, rest.map((agent) => agent.message));
  }

  const terminal = runTerminal(flags);
  const progress = terminal.progress;
  const release = acquireLock(paths.lock, 'yoke run', (owner) => progress(`took over a stale lock left by pid ${owner.pid}`));
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(exitCodeForSignal(signal));
    controller.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let journal: Journal | null = null;
  let live: LiveInspector | null = null;
  let monitor: RunMonitor | null = null;
  try {
    const listener = flags.json ? (record: JournalRecord) => void process.stdout.write(`${JSON.stringify(record)}\n`) : null;
    // Read once: the read taken before the lock is reused if nobody wrote the file since.
    journal = Journal.open(paths.journal, terminal.warn, listener, known);
    // A stash, clean or mode cut short by a crash is finished (or rolled back) before any run starts.
    const stashContext: StashContext = { loopDir: paths.loopDir, stashDir: paths.stashDir, journal, failpoint: readFailpoint(process.env, () => undefined) };
    const settled = settleStash(stashContext, foldStashIndex(journal.records, paths.journal));
    if (settled) for (const line of settleLines(settled)) terminal.warn(line);
    // Whether it is resumed or abandoned, an unfinished run's leftover agent is stopped first.
    const unfinished = unfinishedRun(journal.records);
    if (unfinished !== null) {
      for (const key of await stopOrphans(journal.records, unfinished)) progress(`stopped an agent left running by the interrupted run (effect ${key})`);
    }
    const started = prepareRun(journal, paths, flags, argv, config, progress);
    const fold = foldRun(journal.records, started);
    if (resuming) announceResume(journal, fold.run, describeState(fold), fold.snapshot.context as LoopContext, flags, progress);
    if (flags.maxIterations !== undefined && resuming) {
      const context = fold.snapshot.context as LoopContext;
      if (context.maxIterations !== flags.maxIterations) {
        const lifecycle = lifecycleOf(started);
        const record = journal.stage({ type: 'event', run: fold.run, machine: lifecycle.name, mv: lifecycle.version, payload: { cause: null, event: { type: 'SET_MAX_ITERATIONS', max: flags.maxIterations } } });
        fold.apply(record);
      }
    }
    const emit = recordPrinter(flags, progress);
    const active = journal;
    if (flags.live || flags.livePort !== undefined) {
      const { startLiveInspector } = await import('../live-inspector.js');
      live = await startLiveInspector(fold.machine, { port: flags.livePort, initial: fold.snapshot, warn: terminal.warn, notice: terminal.notice });
    }
    const streaming = live;
    const watcher = new RunMonitor({ paths, journal, fold, color: terminal.color });
    monitor = watcher;
    terminal.showStatus(() => watcher.statusLine());
    const result = await driveRun(fold, {
      journal,
      lifecycle: lifecycleOf(started),
      handlers,
      root: paths.root,
      loopDir: paths.loopDir,
      output: watcher.output(terminal.output),
      warn: terminal.warn,
      signal: controller.signal,
      onRecord: (record) => {
        watcher.onRecord(record);
        emit(record, fold);
        terminal.refresh();
        if (streaming && record.type === 'event') streaming.sendSnapshot(fold.snapshot, record.payload.event);
      },
      guardAgentCall: () => watchForTampering(paths, active),
    });
    await settleHooks(10_000);
    terminal.stop();
    if (result.kind === 'interrupted') return exitCodeForSignal(result.signal);
    if (result.kind === 'paused') {
      process.stderr.write(`yoke: ${describeHold(fold.run, fold.snapshot.context as LoopContext)}\n`);
      return EXIT.unsuccessful;
    }
    return result.exitCode;
  } finally {
    terminal.stop();
    await live?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    journal?.close();
    monitor?.finish();
    release();
  }
}

type StartedRecord = Extract<JournalRecord, { type: 'run.started' }>;

/** The config the unfinished run started with, as journaled in its `run.started` input. */
function journaledConfig(records: readonly JournalRecord[]): Config | null {
  const open = unfinishedRun(records);
  const started = open === null ? undefined : runStarts(records).find((record) => record.run === open);
  const input = started?.payload.input as { config?: Config } | undefined;
  return input?.config ?? null;
}

/** Pick the run to drive: the unfinished one, or a new one (abandoning the old with --fresh). */
function prepareRun(
  journal: Journal,
  paths: WorkspacePaths,
  flags: RunFlags,
  argv: string[],
  config: ReturnType<typeof loadConfig> | null,
  progress: (line: string) => void,
): StartedRecord {
  const open = unfinishedRun(journal.records);
  if (open !== null && !flags.fresh) {
    const started = runStarts(journal.records).find((record) => record.run === open);
    if (!started) throw new Error(`run ${open} has no run.started`);
    return started;
  }
  if (!config) throw new Error('a new run needs a config');
  if (open !== null) {
    const old = runStarts(journal.records).find((record) => record.run === open);
    journal.stage({ type: 'run.abandoned', run: open, machine: old?.machine ?? null, mv: old?.mv ?? null, payload: { reason: 'yoke run --fresh' } });
    progress(`abandoned unfinished run ${open} (--fresh)`);
  }
  const lifecycle = LIFECYCLES[config.mode];
  const templates = modeTemplates(config.mode);
  if (!lifecycle || !templates) throw new YokeError('usage', `mode ${config.mode} is not available in this version of yoke yet.`);
  const judged = config.mode === 'brute' || config.mode === 'saga';
  const input: WorkInput = {
    config: flags.maxIterations === undefined ? config : { ...config, maxIterations: flags.maxIterations },
    workerPrompt: config.mode === 'goal' ? readPrompt('goal') : judged ? `${readPrompt('worker')}${readPrompt('worker-judged')}` : readPrompt('worker'),
    ...(config.mode === 'goal' ? { diagnosePrompt: readPrompt('goal-diagnose') } : {}),
    ...(judged ? { judgePrompt: readPrompt('judge') } : {}),
    ...(config.mode === 'saga' ? { scoperPrompt: readPrompt('scoper') } : {}),
    loopDir: paths.loopDir,
    specFiles: templates.spec,
  };
  const run = ulid();
  const record = journal.stage({
    type: 'run.started', run, machine: lifecycle.name, mv: lifecycle.version,
    payload: { mode: config.mode, input, argv },
  });
  journal.flush();
  progress(`started run ${run} (${config.mode}, at most ${input.config.maxIterations} iterations)`);
  return record as StartedRecord;
}

function announceResume(journal: Journal, run: string, state: string, context: LoopContext, flags: RunFlags, progress: (line: string) => void): void {
  const started = runStarts(journal.records).find((record) => record.run === run);
  journal.stage({ type: 'run.resumed', run, machine: started?.machine ?? null, mv: started?.mv ?? null, payload: { pid: process.pid } });
  journal.flush();
  const line = `resuming run ${run} at iteration ${context.iteration} (state ${state})`;
  if (flags.quiet || flags.json) process.stderr.write(flags.quiet ? '' : `yoke: ${line}\n`);
  else progress(line);
}

function recordPrinter(flags: RunFlags, progress: (line: string) => void): (record: JournalRecord, fold: Parameters<typeof describeProgress>[1]) => void {
  if (flags.json) return () => undefined;
  return (record, fold) => {
    const line = describeProgress(record, fold);
    if (line) progress(line);
  };
}
