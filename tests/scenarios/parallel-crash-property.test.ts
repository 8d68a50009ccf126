// The parallel lanes crash/replay property (fast-check, DESIGN §6 and §10, issue 16 "Crash safety"):
// random lane outcomes per story turn (pass, a DONE that fails the story's check, IN_PROGRESS), or a
// conflicting pair of candidates (a rejection and a fresh attempt), and a few crashes — SIGKILL right
// after any journal record, or halfway through writing it; the first one aimed at a lane effect
// (a worker call, a candidate's commit or rebase, a story landing, a worktree made or removed) or
// anywhere — each followed by `yoke run`, with the built CLI, real git worktrees and a real shell
// agent in two lanes. Compared with a pure model of §10 for independent stories (`on-story-blocked
// skip`, so which stories pass does not depend on which lane was faster):
//   - the run ends with the model's exit code and reason, once;
//   - every story the model passes has exactly one `feat(<id>)` commit with its trailers and its
//     work, one completed `story.land`, and `passes: true`; no other story has any (none passed twice);
//   - no agent call whose completion was journaled ran again, and no agent is left running;
//   - each story got one worktree per attempt integration started it on; landed stories' worktrees
//     and branches are gone, blocked stories' are kept (nothing of theirs is lost);
//   - `yoke replay --verify` passes.
// Each case is a few real `yoke run`s: numRuns is modest (YOKE_PROPERTY_RUNS raises it).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePrd } from '../../config/prd/parse-prd.js';
import { cleanupAfterEach } from '../support/e2e-cleanup.js';
import { journalPath, readJournal, type JournalRecord } from '../support/journal-records.js';
import { isAlive } from '../support/process-liveness.js';
import { laneWorktree } from '../support/parallel-workspace.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';
import type { YokeResult } from '../support/yoke-process.js';

const leftovers = cleanupAfterEach();
const NUM_RUNS = Number(process.env.YOKE_PROPERTY_RUNS ?? 4);
const MAX_STORY_ATTEMPTS = 2;
/** High enough never to end a case: the model leaves turn counting out. */
const MAX_ITERATIONS = 40;
const RUN_MS = 60_000;

type Move = 'pass' | 'fail' | 'progress';
/** Each story's moves for its turns, in order (then `pass`); `conflict`: every story passes and appends to one shared file. */
type Plan = { moves: Record<string, Move[]>; conflict: boolean };

const STORIES = [
  { id: 'S1', title: 'Parser', dependsOn: [] as string[] },
  { id: 'S2', title: 'Printer', dependsOn: [] as string[] },
  { id: 'S3', title: 'Docs', dependsOn: ['S1'] },
];

const PRD = `stories:\n${STORIES.map((s) => [
  `  - id: ${s.id}`, `    title: ${s.title}`, `    depends-on: [${s.dependsOn.join(', ')}]`,
  '    acceptance:', `      - text: out-${s.id}.txt exists`, `        check: test -f out-${s.id}.txt`, '    passes: false',
].join('\n')).join('\n')}\n`;

/**
 * The agent: the story from its prompt; its move from `plan/<story>`, line k for the story's k-th
 * turn (turns told apart by $YOKE_ITERATION, which a call made again after a crash keeps, so it does
 * the same thing). `pass` leaves the story's file (and, with $SHARED, appends the story to shared.txt
 * once) and says DONE, `fail` says DONE without it (its check fails), `progress` says IN_PROGRESS.
 */
const AGENT = `#!/bin/sh
story=$(grep -o '^### [A-Za-z0-9_-]*:' | head -1 | sed 's/^### //; s/:$//')
# a prompt cut short (yoke killed while it wrote it, this call orphaned) names no story: do nothing
[ -n "$story" ] || exit 1
echo "$YOKE_CALL $story $$" >> "$SIDE/calls"
grep -qx "$YOKE_ITERATION" "$SIDE/turns-$story" 2>/dev/null || echo "$YOKE_ITERATION" >> "$SIDE/turns-$story"
turn=$(grep -nx "$YOKE_ITERATION" "$SIDE/turns-$story" | cut -d: -f1)
move=$(sed -n "\${turn}p" "$SIDE/plan/$story" 2>/dev/null)
case "$move" in
  fail) printf 'STATUS: DONE\\nclaimed too early\\n' > .loop/notes.md ;;
  progress) printf 'STATUS: IN_PROGRESS\\n' > .loop/notes.md ;;
  *)
    echo "work for $story" > "out-$story.txt"
    if [ -n "$SHARED" ]; then grep -qx "$story" shared.txt 2>/dev/null || echo "$story" >> shared.txt; fi
    printf 'STATUS: DONE\\nDecision: %s written\\n' "$story" > .loop/notes.md ;;
esac
`;

/** The pure model of §10 for these independent stories: which pass, which are blocked, how the run ends. */
function model(plan: Plan): { passed: string[]; blocked: string[]; exitCode: number; reason: string } {
  const passed: string[] = [];
  const blocked: string[] = [];
  for (const story of STORIES) {
    if (!story.dependsOn.every((d) => passed.includes(d))) continue;
    let fails = 0;
    for (const move of plan.conflict ? [] : plan.moves[story.id] ?? []) {
      if (move === 'pass') break;
      if (move === 'fail') fails += 1;
      if (fails >= MAX_STORY_ATTEMPTS) break;
    }
    (fails >= MAX_STORY_ATTEMPTS ? blocked : passed).push(story.id);
  }
  if (passed.length === STORIES.length) return { passed, blocked, exitCode: 0, reason: 'stories-done' };
  return { passed, blocked, exitCode: 1, reason: blocked.length > 0 ? 'story-blocked' : 'stories-blocked' };
}

async function parallelWorkspace(plan: Plan): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    '.loop/yoke.conf': `${[
      'mode stories', `agent cmd ${plan.conflict ? 'SHARED=1 ' : ''}SIDE=${paths.sideDir} sh ${paths.side('agent.sh')}`, 'parallel 2',
      `max-iterations ${MAX_ITERATIONS}`, `max-story-attempts ${plan.conflict ? 9 : MAX_STORY_ATTEMPTS}`, 'on-story-blocked skip',
    ].join('\n')}\n`,
    '.loop/prd.yaml': PRD,
    '.loop/protocol.md': '# Protocol\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  }));
  leftovers.workspaces.push(ws);
  await writeFile(ws.side('agent.sh'), AGENT);
  await mkdir(ws.side('plan'), { recursive: true });
  for (const [story, moves] of Object.entries(plan.moves)) await writeFile(ws.side(`plan/${story}`), plan.conflict ? '' : moves.map((m) => `${m}\n`).join(''));
  return ws;
}

const AIMED = ['agent.spawn', 'candidate.commit', 'candidate.rebase', 'candidate.reject', 'story.land', 'worktree.create', 'worktree.remove'] as const;
/** Where the first crash lands: the start of a lane effect (it never ran), its completion torn (done, record lost), or any record. */
type Aim = { kind: (typeof AIMED)[number]; nth: number; torn: boolean } | { kind: 'record'; seq: number; torn: boolean };

const kindOf = (record: JournalRecord): string => (record.payload as { kind?: string }).kind ?? '';
const keyOf = (record: JournalRecord): string => (record.payload as { key?: string }).key ?? '';
const storyOf = (record: JournalRecord): string => (record.payload as { params: { story?: string; lane?: string } }).params.story ?? '';

/**
 * The seq the first crash aims at, from a run of the same plan without crashes. Lanes make the order
 * of records depend on timing, so this is where such an effect most likely is, not where it must be.
 */
function aimedSeq(aim: Aim, dry: readonly JournalRecord[]): { seq: number; torn: boolean } | null {
  if (aim.kind === 'record') return { seq: Math.min(aim.seq, dry.length), torn: aim.torn };
  const kind = aim.kind;
  const starts = dry.filter((r) => r.type === 'effect.started' && kindOf(r) === kind);
  const start = starts[aim.nth % Math.max(starts.length, 1)];
  if (!start) return null;
  if (!aim.torn) return { seq: start.seq, torn: false };
  const completed = dry.find((r) => r.type === 'effect.completed' && keyOf(r) === keyOf(start));
  return completed ? { seq: completed.seq, torn: true } : null;
}

/** Complete lines in the journal (a torn last line, left by a crash, is not one). */
async function journaledCount(ws: Workspace): Promise<number> {
  const text = await readFile(journalPath(ws.path), 'utf8').catch(() => '');
  return text.split('\n').length - 1;
}

/** yoke exited, or was killed after journaling `run.finished`: another `yoke run` would start a new run. */
async function ended(ws: Workspace, result: YokeResult): Promise<boolean> {
  if (result.signal === undefined) return true;
  const complete = (await readFile(journalPath(ws.path), 'utf8').catch(() => '')).split('\n').slice(0, -1);
  return complete.some((line) => (JSON.parse(line) as JournalRecord).type === 'run.finished');
}

const failpoint = (crash: { seq: number; torn: boolean }): Record<string, string> => ({ YOKE_FAILPOINT: `${crash.torn ? 'torn-at' : 'crash-after'}:${crash.seq}` });

async function checkCase(plan: Plan, aim: Aim, later: Array<{ offset: number; torn: boolean }>): Promise<void> {
  const expected = model(plan);
  const dry = await parallelWorkspace(plan);
  const dryRun = await runYoke(dry, ['run', '--quiet'], { timeoutMs: RUN_MS });
  expect(dryRun.exitCode, dryRun.stderr).toBe(expected.exitCode);
  const crashes = [aimedSeq(aim, await readJournal(dry))];
  await dry.cleanup();

  const ws = await parallelWorkspace(plan);
  let finished = false;
  let last: YokeResult | null = null;
  for (let i = 0; i <= later.length && !finished; i += 1) {
    const crash = i === 0 ? crashes[0] : { seq: (await journaledCount(ws)) + (later[i - 1]?.offset ?? 1), torn: later[i - 1]?.torn ?? false };
    last = await runYoke(ws, ['run', '--quiet'], { timeoutMs: RUN_MS, ...(crash ? { env: failpoint(crash) } : {}) });
    finished = await ended(ws, last);
  }
  for (let resumes = 0; !finished; resumes += 1) {
    if (resumes > 4) throw new Error(`the run never finished: ${last?.stderr ?? ''}`);
    last = await runYoke(ws, ['run', '--quiet'], { timeoutMs: RUN_MS });
    finished = await ended(ws, last);
  }
  const records = await readJournal(ws);

  // how it ended (a kill right after `run.finished` leaves no exit code: the journal says how it ended)
  if (last?.signal === undefined) expect(last?.exitCode, last?.stderr).toBe(expected.exitCode);
  expect(records.filter((r) => r.type === 'run.finished').map((r) => r.payload)).toEqual([expect.objectContaining({ exitCode: expected.exitCode, reason: expected.reason })]);
  // one commit per passed story with its trailers and its work; none for the others
  const feats = (await ws.gitLog()).filter((entry) => entry.subject.startsWith('feat('));
  expect(feats.map((entry) => entry.subject).sort()).toEqual(expected.passed.map((id) => `feat(${id}): ${STORIES.find((s) => s.id === id)?.title ?? ''}`).sort());
  for (const entry of feats) {
    const id = /^feat\((S\d)\)/.exec(entry.subject)?.[1] ?? '';
    expect(entry.message).toMatch(new RegExp(`Yoke-Story: ${id}\\nYoke-Run: [0-9A-Z]{26}\\nYoke-Effect: \\S+`));
    expect((await ws.git(['show', '--name-only', '--format=', entry.sha])).split('\n')).toEqual(expect.arrayContaining(['.loop/prd.yaml', `out-${id}.txt`]));
  }
  if (plan.conflict) expect((await ws.read('shared.txt')).split('\n').filter(Boolean).sort()).toEqual(expected.passed);
  // prd.yaml: passes: true for exactly the passed stories; one completed story.land each
  const stories = parsePrd(await ws.read('.loop/prd.yaml'), '.loop/prd.yaml').stories ?? [];
  expect(stories.filter((s) => s.passes).map((s) => s.id).sort()).toEqual(expected.passed);
  const lands = new Map(records.filter((r) => r.type === 'effect.started' && kindOf(r) === 'story.land').map((r) => [keyOf(r), storyOf(r)]));
  expect(records.filter((r) => r.type === 'effect.completed' && lands.has(keyOf(r))).map((r) => lands.get(keyOf(r))).sort()).toEqual(expected.passed);
  // no completed agent call ran twice (each call key once in the agent's log), and no agent is left running
  const calls = (await ws.sideLines('calls')).map((line) => line.split(' '));
  const keys = calls.map(([key]) => key ?? '');
  expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  for (const r of records) if (r.type === 'effect.completed' && kindOf(r) === 'agent.spawn') expect(keys).toContain(keyOf(r));
  for (const [, , pid] of calls) expect(isAlive(Number(pid)), `agent ${pid}`).toBe(false);
  // a worktree per attempt (the first, and one after each rejection); landed ones removed, blocked ones kept
  for (const story of STORIES) {
    const creates = new Set(records.filter((r) => r.type === 'effect.started' && kindOf(r) === 'worktree.create' && storyOf(r) === story.id).map(keyOf));
    const rejects = records.filter((r) => r.type === 'effect.started' && kindOf(r) === 'candidate.reject' && storyOf(r) === story.id);
    const started = expected.passed.includes(story.id) || expected.blocked.includes(story.id);
    expect(creates.size, story.id).toBe(started ? 1 + new Set(rejects.map(keyOf)).size : 0);
  }
  // each lane's worktree under the state home's folder of this project
  const lanes = dirname(laneWorktree(ws, 'S1'));
  const worktrees = (await ws.git(['worktree', 'list', '--porcelain'])).split('\n').filter((line) => line.startsWith(`worktree ${lanes}/`)).map((line) => line.slice(`worktree ${lanes}/`.length)).sort();
  expect(worktrees).toEqual(expected.blocked);
  expect((await ws.git(['branch', '--list', '--format=%(refname:short)', 'yoke/*'])).split('\n').filter(Boolean).map((b) => b.split('/').pop()).sort()).toEqual(expected.blocked);
  expect(await ws.git(['status', '--porcelain', '--untracked-files=no'])).toBe('');
  const verify = await runYoke(ws, ['replay', '--verify']);
  expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  await ws.cleanup();
}

const move = fc.constantFrom<Move>('pass', 'fail', 'fail', 'progress');
const moves = fc.array(move, { maxLength: 3 });
const plan: fc.Arbitrary<Plan> = fc.record({ moves: fc.record({ S1: moves, S2: moves, S3: moves }), conflict: fc.boolean() });
const aim: fc.Arbitrary<Aim> = fc.oneof(
  fc.record({ kind: fc.constantFrom(...AIMED), nth: fc.nat(3), torn: fc.boolean() }),
  fc.record({ kind: fc.constant('record' as const), seq: fc.integer({ min: 2, max: 200 }), torn: fc.boolean() }),
);
const later = fc.array(fc.record({ offset: fc.integer({ min: 1, max: 40 }), torn: fc.boolean() }), { maxLength: 2 });

describe('parallel lanes crash/replay property', () => {
  it(`random lane outcomes or a conflicting pair, and crashes after any record (one aimed at a lane effect): nothing lost, nothing doubled, replay --verify passes (${NUM_RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(plan, aim, later, async (p, first, rest) => checkCase(p, first, rest)),
      { numRuns: NUM_RUNS, endOnFailure: true },
    );
  }, 900_000);
});
