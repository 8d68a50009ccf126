// `yoke replay`: a past run step by step, folded from the journal. Never runs an effect: the
// modules it loads cannot reach an executor (tests/store/replay-imports.test.ts).
import { resolve } from 'node:path';
import { readJournalFile, type JournalContents } from '../../store/journal-file.js';
import { findRun } from '../../store/journal-runs.js';
import { lifecycleForRun } from '../../store/machine-versions.js';
import { replayRun } from '../../store/replay-steps.js';
import { RunFold, type FoldStep } from '../../store/run-fold.js';
import { stateText } from '../../store/state-text.js';
import { YokeError } from '../../store/yoke-error.js';
import { findProject } from '../find-project.js';
import { renderTimeline } from '../timeline.js';

/** Flags of `yoke replay`. */
export interface ReplayFlags {
  json: boolean;
  at?: number;
  verify: boolean;
  all: boolean;
  html?: string;
  /** a journal file to read instead of the workspace's */
  journal?: string;
  /** also stream the replayed steps to the Stately inspector, then exit (issue 5) */
  live?: boolean;
  livePort?: number;
}

/** Print the timeline, the state at `--at`, a verification, or write the `--html` page. */
export async function replayCommand(prefix: string | undefined, flags: ReplayFlags): Promise<number> {
  if (flags.all && !flags.verify) throw new YokeError('usage', '--all goes with --verify (`yoke replay --verify --all`).');
  if (flags.all && prefix !== undefined) throw new YokeError('usage', 'give a run id or --all, not both.');
  const modes = [flags.verify && '--verify', flags.at !== undefined && '--at', flags.html !== undefined && '--html'].filter(Boolean);
  if (modes.length > 1) throw new YokeError('usage', `${modes.join(' and ')} cannot be combined; use one at a time.`);
  if ((flags.live || flags.livePort !== undefined) && modes.length > 0) throw new YokeError('usage', `--live streams the step-by-step replay; it cannot be combined with ${modes.join(' or ')}.`);
  const journal = readJournal(flags.journal);
  if (flags.verify) {
    const { verifyCommand } = await import('./replay-verify.js');
    return verifyCommand(journal.records, prefix, flags);
  }
  const started = findRun(journal.records, prefix);
  if (flags.html !== undefined) {
    const { replayHtmlCommand } = await import('./replay-html.js');
    return replayHtmlCommand(journal.records, started, flags.html);
  }
  if (flags.at !== undefined) return printStateAt(journal.records, started, flags.at, flags.json);
  const replayed = withVerifyHint(() => replayRun(journal.records, started));
  if (flags.json) {
    for (const step of replayed.steps) process.stdout.write(`${JSON.stringify({ kind: 'step', run: replayed.run, ...step })}\n`);
    process.stdout.write(`${JSON.stringify({ kind: 'outcome', run: replayed.run, ...replayed.outcome })}\n`);
  } else {
    for (const line of renderTimeline(replayed)) process.stdout.write(`${line}\n`);
  }
  if (flags.live || flags.livePort !== undefined) await streamReplay(journal.records, started, flags.livePort);
  return 0;
}

/**
 * `--live`: fold the run again and send every machine step to the inspector relay, then close it.
 * The relay ends with yoke: a viewer sees the steps only if it is connected while they stream.
 */
async function streamReplay(records: Parameters<typeof replayRun>[0], started: Parameters<typeof replayRun>[1], port: number | undefined): Promise<void> {
  const { startLiveInspector } = await import('../live-inspector.js');
  const { machine } = lifecycleForRun(started);
  const steps: FoldStep[] = [];
  const fold = new RunFold(machine, started, (step) => void steps.push(step));
  for (const record of records) {
    if (record.seq > started.seq && record.run === started.run) fold.apply(record);
  }
  const [first, ...rest] = steps;
  const live = await startLiveInspector(machine, { port, initial: first?.after });
  if (!live) return;
  for (const step of rest) {
    if (step.record.type === 'event') live.sendSnapshot(step.after, step.record.payload.event);
  }
  await live.stop();
}

/** A run that does not fold is refused (exit 3); `--verify` is where to see both sides of it. */
function withVerifyHint<T>(fold: () => T): T {
  try {
    return fold();
  } catch (error) {
    if (!(error instanceof YokeError) || !error.message.startsWith('journal record')) throw error;
    throw new YokeError(error.code, error.message, ['yoke: `yoke replay --verify` shows the first record where the journal and today\'s machine part, with both sides.']);
  }
}

/** The workspace's journal, or `--journal <file>`; a torn tail is mentioned, not repaired (read-only). */
export function readJournal(file: string | undefined): JournalContents {
  const path = file === undefined ? findProject(process.cwd()).journal : resolve(file);
  const contents = readJournalFile(path);
  if (contents.torn) process.stderr.write(`yoke: warning: ${path}:${contents.torn.line}: the last line is torn (a crash mid-write); it is ignored here and \`yoke run\` will remove it.\n`);
  return contents;
}

function printStateAt(records: Parameters<typeof replayRun>[0], started: Parameters<typeof replayRun>[1], seq: number, json: boolean): number {
  if (seq < started.seq) throw new YokeError('usage', `run ${started.run ?? '?'} starts at seq ${started.seq}; give an --at of ${started.seq} or more.`);
  const last = records[records.length - 1]?.seq ?? 0;
  if (seq > last) throw new YokeError('usage', `the journal ends at seq ${last}; give an --at of ${last} or less.`);
  const replayed = withVerifyHint(() => replayRun(records, started, seq));
  const { snapshot } = replayed.fold;
  const record = records.find((r) => r.seq === seq);
  const view = {
    run: replayed.run,
    seq,
    record: record ? (record.type === 'event' ? `event ${record.payload.event.type}` : record.type) : null,
    ofThisRun: record?.run === replayed.run,
    lastSeqOfRun: replayed.lastSeq,
    state: stateText(snapshot.value),
    status: snapshot.status,
    value: snapshot.value as unknown,
    owed: replayed.fold.outstanding.map((keyed) => ({ key: keyed.key, kind: keyed.request.kind, params: keyed.request.params })),
    context: snapshot.context as unknown,
  };
  if (json) {
    process.stdout.write(`${JSON.stringify(view)}\n`);
    return 0;
  }
  const lines = [
    `run ${view.run} at seq ${seq}${view.ofThisRun ? ` (${view.record ?? '?'})` : ` (record ${seq} belongs to another run; last record of this run before it: ${view.lastSeqOfRun})`}`,
    `state:   ${view.state} (${view.status})`,
    `owed:    ${view.owed.length === 0 ? 'nothing' : view.owed.map((owed) => `${owed.kind} ${owed.key}`).join(', ')}`,
    'context:',
    JSON.stringify(view.context, null, 2),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
