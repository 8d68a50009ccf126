// `yoke run`: start a run, or resume the unfinished one exactly where the journal says it stopped.
import { relative } from 'node:path';
import { formatIssue } from '../../config/format-issue.js';
import type { Config } from '../../config/types.js';
import { gatedAgents, ungatedAgentProblem } from '../../config/tool-gate-reach.js';
import { checkAgentAvailability } from '../../effects/adapters/agent-availability.js';
import { settleHooks } from '../../effects/handlers/hook-fire.js';
import { contextLayerExists } from '../../effects/context/context-layer-exists.js';
import { hooksOffMessage, hooksTurnedOff } from '../../effects/gate/hooks-turned-off.js';
import { loopFileReader } from '../loop-file-reader.js';
import { storyCheckIssuesOf } from '../story-check-issues.js';
import { handlers } from '../../effects/registry.js';
import { workingTreeChanges } from '../../effects/git/working-tree-changes.js';
import { LIFECYCLES } from '../../machines/lifecycles/registry.js';
import type { WorkContext as LoopContext } from '../../machines/work/work-context.js';
import { unfinishedRun } from '../../store/fold/journal-runs.js';
import { heldLanes } from '../../store/projections/held-lanes.js';
import type { JournalRecord } from '../../store/journal/record.js';
import { driveRun, type RunnerOptions } from '../../store/fold/runner.js';
import type { RunFold } from '../../store/fold/run-fold.js';
import { beginRun } from '../../store/session/begin-run.js';
import { cutShortLanding } from '../../store/session/cut-short-landing.js';
import { savedCheckpoint } from '../../store/session/checkpoint-file.js';
import { runCheckpoints } from '../../store/session/checkpoint-taker.js';
import { gateProtection } from '../../store/session/protection-gate.js';
import { openWorkspace, type WorkspaceSession } from '../../store/session/open-workspace.js';
import { journaledConfig, type NewRun, type RunPlan } from '../../store/session/plan-run.js';
import { readForRun } from '../../store/session/read-for-run.js';
import { refuseLostHistory } from '../../store/session/lost-history.js';
import { refuseStashedWorkspace, settleBeforeRun } from '../../store/session/settle-before-run.js';
import { storeSecrets } from '../../store/session/store-secrets.js';
import type { WorkspacePaths } from '../../store/session/workspace-paths.js';
import { YokeError } from '../../errors/yoke-error.js';
import { readCanon } from '../canon.js';
import type { LiveInspector } from '../live-inspector.js';
import { describeHold } from '../budget-hold.js';
import { EXIT, exitCodeForSignal } from '../exit-codes.js';
import { findProject } from '../find-project.js';
import { loadConfig } from '../load-config.js';
import { describeProgress, type ProgressWording } from '../progress.js';
import { planLines } from '../run-plan-text.js';
import { settleLines } from '../stash-format.js';
import { listenForStopSignals } from '../stop-signals.js';
import { RunMonitor } from '../run-monitor.js';
import { runTerminal } from '../run-terminal.js';
import { warn, type OutputMode } from '../terminal.js';

export interface RunFlags extends OutputMode {
  fresh: boolean;
  /** with --fresh: start over although the journal is empty and the workspace shows it has run before */
  discardHistory?: boolean;
  maxIterations?: number;
  /** stream each record's fold snapshot to the Stately inspector (issue 5) */
  live?: boolean;
  livePort?: number;
  /** stories: up to N stories at once in git worktrees (DESIGN §10); on resume, a change of N is journaled */
  parallel?: number;
}

/** Start or resume; resolves to the process exit code. */
export async function runCommand(flags: RunFlags, argv: string[]): Promise<number> {
  const paths = findProject(process.cwd());
  // Validate everything that can be validated before touching the workspace.
  if (flags.discardHistory === true && !flags.fresh) {
    throw new YokeError('usage', '--discard-history only goes with --fresh: run `yoke run --fresh --discard-history` to start over on an emptied journal.');
  }
  // Resuming the run a saved checkpoint is of, only the records after it are read (docs/performance.md).
  let before = await readForRun(paths, flags.fresh);
  // An emptied journal is refused while transcripts, blobs or status.json say there was a history here.
  refuseLostHistory(paths, before.records, flags.discardHistory === true);
  // A stash command at work refuses; one cut short is finished first, so yoke.conf is back before it is read.
  const settledStash = await settleBeforeRun(paths, before.records, warn);
  if (settledStash) {
    for (const line of settleLines(settledStash)) warn(line);
    before = await readForRun(paths, flags.fresh);
  }
  const resuming = !flags.fresh && unfinishedRun(before.records) !== null;
  // a conf that is missing because `yoke stash` took it says so, and how to bring it back
  if (!resuming) refuseStashedWorkspace(paths, before.records);
  const loaded = resuming ? null : loadConfig(paths, warn);
  const config = loaded === null || flags.parallel === undefined ? loaded : { ...loaded, parallel: flags.parallel };
  // The lifecycle's own files (stories: prd.yaml) are checked before anything runs, too.
  if (config) checkLifecycleFiles(config, paths);
  // The agent CLIs must be installed before anything is journaled (a resumed run uses its journaled config).
  const runConfig = config ?? journaledConfig(before.records);
  if (runConfig) checkStoryChecks(runConfig, paths, resuming);
  if (runConfig) await checkParallel(runConfig, flags, resuming, paths, before.records);
  if (runConfig) checkToolGateReach(runConfig, paths);
  if (runConfig) {
    // only presence on PATH: `--version` can take seconds (gemini) and `yoke config check` shows it
    const roles = LIFECYCLES[runConfig.mode]?.rolesCalled(runConfig) ?? ['worker'];
    const missing = (await checkAgentAvailability(runConfig, roles, process.env, false)).filter((agent) => !agent.found);
    const [first, ...rest] = missing;
    if (first) throw new YokeError('usage', `${first.message}; nothing was run.`, rest.map((agent) => agent.message));
  }

  const terminal = runTerminal(flags);
  const progress = terminal.progress;
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(exitCodeForSignal(signal));
    controller.abort(signal);
  };
  const stopListening = listenForStopSignals(onSignal);
  let session: WorkspaceSession | null = null;
  let live: LiveInspector | null = null;
  let monitor: RunMonitor | null = null;
  try {
    session = await openWorkspace(paths, {
      command: 'yoke run',
      warn: terminal.warn,
      onStale: (owner) => progress(`took over a stale lock left by pid ${owner.pid}`),
      listener: flags.json ? (record: JournalRecord) => void process.stdout.write(`${JSON.stringify(record)}\n`) : null,
      // Read once: the read taken before the lease is reused if nobody wrote since.
      known: before,
      // Whether it is resumed or abandoned, an unfinished run's leftover agent is stopped first.
      stopOrphans: true,
    });
    const open = session;
    // A stash, clean or mode cut short by a crash was finished (or rolled back) before any run starts.
    if (session.settled) for (const line of settleLines(session.settled)) terminal.warn(line);
    for (const key of session.stoppedOrphans) progress(`stopped an agent left running by the interrupted run (effect ${key})`);
    // DESIGN §16: the first baseline is taken here; protected files the user changed since refuse the run.
    const readFrom = session.readFrom?.checkpoint ?? null;
    const gate = await gateProtection(session.journal, paths, runConfig, resuming ? session.unfinished : null, readFrom);
    if (gate.took && gate.protection) progress(`took the protection baseline: ${gate.protection.files.length} protected file(s) (digest ${gate.protection.digest.slice(0, 12)})`);
    // A saved fold of the unfinished run spares folding it from the start, when the journal vouches for it.
    const checkpoints = runCheckpoints(session.journal, paths.loopDir, session.readFrom);
    const { plan, lifecycle, fold, notices } = await beginRun(session.journal, {
      fresh: flags.fresh, maxIterations: flags.maxIterations, parallel: flags.parallel, start: config ? newRun(config, paths, argv) : null, protection: gate.protection,
      checkpoint: checkpoints === null ? null : readFrom ?? savedCheckpoint(paths.loopDir), readLoopFile: loopFileReader(paths), loopDir: paths.loopDir,
    });
    announce(plan, lifecycle.unit, flags, progress);
    for (const notice of notices) (notice.level === 'warn' ? terminal.warn : progress)(notice.text);
    const emit = recordPrinter(flags, progress, lifecycle);
    if (flags.live || flags.livePort !== undefined) {
      const { startLiveInspector } = await import('../live-inspector.js');
      live = await startLiveInspector(fold.machine, { port: flags.livePort, initial: fold.snapshot, warn: terminal.warn, notice: terminal.notice });
    }
    const streaming = live;
    const watcher = new RunMonitor({ paths, journal: session.journal, fold, color: terminal.color, base: readFrom });
    monitor = watcher;
    terminal.showStatus(() => watcher.statusLine());
    const result = await driveRun(fold, {
      journal: session.journal,
      ledgerBase: readFrom,
      lifecycle,
      handlers,
      root: paths.root,
      loopDir: paths.loopDir,
      output: watcher.output(terminal.output),
      outputFor: watcher.outputFor(terminal.output),
      warn: terminal.warn,
      signal: controller.signal,
      onRecord: (record) => {
        watcher.onRecord(record);
        emit(record, fold);
        terminal.refresh();
        if (streaming && record.type === 'event') streaming.sendSnapshot(fold.snapshot, record.payload.event);
      },
      guardAgentCall: () => open.guardAgentCall(),
      guardLaneCall: () => open.guardLaneCall(),
      ...(checkpoints ? { checkpoints } : {}),
      ...toolGateOption(fold, paths.root, open),
      secrets: storeSecrets(paths),
    });
    await settleHooks(10_000);
    terminal.stop();
    if (result.kind === 'interrupted') return exitCodeForSignal(result.signal);
    if (result.kind === 'paused') {
      process.stderr.write(`yoke: ${describeHold(fold.run, fold.snapshot.context as LoopContext, lifecycle, heldLanes(session.journal.records, fold.run, readFrom))}\n`);
      return EXIT.unsuccessful;
    }
    return result.exitCode;
  } finally {
    terminal.stop();
    await live?.stop();
    stopListening();
    // the final status view is written after the last flush, before the lease is given up
    await session?.close(() => monitor?.finish());
  }
}

/**
 * The run's tool-call gate (DESIGN §13), unless `tool-control off`. The runner opens it before the
 * first agent call; its module (the classifier, the shell parser) loads only then, so a resume that
 * calls no agent does not pay for it.
 */
function toolGateOption(fold: RunFold, root: string, session: WorkspaceSession): Pick<RunnerOptions, 'openToolGate'> {
  const context = (): LoopContext => fold.snapshot.context as LoopContext;
  const { config } = context();
  if ((config.toolControl ?? 'on') === 'off') return {};
  // the protection baseline's patterns as they stand when each call is ruled (a refresh changes them)
  const protect = (): readonly string[] => context().protection?.patterns ?? [];
  return {
    openToolGate: async (host) => {
      const { openRunToolGate } = await import('../../store/gate/run-tool-gate.js');
      return openRunToolGate({ run: fold.run, root, loopDir: session.paths.loopDir, config, protect, journal: session.journal }, host);
    },
  };
}

/** What a new run starts with: the lifecycle of the configured mode and its input (the prompts each role gets). */
function newRun(config: Config, paths: WorkspacePaths, argv: string[]): NewRun {
  const lifecycle = LIFECYCLES[config.mode];
  if (!lifecycle) throw new YokeError('usage', `mode ${config.mode} is not available in this version of yoke yet.`);
  return { lifecycle, input: lifecycle.input(config, readCanon, paths.loopDir, loopFileReader(paths)), argv, contextLayer: contextLayerExists(paths.root) };
}


/** A `usage` error listing every problem the lifecycle finds in its own files (prd.yaml), before anything runs. */
function checkLifecycleFiles(config: Config, paths: WorkspacePaths): void {
  const errors = (LIFECYCLES[config.mode]?.validate?.(loopFileReader(paths)) ?? []).filter((issue) => issue.severity === 'error');
  const [first, ...rest] = errors;
  if (first) throw new YokeError('usage', formatIssue(first), [...rest.map(formatIssue), `${errors.length} error(s); nothing was run or changed.`]);
}

/** Stories: a `journey:` check naming no declared journey, or any in a parallel run, refuses the run (exit 2) before anything is journaled. */
function checkStoryChecks(config: Config, paths: WorkspacePaths, resuming: boolean): void {
  const [first, ...rest] = storyCheckIssuesOf(config, paths).filter((issue) => issue.severity === 'error');
  if (!first) return;
  const kept = resuming ? ['the unfinished run keeps the yoke.conf it started with; `yoke run --fresh` starts a run with the current one.'] : [];
  throw new YokeError('usage', formatIssue(first), [...rest.map(formatIssue), ...kept, `${rest.length + 1} error(s); nothing was run or changed.`]);
}

/**
 * Fail closed (DESIGN §13), exit 2: tool control on or advisory for an agent the gate does not
 * reach, or for one whose CLI settings switch its hooks off.
 */
function checkToolGateReach(config: Config, paths: WorkspacePaths): void {
  const problem = ungatedAgentProblem(config);
  if (problem !== null) {
    const file = relative(process.cwd(), paths.conf) || paths.conf;
    throw new YokeError('usage', `${file}: ${problem.message}; ${problem.hint}. Nothing was run.`);
  }
  // A CLI whose own settings switch its hooks off would never ask the gate (docs/tool-control.md).
  for (const agent of gatedAgents(config)) {
    const off = hooksTurnedOff(agent, paths.root, process.env);
    if (off === null) continue;
    const shown = relative(process.cwd(), off.file);
    throw new YokeError('usage', hooksOffMessage({ ...off, file: shown.startsWith('..') || shown === '' ? off.file : shown }, agent, config.toolControl ?? 'on'));
  }
}

/**
 * `--parallel` (DESIGN §10): only in stories mode, and only for a run that works in parallel; a
 * parallel run refuses a dirty target (exit 3), before anything is journaled, unless it resumes a
 * run whose landing a kill cut short in the middle of the target's fast-forward.
 */
async function checkParallel(config: Config, flags: RunFlags, resuming: boolean, paths: WorkspacePaths, records: readonly JournalRecord[]): Promise<void> {
  if (flags.parallel !== undefined && LIFECYCLES[config.mode]?.features.includes('stories') !== true) {
    throw new YokeError('usage', `--parallel works only in stories mode, and this run is ${config.mode}; drop --parallel, or switch with \`yoke mode stories\`.`);
  }
  if (flags.parallel !== undefined && resuming && config.parallel === undefined) {
    throw new YokeError('usage', `the unfinished run works its stories one at a time, so --parallel cannot apply to it; finish it with \`yoke run\`, or start over in parallel with \`yoke run --fresh --parallel ${flags.parallel}\`.`);
  }
  if (config.parallel === undefined) return;
  const changes = await workingTreeChanges(paths.root);
  if (changes.length === 0) return;
  // A kill inside a story's fast-forward leaves the landing commit checked out: resuming finishes it.
  if (resuming && (await cutShortLanding(records, paths.root)) !== null) return;
  const shown = changes.slice(0, 5).join(', ') + (changes.length > 5 ? `, and ${changes.length - 5} more` : '');
  throw new YokeError('workspace', `the target branch's working tree has changes (${shown}); a parallel run fast-forwards it as stories land, so commit or stash them first (\`git stash -u\`) and run \`yoke run\` again.`);
}

/** Tell the user what the plan did: abandoned, started, or resumed (in the lifecycle's unit). */
function announce(plan: RunPlan, unit: string, flags: RunFlags, progress: (line: string) => void): void {
  for (const line of planLines(plan, unit)) {
    // a resume is said even under --json, on stderr, where progress lines are not
    if (plan.kind === 'resume' && (flags.quiet || flags.json)) process.stderr.write(flags.quiet ? '' : `yoke: ${line}\n`);
    else progress(line);
  }
}

function recordPrinter(flags: RunFlags, progress: (line: string) => void, wording: ProgressWording): (record: JournalRecord, fold: Parameters<typeof describeProgress>[1]) => void {
  if (flags.json) return () => undefined;
  return (record, fold) => {
    const line = describeProgress(record, fold, wording);
    if (line) progress(line);
  };
}
