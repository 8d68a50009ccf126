// The stories crash/replay property (fast-check, DESIGN §6 and §8, issue 12 "Done when"): random
// story outcomes per iteration (pass, a DONE that fails the story's check, IN_PROGRESS) and a few
// crashes — SIGKILL right after any journal record, or halfway through writing it; the first one
// aimed at a story's `story.pass` (before it runs, or torn on its completion: the commit made, its
// record lost) or anywhere — each followed by `yoke run`, with the built CLI, real git and a real
// shell agent. Compared with a pure model of §8 (selection, attempts, blocking, the end):
//   - the run ends with the model's exit code and reason;
//   - every story the model passes has exactly one `feat(<id>): <title>` commit, in the model's
//     order, with its trailers and its work, and no other story has one (no story passed twice);
//   - prd.yaml says `passes: true` for exactly those stories (nothing lost);
//   - `yoke replay --verify` passes.
// Each case is a few real `yoke run`s: numRuns is modest (YOKE_PROPERTY_RUNS raises it).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePrd } from '../../config/prd/parse-prd.js';
import { cleanupAfterEach } from '../support/e2e-cleanup.js';
import { journalPath, readJournal, type JournalRecord } from '../support/journal-records.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const leftovers = cleanupAfterEach();
const NUM_RUNS = Number(process.env.YOKE_PROPERTY_RUNS ?? 4);
const MAX_ITERATIONS = 6;
const MAX_STORY_ATTEMPTS = 2;

type Outcome = 'pass' | 'fail' | 'progress';

const STORIES = [
  { id: 'S1', title: 'Parser', priority: 1, dependsOn: [] as string[] },
  { id: 'S2', title: 'Printer', priority: 2, dependsOn: ['S1'] },
  { id: 'S3', title: 'Docs', priority: 3, dependsOn: [] as string[] },
];

const PRD = `stories:\n${STORIES.map((s) => [
  `  - id: ${s.id}`, `    title: ${s.title}`, `    priority: ${s.priority}`, `    depends-on: [${s.dependsOn.join(', ')}]`,
  '    acceptance:', `      - text: out-${s.id}.txt exists`, `        check: test -f out-${s.id}.txt`, '    passes: false',
].join('\n')).join('\n')}\n`;

/**
 * The agent: the story from its prompt, its move from `plan/<iteration>` (so a call made again after
 * a crash does the same thing): `pass` leaves the story's file and says DONE, `fail` says DONE
 * without it (the story's check fails), `progress` says IN_PROGRESS.
 */
const AGENT = `#!/bin/sh
story=$(grep -o '^### [A-Za-z0-9_-]*:' | head -1 | sed 's/^### //; s/:$//')
move=$(cat "$SIDE/plan/$YOKE_ITERATION" 2>/dev/null || echo pass)
echo "$YOKE_ITERATION $story $move" >> "$SIDE/calls"
echo "iteration $YOKE_ITERATION" >> work.log
case "$move" in
  pass) echo "work for $story" > "out-$story.txt"; printf 'STATUS: DONE\\nDecision: %s written\\n' "$story" > .loop/notes.md ;;
  fail) printf 'STATUS: DONE\\nclaimed too early\\n' > .loop/notes.md ;;
  *) printf 'STATUS: IN_PROGRESS\\n' > .loop/notes.md ;;
esac
`;

/** The pure model of §8 for this prd.yaml: which stories pass, in which order, and how the run ends. */
function model(plan: readonly Outcome[]): { passed: string[]; exitCode: number; reason: string } {
  const passed: string[] = [];
  const attempts = new Map<string, number>();
  for (let iteration = 1; ; iteration += 1) {
    const ready = STORIES.filter((s) => !passed.includes(s.id) && s.dependsOn.every((d) => passed.includes(d)));
    const story = ready[0];
    if (!story) return { passed, exitCode: 0, reason: 'stories-done' };
    const move = plan[iteration - 1] ?? 'pass';
    if (move === 'pass') passed.push(story.id);
    if (move === 'fail') {
      const n = (attempts.get(story.id) ?? 0) + 1;
      attempts.set(story.id, n);
      if (n >= MAX_STORY_ATTEMPTS) return { passed, exitCode: 1, reason: 'story-blocked' };
    }
    if (passed.length === STORIES.length) return { passed, exitCode: 0, reason: 'stories-done' };
    if (iteration >= MAX_ITERATIONS) return { passed, exitCode: 1, reason: 'max-iterations' };
  }
}

async function storiesWorkspace(plan: readonly Outcome[]): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    '.loop/yoke.conf': `${['mode stories', `agent cmd SIDE=${paths.sideDir} sh ${paths.side('agent.sh')}`, `max-iterations ${MAX_ITERATIONS}`, `max-story-attempts ${MAX_STORY_ATTEMPTS}`].join('\n')}\n`,
    '.loop/prd.yaml': PRD,
    '.loop/protocol.md': '# Protocol\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  }));
  leftovers.workspaces.push(ws);
  await writeFile(ws.side('agent.sh'), AGENT);
  await mkdir(ws.side('plan'), { recursive: true });
  for (const [i, move] of plan.entries()) await writeFile(ws.side(`plan/${i + 1}`), `${move}\n`);
  return ws;
}

/** Where the first crash lands: a story.pass's start (it never ran), its completion torn (commit made, record lost), or any record. */
type Aim = { kind: 'pass-start' | 'pass-torn'; nth: number } | { kind: 'record'; seq: number; torn: boolean };

/** The seq the first crash aims at, from a run of the same plan without crashes (identical up to the first crash). */
function aimedSeq(aim: Aim, dry: readonly JournalRecord[]): { seq: number; torn: boolean } | null {
  if (aim.kind === 'record') return { seq: Math.min(aim.seq, dry.length), torn: aim.torn };
  const keys = dry.filter((r) => r.type === 'effect.started' && (r.payload as { kind: string }).kind === 'story.pass');
  const start = keys[aim.nth % Math.max(keys.length, 1)];
  if (!start) return null;
  if (aim.kind === 'pass-start') return { seq: start.seq, torn: false };
  const key = (start.payload as { key: string }).key;
  const completed = dry.find((r) => r.type === 'effect.completed' && (r.payload as { key: string }).key === key);
  return completed ? { seq: completed.seq, torn: true } : null;
}

/** Complete lines in the journal (a torn last line, left by a crash, is not one). */
async function journaledCount(ws: Workspace): Promise<number> {
  const text = await readFile(journalPath(ws.path), 'utf8').catch(() => '');
  return text.split('\n').length - 1;
}

/**
 * Whether the run has ended: yoke exited, or it was killed after journaling `run.finished` (a crash
 * after the last record). Another `yoke run` then would start a new run, not resume this one.
 */
async function ended(ws: Workspace, result: Awaited<ReturnType<typeof runYoke>>): Promise<boolean> {
  if (result.signal === undefined) return true;
  const complete = (await readFile(journalPath(ws.path), 'utf8').catch(() => '')).split('\n').slice(0, -1);
  return complete.some((line) => (JSON.parse(line) as JournalRecord).type === 'run.finished');
}

const failpoint = (crash: { seq: number; torn: boolean }): Record<string, string> => ({ YOKE_FAILPOINT: `${crash.torn ? 'torn-at' : 'crash-after'}:${crash.seq}` });

async function checkCase(plan: Outcome[], aim: Aim, later: Array<{ offset: number; torn: boolean }>): Promise<void> {
  const expected = model(plan);
  const dry = await storiesWorkspace(plan);
  const dryRun = await runYoke(dry, ['run', '--quiet']);
  expect(dryRun.exitCode, dryRun.stderr).toBe(expected.exitCode);
  const dryRecords = await readJournal(dry);

  const ws = await storiesWorkspace(plan);
  const crashes = [aimedSeq(aim, dryRecords)];
  let finished = false;
  let last: Awaited<ReturnType<typeof runYoke>> | null = null;
  for (let i = 0; i <= later.length && !finished; i += 1) {
    const journaled = i === 0 ? 0 : await journaledCount(ws);
    const crash = i === 0 ? crashes[0] : { seq: journaled + (later[i - 1]?.offset ?? 1), torn: later[i - 1]?.torn ?? false };
    last = await runYoke(ws, ['run', '--quiet'], crash ? { env: failpoint(crash) } : {});
    finished = await ended(ws, last);
  }
  for (let resumes = 0; !finished; resumes += 1) {
    if (resumes > 4) throw new Error(`the run never finished: ${last?.stderr ?? ''}`);
    last = await runYoke(ws, ['run', '--quiet']);
    finished = await ended(ws, last);
  }
  const records = await readJournal(ws);

  // how it ended (a kill right after `run.finished` leaves a finished run and no exit code: the journal says how it ended)
  if (last?.signal === undefined) expect(last?.exitCode, last?.stderr).toBe(expected.exitCode);
  expect(records.filter((r) => r.type === 'run.finished').map((r) => r.payload)).toEqual([expect.objectContaining({ exitCode: expected.exitCode, reason: expected.reason })]);
  // one commit per passed story, in order, with its trailers and its work; none for the others
  const feats = (await ws.gitLog()).filter((entry) => entry.subject.startsWith('feat(')).reverse();
  expect(feats.map((entry) => entry.subject)).toEqual(expected.passed.map((id) => `feat(${id}): ${STORIES.find((s) => s.id === id)?.title ?? ''}`));
  for (const [i, entry] of feats.entries()) {
    const id = expected.passed[i] ?? '';
    expect(entry.message).toMatch(new RegExp(`Yoke-Story: ${id}\\nYoke-Run: [0-9A-Z]{26}\\nYoke-Effect: \\S+`));
    const files = (await ws.git(['show', '--name-only', '--format=', entry.sha])).split('\n');
    expect(files).toEqual(expect.arrayContaining(['.loop/prd.yaml', `out-${id}.txt`]));
  }
  // prd.yaml: passes: true for exactly the passed stories, in the file and in the last commit
  const stories = parsePrd(await ws.read('.loop/prd.yaml'), '.loop/prd.yaml').stories ?? [];
  expect(stories.filter((s) => s.passes).map((s) => s.id).sort()).toEqual([...expected.passed].sort());
  if (feats.length > 0) expect((await ws.git(['show', 'HEAD:.loop/prd.yaml'])).trimEnd()).toBe((await ws.read('.loop/prd.yaml')).trimEnd());
  // the journal says so too: one completed story.pass per passed story
  const passKeys = new Map(records.filter((r) => r.type === 'effect.started' && (r.payload as { kind: string }).kind === 'story.pass')
    .map((r) => [(r.payload as { key: string }).key, (r.payload as { params: { story: string } }).params.story]));
  const completedStories = records.filter((r) => r.type === 'effect.completed' && passKeys.has((r.payload as { key: string }).key)).map((r) => passKeys.get((r.payload as { key: string }).key));
  expect(completedStories).toEqual(expected.passed);
  const verify = await runYoke(ws, ['replay', '--verify']);
  expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  await ws.cleanup();
  await dry.cleanup();
}

const outcome = fc.constantFrom<Outcome>('pass', 'pass', 'fail', 'progress');
const aim: fc.Arbitrary<Aim> = fc.oneof(
  fc.record({ kind: fc.constantFrom('pass-start' as const, 'pass-torn' as const), nth: fc.nat(2) }),
  fc.record({ kind: fc.constant('record' as const), seq: fc.integer({ min: 2, max: 160 }), torn: fc.boolean() }),
);
const later = fc.array(fc.record({ offset: fc.integer({ min: 1, max: 40 }), torn: fc.boolean() }), { maxLength: 2 });

describe('stories crash/replay property', () => {
  it(`random story outcomes and crashes after any record (one aimed at a story.pass): no story passed twice, nothing lost, replay --verify passes (${NUM_RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(outcome, { minLength: 1, maxLength: MAX_ITERATIONS }), aim, later, async (plan, first, rest) => checkCase(plan, first, rest)),
      { numRuns: NUM_RUNS, endOnFailure: true },
    );
  }, 900_000);

  it('a kill right after the last record (run.finished) leaves a finished run: no second run.finished, replay --verify passes', async () => {
    // The counterexample CI found: the aim is capped at the dry run's last record, so the kill lands after run.finished.
    await checkCase(['pass', 'fail', 'fail', 'pass', 'progress'], { kind: 'record', seq: 1_000, torn: false }, []);
  }, 300_000);
});
