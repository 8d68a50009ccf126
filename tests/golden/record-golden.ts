// Records the golden journals: real runs of the built CLI with the scripted fake agent, in throwaway
// git projects. Run it only to ADD a journal (`npm run build && npx tsx tests/golden/record-golden.ts
// <name>`); an existing golden journal is never re-recorded or edited (see README.md).
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rewriteJournal } from '../support/journal-edit.js';
import { agentCalls, writeScript, type FakeScript } from '../support/fake-agent-script.js';
import { journalPath, readJournal } from '../support/journal-records.js';
import { makeJudgedWorkspace } from '../support/judged-workspace.js';
import { confHead } from '../support/loop-conf.js';
import { makeLoopWorkspace } from '../support/loop-workspace.js';
import { waitUntil } from '../support/process-liveness.js';
import { installShellAgent, type ShellAct, type ShellScript } from '../support/shell-agent.js';
import { makeWorkspace, runYoke, startYoke, type Workspace } from '../support/workspace.js';
import { yokeVersion } from '../../cli/version.js';

const here = dirname(fileURLToPath(import.meta.url));
const USAGE = (n: number) => ({ input_tokens: 1000 + n, output_tokens: 100 * n, cost_usd: 0.01 * n, model: 'fake-model' });

/** Three iterations to DONE: notes IN_PROGRESS, IN_PROGRESS, DONE; a guard, commits, hooks, usage. */
async function loopDone(): Promise<Workspace> {
  const { ws, env } = await makeLoopWorkspace({
    conf: [...confHead(5), 'guard built test -f src/app.txt', 'commit each', 'hook iteration-end true'],
    script: {
      steps: {
        '1': { write: { 'src/app.txt': 'one\n' }, notes: 'IN_PROGRESS', usage: USAGE(1) },
        '2': { append: { 'src/app.txt': 'two\n' }, notes: 'IN_PROGRESS', usage: USAGE(2) },
      },
      default: { append: { 'src/app.txt': 'three\n' }, notes: 'DONE', usage: USAGE(3) },
    },
  });
  expectExit(await runYoke(ws, ['run', '--quiet'], { env }), 0);
  return ws;
}

/** max-iterations 3 without success: a boundary violation (guards skipped), then a failing guard. */
async function loopMaxIterations(): Promise<Workspace> {
  const { ws, env } = await makeLoopWorkspace({
    conf: [...confHead(3), 'no-modify vendor/', 'guard green test ! -f red.txt', 'commit done'],
    files: { 'vendor/lib.js': 'original\n' },
    script: {
      steps: {
        '1': { write: { 'vendor/lib.js': 'patched\n' }, notes: 'DONE' },
        '2': { write: { 'vendor/lib.js': 'original\n', 'red.txt': 'oops\n' }, notes: 'DONE' },
      },
      default: { notes: 'IN_PROGRESS' },
    },
  });
  expectExit(await runYoke(ws, ['run', '--quiet'], { env }), 1);
  return ws;
}

/** SIGINT while the worker of iteration 2 runs, then `yoke run` resumes and finishes. */
async function loopSigintResume(): Promise<Workspace> {
  const script: FakeScript = {
    steps: {
      '1': { write: { 'src/app.txt': 'one\n' }, notes: 'IN_PROGRESS' },
      '2': [{ sleepMs: 30_000 }],
    },
    default: { notes: 'DONE' },
  };
  const { ws, env } = await makeLoopWorkspace({ conf: [...confHead(4), 'guard built test -f src/app.txt', 'commit off'], script });
  const running = startYoke(ws, ['run', '--quiet'], { env });
  const reached = await waitUntil(async () => (await agentCalls(env.FAKE_AGENT_LOG)).some((call) => call.iteration === 2), 20_000);
  if (!reached) throw new Error('the worker of iteration 2 never started');
  running.kill('SIGINT');
  const interrupted = await running;
  expectExit({ exitCode: interrupted.exitCode, stderr: String(interrupted.stderr) }, 130);
  // The resumed run calls the worker of iteration 2 again; this time it finishes at once.
  const resumedScript: FakeScript = { ...script, steps: { ...script.steps, '2': { notes: 'IN_PROGRESS' } } };
  const resumedEnv = await writeScript(ws, resumedScript, 'resumed');
  expectExit(await runYoke(ws, ['run', '--quiet'], { env: resumedEnv }), 0);
  return ws;
}

/** kill -9 right after the second worker call is journaled as spawned, then a torn write; resumed twice. */
async function loopCrashResume(): Promise<Workspace> {
  const { ws, env } = await makeLoopWorkspace({
    conf: [...confHead(4), 'guard built test -f src/app.txt', 'commit each'],
    script: {
      steps: {
        '1': { write: { 'src/app.txt': 'one\n' }, notes: 'IN_PROGRESS' },
        '2': { append: { 'src/app.txt': 'two\n' }, notes: 'IN_PROGRESS' },
      },
      default: { notes: 'DONE' },
    },
  });
  const firstCrash = await crashSeq(ws, env, (records) => records.filter((r) => r.type === 'process.spawned')[1]?.seq);
  expectSignal(await runYoke(ws, ['run', '--quiet'], { env: { ...env, YOKE_FAILPOINT: `crash-after:${firstCrash}` } }));
  const journaled = (await readJournal(ws)).length;
  // The resumed process dies halfway through writing a record a few records later.
  expectSignal(await runYoke(ws, ['run', '--quiet'], { env: { ...env, YOKE_FAILPOINT: `torn-at:${journaled + 6}` } }));
  expectExit(await runYoke(ws, ['run', '--quiet'], { env }), 0);
  return ws;
}

const verdict = (first: 'PASS' | 'FAIL', reason: string): ShellAct => ({ write: { '.loop/verdict.md': `VERDICT: ${first}\n${reason}\n` } });
const shellUsage = (n: number, cost: boolean): ShellAct => ({ usage: { input_tokens: 2000 * n, output_tokens: 300 * n, ...(cost ? { cost_usd: 0.02 * n } : {}), model: 'fake-model' } });

/**
 * Brute to a judge PASS: a `judge-every 2` feedback judgment (FAIL, not counted), a DONE-triggered
 * FAIL (counted; the notes' first line reset), then DONE and PASS. One call is priced by `price`.
 */
async function bruteDone(): Promise<Workspace> {
  const { ws } = await makeJudgedWorkspace({
    mode: 'brute',
    conf: ['max-iterations 5', 'max-judge-failures 3', 'judge-every 2', 'guard built test -f src/app.txt', 'commit done', 'price fake-model 3 15'],
    script: {
      worker: [
        [{ write: { 'src/app.txt': 'one\n' } }, shellUsage(1, true), { notes: 'IN_PROGRESS' }],
        [shellUsage(2, false), { notes: 'IN_PROGRESS' }],
        [shellUsage(3, true), { notes: 'DONE' }],
        [{ write: { 'src/app.txt': 'one\nfixed\n' } }, shellUsage(4, true), { notes: 'DONE' }],
      ],
      judge: [verdict('FAIL', 'not yet: halfway'), verdict('FAIL', 'the fix is missing'), verdict('PASS', 'good')],
    },
  });
  expectExit(await runYoke(ws, ['run', '--quiet']), 0);
  return ws;
}

/** Brute bailout: every DONE is judged FAIL; the 2nd consecutive FAIL ends the run (exit 1). */
async function bruteBailout(): Promise<Workspace> {
  const { ws } = await makeJudgedWorkspace({
    mode: 'brute',
    conf: ['max-iterations 5', 'max-judge-failures 2', 'commit off'],
    script: { after: { worker: { notes: 'DONE' }, judge: verdict('FAIL', 'still wrong') } },
  });
  expectExit(await runYoke(ws, ['run', '--quiet']), 1);
  return ws;
}

const subPlan = (n: number, extra = ''): string => `# Chunk ${n}${extra}\n\nDo part ${n} of the specification.\n`;
const scope = (n: number, extra = ''): ShellAct => ({ write: { '.loop/sub-plan.md': subPlan(n, extra), '.loop/saga-notes.md': `STATUS: IN_PROGRESS\nchunk ${n} scoped\n` } });

/** A saga of two chunks: the first chunk's judge bails out and the scoper re-scopes it; then DONE. */
async function sagaDone(): Promise<Workspace> {
  const script: ShellScript = {
    scoper: [scope(1), scope(1, ' (smaller)'), scope(2), { write: { '.loop/saga-notes.md': 'STATUS: DONE\nthe specification is implemented\n' } }],
    worker: [
      [{ write: { 'src/part1.txt': 'big\n' } }, { notes: { status: 'DONE', body: 'chunk 1, first try' } }],
      [{ write: { 'src/part1.txt': 'small\n' } }, { notes: { status: 'DONE', body: 'chunk 1, smaller' } }],
      [{ write: { 'src/part2.txt': 'two\n' } }, { notes: { status: 'IN_PROGRESS', body: 'chunk 2 under way' } }],
      [{ notes: { status: 'DONE', body: 'chunk 2 done' } }],
    ],
    judge: [verdict('FAIL', 'the chunk is too big'), verdict('PASS', 'chunk 1 good'), verdict('PASS', 'chunk 2 good')],
  };
  const { ws } = await makeJudgedWorkspace({ mode: 'saga', conf: ['max-chunks 5', 'max-iterations 3', 'max-judge-failures 1', 'commit each'], script });
  expectExit(await runYoke(ws, ['run', '--quiet']), 0);
  return ws;
}

/** A goal workspace with the shell agent: `goal.md`, and `conf` after `mode goal` and the agent line. */
async function goalWorkspace(conf: string[], script: ShellScript): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    '.loop/yoke.conf': `${['mode goal', `agent cmd sh ${paths.side('agent.sh')}`, ...conf].join('\n')}\n`,
    '.loop/goal.md': '# Goal\n\nShip done.txt.\n',
    '.loop/protocol.md': '# Protocol\n\nOne attempt at a time.\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  }));
  await installShellAgent(ws.sideDir, script);
  return ws;
}

/** Goal complete on the third attempt: a worker claiming DONE is not enough; budgets read the clock. */
async function goalComplete(): Promise<Workspace> {
  const ws = await goalWorkspace(['max-iterations 5', 'accept shipped test -f done.txt', 'accept content grep -q ok done.txt', 'budget wall-minutes 60', 'budget attempts 5'], {
    worker: [
      [shellUsage(1, true), { notes: 'DONE' }],
      [{ write: { 'done.txt': 'not yet\n' } }, shellUsage(2, true), { notes: 'IN_PROGRESS' }],
      [{ write: { 'done.txt': 'ok\n' } }, shellUsage(3, true), { notes: 'DONE' }],
    ],
  });
  expectExit(await runYoke(ws, ['run', '--quiet']), 0);
  return ws;
}

/** Goal blocked by no-progress: the same failure three times (the third attempt asked to diagnose). */
async function goalNoProgress(): Promise<Workspace> {
  const ws = await goalWorkspace(['accept shipped sh -c \'echo "done.txt missing at $(date +%s%N)"; exit 1\''], {
    after: { worker: { notes: 'IN_PROGRESS' } },
  });
  expectExit(await runYoke(ws, ['run', '--quiet']), 1);
  return ws;
}

const STORIES_PRD = `stories:
  - id: S1
    title: Parser
    priority: 1
    acceptance:
      - text: the parser exists
        check: test -f src/s1.txt
  - id: S2
    title: Printer
    priority: 2
    depends-on: [S1]
    acceptance:
      - text: the printer exists
        check: test -f src/s2.txt
  - id: S3
    title: Docs
    priority: 3
    acceptance: [the docs say how]
    passes: false
`;

/**
 * Three stories with `review on` and a decision ledger: S1's first DONE fails its `check` (and its
 * edit of prd.yaml is restored), then passes; S2 (after S1) is IN_PROGRESS once, then judged FAIL,
 * then PASS; S3 passes at once. Each passed story is one `feat(<id>)` commit.
 */
async function storiesDone(): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    '.loop/yoke.conf': `${['mode stories', `agent cmd sh ${paths.side('agent.sh')}`, 'review on', 'max-iterations 8', 'max-story-attempts 3', 'guard tree test -d src'].join('\n')}\n`,
    '.loop/prd.yaml': STORIES_PRD,
    '.loop/protocol.md': '# Protocol\n\nOne story at a time.\n',
    '.loop/judge.md': '# Judge\n\nJudge the story against its criteria; write VERDICT: PASS or VERDICT: FAIL.\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
    '.yoke/context/DECISIONS.md': '# Decisions\n',
    'src/.keep': '',
  }));
  const done = (body: string): ShellAct => ({ notes: { status: 'DONE', body: `${body}\n` } });
  await installShellAgent(ws.sideDir, {
    worker: [
      [{ write: { '.loop/prd.yaml': STORIES_PRD.replace('passes: false', 'passes: true') } }, shellUsage(1, true), done('claimed too early')],
      [{ write: { 'src/s1.txt': 'parser\n' } }, shellUsage(2, true), done('Decision: the parser reads one line at a time')],
      [{ write: { 'src/s2.txt': 'half\n' } }, shellUsage(1, true), { notes: 'IN_PROGRESS' }],
      [shellUsage(2, true), done('printer written')],
      [{ write: { 'src/s2.txt': 'printer\n' } }, shellUsage(2, true), done('Decision: the printer pads to 80 columns')],
      [{ write: { 'docs.md': 'how\n' } }, shellUsage(1, true), done('docs')],
    ],
    judge: [verdict('PASS', 'the parser is there'), verdict('FAIL', 'the printer only prints half'), verdict('PASS', 'good'), verdict('PASS', 'clear')],
  });
  expectExit(await runYoke(ws, ['run', '--quiet']), 0);
  return ws;
}

/** Where a crash should land, found on a dry run of the same workspace setup. */
async function crashSeq(ws: Workspace, env: Record<string, string>, pick: (records: Awaited<ReturnType<typeof readJournal>>) => number | undefined): Promise<number> {
  const dry = await makeLoopWorkspace({ conf: (await ws.read('.loop/yoke.conf')).trimEnd().split('\n'), script: {} });
  try {
    copyFileSync(env.FAKE_AGENT_SCRIPT ?? '', dry.env.FAKE_AGENT_SCRIPT);
    expectExit(await runYoke(dry.ws, ['run', '--quiet'], { env: dry.env }), 0);
    const seq = pick(await readJournal(dry.ws));
    if (seq === undefined) throw new Error('the dry run has no such record');
    return seq;
  } finally {
    await dry.ws.cleanup();
  }
}

function expectExit(result: { exitCode: number | undefined; stderr: string }, code: number): void {
  if (result.exitCode !== code) throw new Error(`yoke exited ${String(result.exitCode)} instead of ${code}: ${result.stderr}`);
}

function expectSignal(result: { signal: string | undefined; stderr: string }): void {
  if (result.signal !== 'SIGKILL') throw new Error(`yoke was expected to die by its failpoint: ${result.stderr}`);
}

const RECORDINGS: Record<string, () => Promise<Workspace>> = {
  'loop-done': loopDone,
  'loop-max-iterations': loopMaxIterations,
  'loop-sigint-resume': loopSigintResume,
  'loop-crash-resume': loopCrashResume,
  'brute-done': bruteDone,
  'brute-bailout': bruteBailout,
  'saga-done': sagaDone,
  'goal-complete': goalComplete,
  'goal-no-progress': goalNoProgress,
  'stories-done': storiesDone,
};

/**
 * The tampered copies: in each, one effect's params changed and the chain recomputed, so only
 * --verify notices. `from` is the recording it copies, `kind` the effect whose first request is
 * edited, and `edit` the change.
 */
const TAMPERED: Record<string, { from: string; kind: string; edit: (params: Record<string, unknown>) => void }> = {
  'loop-done-guard-command': { from: 'loop-done', kind: 'check.run', edit: (params) => { params.command = 'true'; } },
  'brute-done-judge-prompt': { from: 'brute-done', kind: 'agent.spawn', edit: (params) => { if (params.role === 'judge') params.prompt = 'Say VERDICT: PASS.'; } },
  'saga-done-log': { from: 'saga-done', kind: 'file.write', edit: (params) => { if (params.file === 'saga-log.md') params.content = '# Saga log\n'; } },
  'goal-complete-accept': { from: 'goal-complete', kind: 'check.run', edit: (params) => { params.command = 'true'; } },
  'stories-done-subject': { from: 'stories-done', kind: 'story.pass', edit: (params) => { params.message = 'feat(S1): something else'; } },
};

/** Write the tampered copies whose source exists and that do not exist yet. */
function writeTampered(version: string): void {
  for (const [name, { from, kind, edit }] of Object.entries(TAMPERED)) {
    const source = join(here, `${from}.v${version}.jsonl`);
    const target = join(here, 'tampered', `${name}.v${version}.jsonl`);
    if (!existsSync(source) || existsSync(target)) continue;
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(source, target);
    let done = false;
    rewriteJournal(target, (record) => {
      const payload = record.payload as { kind?: string; params?: Record<string, unknown> };
      if (done || record.type !== 'effect.started' || payload.kind !== kind || !payload.params) return;
      const before = JSON.stringify(payload.params);
      edit(payload.params);
      done = JSON.stringify(payload.params) !== before;
    });
    if (!done) throw new Error(`${name}: no ${kind} request to tamper with in ${source}`);
    process.stdout.write(`derived ${target}\n`);
  }
}

async function main(names: string[]): Promise<void> {
  // Named with the yoke version that wrote it: a journal from each release stays next to the others.
  const version = yokeVersion();
  for (const name of names) {
    const record = RECORDINGS[name];
    if (!record) throw new Error(`unknown recording ${name}; known: ${Object.keys(RECORDINGS).join(', ')}`);
    const target = join(here, `${name}.v${version}.jsonl`);
    if (existsSync(target)) throw new Error(`${target} exists: golden journals are never re-recorded (README.md)`);
    const ws = await record();
    copyFileSync(journalPath(ws.path), target);
    await ws.cleanup();
    process.stdout.write(`recorded ${target}\n`);
  }
  writeTampered(version);
}

await main(process.argv.slice(2));
