// Parallel stories end to end (DESIGN §10, issue 16) against the bundle, with a scripted `cmd` agent:
// independent stories land as one gated commit each on the target; a conflicting pair ends with one
// passed and the other rejected (journaled), re-attempted on the new base, and passed; replay --verify
// passes; lanes' worktrees and branches are gone once their stories landed.
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournal } from '../support/journal-records.js';
import { laneWorktree, makeParallelWorkspace } from '../support/parallel-workspace.js';
import { runYoke, startYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 180_000;
/** A whole parallel run may take longer than runYoke's default under a loaded CI machine. */
const RUN_MS = TIMEOUT - 20_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

async function parallelWorkspace(ids: string[], env = ''): Promise<Workspace> {
  const ws = await makeParallelWorkspace(ids, env);
  workspaces.push(ws);
  return ws;
}

describe('parallel stories', () => {
  it('lands four independent stories as four gated commits on the target, with passes: true and decision entries', async () => {
    const ws = await parallelWorkspace(['S1', 'S2', 'S3', 'S4']);
    const result = await runYoke(ws, ['run', '--parallel', '4'], { timeoutMs: RUN_MS });
    expect(result.exitCode, result.stderr).toBe(0);
    const calls = await ws.sideLines('calls');
    expect(calls.map((line) => line.split(' ')[0]).sort()).toEqual(['S1', 'S2', 'S3', 'S4']);
    // each worker ran in its own worktree under the state home, outside the project and its .git/
    // (Claude refuses writes under a .git/ folder), its prompt opened by the context layer's block
    for (const line of calls) expect(line).toBe(`${line.split(' ')[0]} ${laneWorktree(ws, line.split(' ')[0]!)}`);
    for (const id of ['S1', 'S2', 'S3', 'S4']) {
      const prompt = (await ws.sideText(`prompt-${id}.md`)) ?? '';
      expect(prompt, 'the lane\'s prompt names its loop folder as its working directory\'s').toContain('The loop folder is\n`.loop` (');
      expect(prompt.indexOf('Every story leaves its out file.'), `${id}'s prompt carries PROJECT.md`).toBeGreaterThan(-1);
      expect(prompt.indexOf('Every story leaves its out file.')).toBeLessThan(prompt.indexOf(`### ${id}:`));
    }
    const log = await ws.gitLog();
    const feats = log.filter((entry) => entry.subject.startsWith('feat('));
    expect(feats.map((entry) => entry.subject).sort()).toEqual(['feat(S1): Story S1', 'feat(S2): Story S2', 'feat(S3): Story S3', 'feat(S4): Story S4']);
    for (const entry of feats) {
      const id = /feat\((S\d)\)/.exec(entry.subject)?.[1] ?? '';
      expect(entry.message).toMatch(new RegExp(`Yoke-Story: ${id}\\nYoke-Run: [0-9A-Z]{26}\\nYoke-Effect: \\S+`));
      const files = (await ws.git(['show', '--name-only', '--format=', entry.sha])).split('\n').filter(Boolean).sort();
      expect(files).toEqual(['.loop/prd.yaml', '.yoke/context/DECISIONS.md', `out-${id}.txt`]);
    }
    expect((await ws.read('.loop/prd.yaml')).match(/passes: true/g)).toHaveLength(4);
    expect((await ws.read('.yoke/context/DECISIONS.md')).match(/^## \d{4}-\d{2}-\d{2} — S\d: Story S\d\nwrote out-S\d\.txt$/gm)).toHaveLength(4);
    // the main working tree followed the target and is clean; the lanes' worktrees and branches are gone
    expect(await ws.git(['status', '--porcelain', '--untracked-files=no'])).toBe('');
    expect(await ws.git(['worktree', 'list', '--porcelain'])).not.toMatch(/yoke\/worktrees/);
    expect(existsSync(dirname(laneWorktree(ws, 'S1'))), 'the project\'s folder of lane worktrees went with its last lane').toBe(false);
    expect(await ws.git(['branch', '--list', 'yoke/*'])).toBe('');
    const records = await readJournal(ws);
    const creates = records.filter((record) => record.type === 'effect.started' && (record.payload as { kind: string }).kind === 'worktree.create');
    expect(creates).toHaveLength(4);
    for (const record of creates) expect((record.payload as { params: { reason: string } }).params.reason).toMatch(/ready story with the lowest priority/);
    expect(records.find((record) => record.type === 'run.finished')?.payload).toMatchObject({ exitCode: 0, reason: 'stories-done' });
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
    const stories = await runYoke(ws, ['stories', '--json']);
    expect(JSON.parse(stories.stdout)).toMatchObject({ passed: 4, total: 4, retained: [] });
    // the timeline shows each lane's own step (the regions that changed), never all nine regions at once
    const replay = await runYoke(ws, ['replay']);
    expect(replay.exitCode, replay.stderr).toBe(0);
    // (each worker's exit goes through the spec restore first)
    for (const lane of ['lane1', 'lane2', 'lane3', 'lane4']) expect(replay.stdout).toMatch(new RegExp(`^ +\\d+ +\\+[\\d.]+s  ${lane} working → restoringAfterWorker +AGENT_EXITED`, 'm'));
    expect(replay.stdout).toMatch(/integration rebasing → checking|integration checking → /);
    expect(replay.stdout).not.toMatch(/lane5\.idle/);
  }, TIMEOUT);

  it('`yoke status` shows each lane at work: its story, its step, how long, and the agent\'s silence', async () => {
    const ws = await parallelWorkspace(['S1', 'S2'], 'SLEEP=5 ');
    const running = startYoke(ws, ['run', '--parallel', '2'], { timeoutMs: RUN_MS });
    type Lane = { story: string; phase: string; forMs: number; silentMs: number | null };
    let lanes: Lane[] = [];
    let text = '';
    const until = Date.now() + 90_000;
    while (Date.now() < until) {
      const status = await runYoke(ws, ['status', '--json']);
      lanes = status.exitCode === 0 ? (JSON.parse(status.stdout) as { lanes?: Lane[] }).lanes ?? [] : [];
      if (lanes.filter((lane) => lane.phase === 'worker agent').length === 2) {
        text = (await runYoke(ws, ['status'])).stdout;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(lanes.map((lane) => `${lane.story} ${lane.phase}`)).toEqual(['S1 worker agent', 'S2 worker agent']);
    for (const lane of lanes) expect(lane.silentMs, 'an agent step reports its silence').toEqual(expect.any(Number));
    expect(text).toMatch(/^ {2}lane S1 +\S.* for \d+s/m);
    expect(text).toMatch(/^ {2}lane S2 +\S.* for \d+s/m);
    const result = await running;
    expect(result.exitCode, result.stderr).toBe(0);
    const after = JSON.parse((await runYoke(ws, ['status', '--json'])).stdout) as { lanes: Lane[]; liveness: string };
    expect(after).toMatchObject({ liveness: 'finished', lanes: [] });
  }, TIMEOUT);

  it('admits every lane agent call against the run\'s budgets: over the ceiling the lanes wait and the run pauses; `yoke budget` lets it go on', async () => {
    const ws = await parallelWorkspace(['S1', 'S2', 'S3']);
    await writeFile(ws.abs('.loop/yoke.conf'), `${await ws.read('.loop/yoke.conf')}budget attempts 2\n`);
    await ws.git(['commit', '-qam', 'two attempts']);
    const held = await runYoke(ws, ['run', '--parallel', '2'], { timeoutMs: RUN_MS });
    expect(held.exitCode, held.stderr).toBe(1);
    expect(held.stderr).toMatch(/held by its attempts budget: 2 of 2 spent; raise it with `yoke budget --attempts <value>`/);
    expect(await ws.sideLines('calls')).toHaveLength(2);
    const paused = (await readJournal(ws)).filter((record) => record.type === 'run.paused');
    expect(paused.map((record) => (record.payload as { reason: string }).reason)).toEqual(['budget:attempts']);
    expect((await runYoke(ws, ['budget', '--attempts', '3'])).exitCode).toBe(0);
    const more = await runYoke(ws, ['run'], { timeoutMs: RUN_MS });
    expect(more.exitCode, more.stderr).toBe(0);
    expect((await ws.sideLines('calls')).map((line) => line.split(' ')[0]).sort()).toEqual(['S1', 'S2', 'S3']);
    expect((await ws.gitLog()).filter((entry) => entry.subject.startsWith('feat(')).map((entry) => entry.subject).sort()).toEqual(['feat(S1): Story S1', 'feat(S2): Story S2', 'feat(S3): Story S3']);
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('runs the tamper check around every lane agent call: a lane agent that writes the journal stops the run (exit 3), yoke keeps its own journal, and the run resumes', async () => {
    // one story: no other lane appends to the journal while S1's agent runs (an append would find
    // the change first and stop the run at the journal's own fence, exit 3 too, without the put-back)
    const ws = await parallelWorkspace(['S1'], 'FORGE=1 ');
    const stopped = await runYoke(ws, ['run', '--parallel', '2'], { timeoutMs: RUN_MS });
    expect(stopped.exitCode, stopped.stderr).toBe(3);
    expect(stopped.stderr).toContain('was changed while the agent ran');
    const kept = readdirSync(ws.abs('.loop/.journal')).filter((name) => name.startsWith('journal.jsonl.tampered-'));
    expect(kept).toHaveLength(1);
    expect(await ws.read('.loop/.journal/journal.jsonl')).not.toContain('"forged"');
    const status = await runYoke(ws, ['status']);
    expect(status.stdout).toMatch(/stopped +stopped by the tamper check: /);
    const resumed = await runYoke(ws, ['run'], { timeoutMs: RUN_MS });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect((await ws.gitLog()).filter((entry) => entry.subject.startsWith('feat(')).map((entry) => entry.subject)).toEqual(['feat(S1): Story S1']);
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('keeps the worktree of a blocked story, and `yoke stories` says which and why', async () => {
    const ws = await parallelWorkspace(['S1', 'S2']);
    // S2's check can never pass: after one failed attempt it is blocked, and its lane's work stays
    await writeFile(ws.abs('.loop/prd.yaml'), (await ws.read('.loop/prd.yaml')).replace('check: test -f out-S2.txt', 'check: test -f never-there.txt'));
    await writeFile(ws.abs('.loop/yoke.conf'), `${await ws.read('.loop/yoke.conf')}max-story-attempts 1\n`);
    await ws.git(['commit', '-qam', 'S2 cannot pass']);
    const result = await runYoke(ws, ['run', '--parallel', '2'], { timeoutMs: RUN_MS });
    expect(result.exitCode, result.stderr).toBe(1);
    // the lanes have no "current" story: the closing line names the blocked one
    expect(result.stdout + result.stderr).toContain('stopped: story S2 is blocked (on-story-blocked stop)');
    const stories = await runYoke(ws, ['stories', '--json']);
    expect(stories.exitCode, stories.stderr).toBe(0);
    const list = JSON.parse(stories.stdout) as { stories: Array<{ id: string; state: string }>; retained: Array<{ story: string; path: string; branch: string; why: string }> };
    expect(list.stories.map((row) => `${row.id} ${row.state}`)).toEqual(['S1 passed', 'S2 blocked']);
    expect(list.retained).toEqual([expect.objectContaining({ story: 'S2', path: laneWorktree(ws, 'S2'), branch: expect.stringMatching(/^yoke\/[0-9A-Z]{26}\/S2$/) as unknown })]);
    expect(list.retained[0]!.why).toMatch(/^its story is blocked: the lane's work is kept on branch yoke\/\S+\/S2 for you to look at$/);
    expect(await ws.git(['worktree', 'list', '--porcelain'])).toContain(`worktree ${laneWorktree(ws, 'S2')}\n`);
    const text = await runYoke(ws, ['stories']);
    expect(text.stdout).toContain(`retained worktrees (1):\n  S2  ${laneWorktree(ws, 'S2')}: its story is blocked`);
  }, TIMEOUT);

  it('a rate-limited lane call waits and calls again for the same turn; the other lane goes on', async () => {
    const ws = await parallelWorkspace(['S1', 'S2'], 'SETBACK=S2:rate-limited ');
    const result = await runYoke(ws, ['run', '--parallel', '2'], { timeoutMs: RUN_MS });
    expect(result.exitCode, result.stderr).toBe(0);
    expect((await ws.sideLines('calls')).map((line) => line.split(' ')[0]).sort()).toEqual(['S1', 'S2', 'S2']);
    const records = await readJournal(ws);
    const started = records.filter((record) => record.type === 'effect.started').map((record) => record.payload as { kind: string; params: { lane?: string; iteration?: number; story?: string } });
    const waits = started.filter((effect) => effect.kind === 'wait.until');
    expect(waits.map((effect) => effect.params.lane)).toEqual(['S2']);
    // the same turn called again: no iteration and no attempt spent on the rate limit
    const s2Calls = started.filter((effect) => effect.kind === 'agent.spawn' && effect.params.story === 'S2');
    expect(s2Calls).toHaveLength(2);
    expect(s2Calls[0]?.params.iteration).toBe(s2Calls[1]?.params.iteration);
    expect((await ws.gitLog()).filter((entry) => entry.subject.startsWith('feat(')).map((entry) => entry.subject).sort()).toEqual(['feat(S1): Story S1', 'feat(S2): Story S2']);
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('a lane whose agent cannot authenticate holds (the other lands); `yoke run` after the fix calls it again', async () => {
    const ws = await parallelWorkspace(['S1', 'S2'], 'SETBACK=S2:auth-error ');
    const held = await runYoke(ws, ['run', '--parallel', '2'], { timeoutMs: RUN_MS });
    expect(held.exitCode, held.stderr).toBe(1);
    expect(held.stdout + held.stderr).toMatch(/story S2: the worker agent could not authenticate: HTTP 401: invalid API key/);
    expect((await ws.gitLog()).filter((entry) => entry.subject.startsWith('feat(')).map((entry) => entry.subject)).toEqual(['feat(S1): Story S1']);
    const status = await runYoke(ws, ['status', '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/"lastStop":"held: agent:auth-error/);
    await writeFile(ws.side('auth-fixed'), '');
    const resumed = await runYoke(ws, ['run'], { timeoutMs: RUN_MS });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect((await ws.gitLog()).filter((entry) => entry.subject.startsWith('feat(')).map((entry) => entry.subject).sort()).toEqual(['feat(S1): Story S1', 'feat(S2): Story S2']);
    const records = await readJournal(ws);
    expect(records.filter((record) => record.type === 'event' && (record.payload as { event: { type: string } }).event.type === 'AGENT_RETRY')).toHaveLength(1);
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('rejects the second of a conflicting pair at integration, re-attempts it on the new base, and passes it', async () => {
    const ws = await parallelWorkspace(['S1', 'S2'], 'SHARED=1 ');
    const result = await runYoke(ws, ['run', '--parallel', '2'], { timeoutMs: RUN_MS });
    expect(result.exitCode, result.stderr).toBe(0);
    const records = await readJournal(ws);
    const rejected = records.filter((record) => record.type === 'effect.started' && (record.payload as { kind: string }).kind === 'candidate.reject');
    expect(rejected).toHaveLength(1);
    const params = (rejected[0]?.payload as { params: { story: string; files: string[]; gate: string; output: string } }).params;
    expect(params.gate).toBe('rebase');
    expect(params.files).toEqual(['shared.txt']);
    expect(params.output).toMatch(/conflict/i);
    const loser = params.story;
    const winner = loser === 'S1' ? 'S2' : 'S1';
    // the loser worked twice, the second time on a base that had the winner's commit
    expect((await ws.sideLines('calls')).map((line) => line.split(' ')[0]).filter((id) => id === loser)).toHaveLength(2);
    expect((await ws.read('shared.txt')).split('\n').filter(Boolean)).toEqual([winner, loser]);
    const feats = (await ws.gitLog()).filter((entry) => entry.subject.startsWith('feat(')).map((entry) => entry.subject);
    expect(feats).toEqual([`feat(${loser}): Story ${loser}`, `feat(${winner}): Story ${winner}`]);
    // the rejected candidate's commit is kept under a ref, never lost
    const refs = await ws.git(['for-each-ref', '--format=%(refname)', 'refs/yoke/']);
    expect(refs).toMatch(new RegExp(`refs/yoke/[0-9A-Z]{26}/rejected/${loser}/1`));
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('a target moved during the run stops it with exit 3 and what to do; after the reset, `yoke run --parallel 1` journals the change, and a guard failing only on the integrated tree rejects that candidate, which lands on its next attempt', async () => {
    const ws = await parallelWorkspace(['S1', 'S2'], 'SLEEP=4 ');
    // passes in each lane (one out file), fails once on the tree where both stories meet
    await writeFile(ws.side('together.sh'), `if [ -f out-S1.txt ] && [ -f out-S2.txt ] && [ ! -f "${ws.side('together-failed')}" ]; then touch "${ws.side('together-failed')}"; echo 'out-S1 and out-S2 do not fit together yet'; exit 1; fi\n`);
    await writeFile(ws.abs('.loop/yoke.conf'), `${await ws.read('.loop/yoke.conf')}guard together sh ${ws.side('together.sh')}\n`);
    await ws.git(['commit', '-qam', 'a guard across stories']);
    const from = await ws.git(['rev-parse', 'HEAD']);
    const running = startYoke(ws, ['run', '--parallel', '2'], { timeoutMs: RUN_MS });
    const until = Date.now() + 60_000;
    while ((await ws.sideLines('calls')).length < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    // someone commits on the target while both lanes work
    await ws.git(['commit', '-q', '--allow-empty', '-m', 'mine, meanwhile']);
    const stopped = await running;
    expect(stopped.exitCode, stopped.stderr).toBe(3);
    expect(stopped.stderr).toMatch(new RegExp(`someone committed on \\S+ during the parallel run \\(it moved from ${from.slice(0, 12)} to [0-9a-f]{12}\\); yoke integrates only onto the commit it left: reset \\S+ to ${from.slice(0, 12)} \\(keep your commits on another branch\\) and run \`yoke run\``));
    expect((await ws.gitLog()).filter((entry) => entry.subject.startsWith('feat('))).toEqual([]);
    await ws.git(['branch', 'mine']);
    await ws.git(['reset', '-q', '--hard', from]);

    const resumed = await runYoke(ws, ['run', '--parallel', '1'], { timeoutMs: RUN_MS });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stdout + resumed.stderr).toContain('parallel changed to 1 (--parallel)');
    const records = await readJournal(ws);
    const set = records.filter((record) => record.type === 'event' && (record.payload as { event: { type: string } }).event.type === 'SET_PARALLEL');
    expect(set.map((record) => (record.payload as { event: unknown }).event)).toEqual([{ type: 'SET_PARALLEL', parallel: 1 }]);
    expect(set[0]?.seq).toBeGreaterThan(records.find((record) => record.type === 'run.resumed')?.seq ?? Infinity);
    // the second candidate met the first on the integrated tree: rejected by the guard there, landed on its next attempt
    const rejects = records.filter((record) => record.type === 'effect.started' && (record.payload as { kind: string }).kind === 'candidate.reject')
      .map((record) => (record.payload as { params: { story: string; gate: string; files: string[]; output: string } }).params);
    expect(rejects).toHaveLength(1);
    expect(rejects[0]).toMatchObject({ gate: 'together', files: [`out-${rejects[0]?.story ?? '?'}.txt`] });
    expect(rejects[0]?.output).toContain('do not fit together yet');
    expect((await ws.sideLines('calls')).filter((line) => line.startsWith(`${rejects[0]?.story ?? '?'} `))).toHaveLength(2);
    expect((await ws.gitLog()).filter((entry) => entry.subject.startsWith('feat(')).map((entry) => entry.subject).sort()).toEqual(['feat(S1): Story S1', 'feat(S2): Story S2']);
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('keeps serial stories mode without --parallel: no worktree effect is requested', async () => {
    const ws = await parallelWorkspace(['S1']);
    const result = await runYoke(ws, ['run'], { timeoutMs: RUN_MS });
    expect(result.exitCode, result.stderr).toBe(0);
    const kinds = new Set((await readJournal(ws)).filter((record) => record.type === 'effect.started').map((record) => (record.payload as { kind: string }).kind));
    expect(kinds.has('worktree.create')).toBe(false);
    expect(kinds.has('story.pass')).toBe(true);
  }, TIMEOUT);
});
