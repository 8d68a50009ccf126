// `yoke replay`: a past run step by step, folded from the journal. Never runs an effect: the
// modules it loads cannot reach an executor (tests/cli/commands/replay-imports.test.ts).
import { writeSync } from 'node:fs';
import { findRun } from '../../store/fold/journal-runs.js';
import { lifecycleForRun } from '../../store/fold/machine-versions.js';
import type { JournalReader, TornTail } from '../../store/journal/journal-store.js';
import { readJournal, type JournalRead } from '../../store/journal/read-journal.js';
import type { JournalRecord, StartedRecord } from '../../store/journal/record.js';
import { replayRun, runHeader, RunReplay, type ReplayStep } from '../../store/projections/replay-steps.js';
import { RunFold, type FoldStep } from '../../store/fold/run-fold.js';
import { stateText } from '../../store/fold/state-text.js';
import { journalReaderAt, openJournalReader } from '../../store/session/open-reader.js';
import { YokeError } from '../../errors/yoke-error.js';
import { findProjectQuick } from '../find-project-quick.js';
import { heapForStreamedFold } from '../streamed-fold-heap.js';
import { renderHeader, renderOutcome, renderStep } from '../timeline.js';
import { workspaceTarget } from '../workspace-target.js';

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
  /** a workspace of the shared store (`--workspace`) */
  workspace?: string;
}

/** Print the timeline, the state at `--at`, a verification, or write the `--html` page. */
export async function replayCommand(prefix: string | undefined, flags: ReplayFlags): Promise<number> {
  if (flags.all && !flags.verify) throw new YokeError('usage', '--all goes with --verify (`yoke replay --verify --all`).');
  if (flags.all && prefix !== undefined) throw new YokeError('usage', 'give a run id or --all, not both.');
  const modes = [flags.verify && '--verify', flags.at !== undefined && '--at', flags.html !== undefined && '--html'].filter(Boolean);
  if (modes.length > 1) throw new YokeError('usage', `${modes.join(' and ')} cannot be combined; use one at a time.`);
  if ((flags.live || flags.livePort !== undefined) && modes.length > 0) throw new YokeError('usage', `--live streams the step-by-step replay; it cannot be combined with ${modes.join(' or ')}.`);
  if (flags.journal !== undefined && flags.workspace !== undefined) throw new YokeError('usage', 'give --journal <file> or --workspace <name>, not both.');
  const store = await journalStore(flags.journal, flags.workspace);
  if (flags.verify) {
    const { verifyStore } = await import('./replay-verify.js');
    heapForStreamedFold();
    return verifyStore(store, prefix, flags, warnIfTorn);
  }
  if (flags.html === undefined && flags.at === undefined && !flags.live && flags.livePort === undefined) {
    heapForStreamedFold();
    return streamTimeline(store, prefix, flags.json);
  }
  const journal = await readWhole(store);
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
    for (const line of [...renderHeader(replayed), ...replayed.steps.map(renderStep), renderOutcome(replayed.outcome)]) process.stdout.write(`${line}\n`);
  }
  await streamReplay(journal.records, started, flags.livePort);
  return 0;
}

/**
 * The timeline (or `--json` steps) of one run, streamed: a first pass over the journal finds the
 * runs (checking every record), a second folds the chosen one up to where the first pass ended and
 * prints each step as it is folded. Memory holds the fold, never the journal or the steps.
 */
async function streamTimeline(store: JournalReader, prefix: string | undefined, json: boolean): Promise<number> {
  const starts: StartedRecord[] = [];
  let end = 0;
  let torn: TornTail | null = null;
  for await (const page of store.read()) {
    for (const record of page.records) if (record.type === 'run.started') starts.push(record);
    end = page.head.seq;
    torn = page.torn;
  }
  warnIfTorn(torn);
  const started = findRun(starts, prefix);
  const out = new LineBuffer();
  const emit = json
    ? (step: ReplayStep) => out.write(JSON.stringify({ kind: 'step', run: started.run ?? '', ...step }))
    : (step: ReplayStep) => out.write(renderStep(step));
  if (!json) for (const line of renderHeader(runHeader(started))) out.write(line);
  const replay = new RunReplay(started, (step) => void emit(step), true);
  try {
    // up to where the first pass ended: a live run may be appending meanwhile
    for await (const page of store.read({ toSeq: end })) {
      withVerifyHint(() => {
        for (const record of page.records) replay.feed(record);
      });
    }
  } finally {
    out.flush();
  }
  const outcome = replay.outcome();
  out.write(json ? JSON.stringify({ kind: 'outcome', run: started.run ?? '', ...outcome }) : renderOutcome(outcome));
  out.flush();
  return 0;
}

/** Lines to stdout in blocks of about 64 KiB (one write per line is slow; one for all is big). */
class LineBuffer {
  private lines: string[] = [];
  private bytes = 0;

  write(line: string): void {
    this.lines.push(line);
    this.bytes += line.length + 1;
    if (this.bytes >= 1 << 16) this.flush();
  }

  flush(): void {
    if (this.lines.length === 0) return;
    writeStdout(`${this.lines.join('\n')}\n`);
    this.lines = [];
    this.bytes = 0;
  }
}

/** Write to stdout synchronously, whether it is a file, a pipe or a terminal. */
function writeStdout(text: string): void {
  const data = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < data.length) {
    try {
      written += writeSync(1, data, written, data.length - written);
    } catch (error) {
      // A non-blocking pipe that is full: wait for the reader, then go on.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

/**
 * `--live`: fold the run again and send every machine step to the inspector relay, then close it.
 * The relay ends with yoke: a viewer sees the steps only if it is connected while they stream.
 */
async function streamReplay(records: readonly JournalRecord[], started: Parameters<typeof replayRun>[1], port: number | undefined): Promise<void> {
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

/** The whole journal; a torn tail is mentioned, not repaired (replay never writes). */
async function readWhole(store: JournalReader): Promise<JournalRead> {
  const read = await readJournal(store);
  warnIfTorn(read.torn);
  return read;
}

/** The workspace's journal (the project's, or `--workspace <name>` of the shared store), or `--journal <file>`, to read. */
async function journalStore(file: string | undefined, workspace: string | undefined): Promise<JournalReader> {
  return file === undefined ? openJournalReader(await workspaceTarget(workspace, () => findProjectQuick(process.cwd()))) : journalReaderAt(file);
}

function warnIfTorn(torn: TornTail | null): void {
  if (torn) process.stderr.write(`yoke: warning: ${torn.where}: the last line is torn (a crash mid-write); it is ignored here and \`yoke run\` will remove it.\n`);
}

function printStateAt(records: readonly JournalRecord[], started: Parameters<typeof replayRun>[1], seq: number, json: boolean): number {
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
