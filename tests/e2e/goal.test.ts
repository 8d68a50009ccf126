// Goal mode end to end (DESIGN §2): yoke's own acceptance checks decide, identical failures block
// (no-progress, with a diagnosis turn first), max-iterations caps the attempts, and a kill -9
// between attempts resumes with the same attempt count.
import { afterEach, describe, expect, it } from 'vitest';
import { readJournal } from '../support/journal-records.js';
import { completedAgentKeys, seqOf } from '../support/journal-points.js';
import { installShellAgent, shellCalls, type ShellScript } from '../support/shell-agent.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 60_000;
const workspaces: Workspace[] = [];

afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

async function goalWorkspace(conf: string[], script: ShellScript): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    '.loop/yoke.conf': `${['mode goal', `agent cmd sh ${paths.side('agent.sh')}`, ...conf].join('\n')}\n`,
    '.loop/goal.md': '# Goal\n\nShip done.txt.\n',
    '.loop/protocol.md': '# Protocol\n\nOne attempt at a time.\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  }));
  workspaces.push(ws);
  await installShellAgent(ws.sideDir, script);
  return ws;
}

describe('goal mode', () => {
  it('completes when yoke\'s acceptance checks pass, not when the worker says DONE', async () => {
    const ws = await goalWorkspace(['accept shipped test -f done.txt'], {
      worker: [{ notes: 'DONE' }, { write: { 'done.txt': 'ok\n' }, notes: 'IN_PROGRESS' }],
    });
    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect((await shellCalls(ws.sideDir)).map((c) => c.iteration)).toEqual([1, 2]);
    expect(result.stderr).toMatch(/goal complete after 2 attempt\(s\)/);
    expect((await ws.gitLog())[0]?.subject).toBe('yoke: goal done after attempt 2');
    expect(await ws.read('.loop/guard-results.md')).toMatch(/accept `shipped` — PASS/);
  }, TIMEOUT);

  it('blocks with no-progress on the third identical failure, asking for a diagnosis on the third attempt', async () => {
    // The failure text changes every time only in volatile parts (a timestamp, a temp folder).
    const ws = await goalWorkspace(['accept shipped sh -c \'echo "done.txt missing at $(date +%s%N) in $(mktemp -d)"; exit 1\''], {
      after: { worker: { notes: 'IN_PROGRESS' } },
    });
    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/goal blocked \(no-progress\)/);
    const calls = await shellCalls(ws.sideDir);
    expect(calls.map((c) => c.iteration)).toEqual([1, 2, 3]);
    const prompts = await Promise.all([1, 2, 3].map((n) => ws.sideText(`prompts/worker-${n}.md`)));
    expect(prompts.map((p) => (p ?? '').includes('Diagnose before you change anything'))).toEqual([false, false, true]);
    const finished = (await readJournal(ws)).find((r) => r.type === 'run.finished');
    expect(finished?.payload).toMatchObject({ exitCode: 1, reason: 'no-progress' });
  }, TIMEOUT);

  it('a different failure each time is progress: the attempt cap (max-iterations) blocks instead', async () => {
    const ws = await goalWorkspace(['max-iterations 2', 'accept shipped sh -c \'echo "stage $(cat stage.txt) of 5 reached"; exit 1\''], {
      worker: [{ write: { 'stage.txt': 'one' } }, { write: { 'stage.txt': 'two' } }],
    });
    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/goal blocked \(attempts\): 2 attempts/);
    expect((await shellCalls(ws.sideDir)).map((c) => c.iteration)).toEqual([1, 2]);
  }, TIMEOUT);

  it('kill -9 between attempts: the resumed run counts attempts exactly and never repeats a completed call', async () => {
    const script: ShellScript = {
      worker: [{ write: { 'stage.txt': 'one' } }, { write: { 'stage.txt': 'two' } }, { write: { 'done.txt': 'ok\n' } }],
    };
    const conf = ['accept shipped sh -c \'test -f done.txt || { echo "stage $(cat stage.txt)"; exit 1; }\''];
    const reference = await goalWorkspace(conf, script);
    const uncrashed = await runYoke(reference, ['run', '--quiet']);
    expect(uncrashed.exitCode, uncrashed.stderr).toBe(0);
    const referenceRecords = await readJournal(reference);
    // After attempt 1's results are written, before attempt 2's worker call.
    const between = seqOf(referenceRecords, 'event FILE_WRITTEN:guard-results.md', 1);

    const ws = await goalWorkspace(conf, script);
    const crashed = await runYoke(ws, ['run', '--quiet'], { env: { YOKE_FAILPOINT: `crash-after:${between}` } });
    expect(crashed.signal).toBe('SIGKILL');
    const resumed = await runYoke(ws, ['run']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/resuming run/);
    expect(resumed.stderr).toMatch(/goal complete after 3 attempt\(s\)/);
    const calls = await shellCalls(ws.sideDir);
    expect(calls.map((c) => c.iteration)).toEqual([1, 2, 3]);
    expect(new Set(calls.map((c) => c.call)).size).toBe(calls.length);
    expect(completedAgentKeys((await readJournal(ws)) as never)).toHaveLength(3);
    expect(await ws.read('done.txt')).toBe('ok\n');
  }, TIMEOUT);
});
