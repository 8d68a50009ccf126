// Records the golden journals: real runs of the built CLI with the scripted fake agent, in throwaway
// git projects. Run it only to ADD a journal (`npm run build && npx tsx tests/golden/record-golden.ts
// <name>`); an existing golden journal is never re-recorded or edited (see README.md).
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rewriteJournal } from '../support/journal-edit.js';
import { agentCalls, writeScript, type FakeScript } from '../support/fake-agent-script.js';
import { journalPath, readJournal } from '../support/journal-records.js';
import { confHead } from '../support/loop-conf.js';
import { makeLoopWorkspace } from '../support/loop-workspace.js';
import { waitUntil } from '../support/process-liveness.js';
import { runYoke, startYoke, type Workspace } from '../support/workspace.js';

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
};

/** The tampered copy: one effect's params changed and the chain recomputed, so only --verify notices. */
function writeTampered(): void {
  const source = join(here, 'loop-done.jsonl');
  const target = join(here, 'tampered', 'loop-done-guard-command.jsonl');
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(source, target);
  let done = false;
  rewriteJournal(target, (record) => {
    const payload = record.payload as { kind?: string; params?: { command?: string } };
    if (!done && record.type === 'effect.started' && payload.kind === 'check.run' && payload.params) {
      payload.params.command = 'true';
      done = true;
    }
  });
}

async function main(names: string[]): Promise<void> {
  for (const name of names) {
    const record = RECORDINGS[name];
    if (!record) throw new Error(`unknown recording ${name}; known: ${Object.keys(RECORDINGS).join(', ')}`);
    const target = join(here, `${name}.jsonl`);
    if (existsSync(target)) throw new Error(`${target} exists: golden journals are never re-recorded (README.md)`);
    const ws = await record();
    copyFileSync(journalPath(ws.path), target);
    await ws.cleanup();
    process.stdout.write(`recorded ${target}\n`);
  }
  if (!existsSync(join(here, 'tampered', 'loop-done-guard-command.jsonl')) && existsSync(join(here, 'loop-done.jsonl'))) writeTampered();
}

await main(process.argv.slice(2));
