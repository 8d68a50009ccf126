// The agent moves HEAD (issue 20, item 8): a reset, a new branch, yoke's own commits deleted. Each is
// a boundary violation (guards skipped, guard-results.md says what moved and names the lost commit),
// yoke never commits onto another branch, and the lost sha is in the journal. Built CLI, real git,
// the sh agent.
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { expectRefusal } from '../support/cli-expect.js';
import { makeJudgedWorkspace, type JudgedSetup } from '../support/judged-workspace.js';
import { journalPath, readJournal } from '../support/journal-records.js';
import { runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 60_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  if (process.env.KEEP_E2E === '1') return;
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

async function setup(spec: JudgedSetup): Promise<Workspace> {
  const { ws } = await makeJudgedWorkspace(spec);
  workspaces.push(ws);
  return ws;
}

const branchOf = async (ws: Workspace): Promise<string> => (await ws.git(['symbolic-ref', '--short', 'HEAD'])).trim();
const shaOf = async (ws: Workspace, rev: string): Promise<string> => (await ws.git(['rev-parse', rev])).trim();
const isAncestor = async (ws: Workspace, sha: string, of: string): Promise<boolean> =>
  (await ws.git(['merge-base', '--is-ancestor', sha, of]).then(() => true, () => false));

/** Each boundary.scan result's `head`, in order. */
async function scannedHeads(ws: Workspace): Promise<Array<{ branch: string | null; sha: string | null; lost: string | null } | undefined>> {
  return (await readJournal(ws))
    .filter((r) => r.type === 'effect.completed' && (r.payload as { kind: string }).kind === 'boundary.scan')
    .map((r) => (r.payload as { result: { head?: { branch: string | null; sha: string | null; lost: string | null } } }).result.head);
}

describe('issue 20.8: the agent moved HEAD and the user’s commits became unreachable', () => {
  it('git reset --hard HEAD~1: a violation naming the lost commit; after the agent brings it back, yoke commits on top of it', async () => {
    const ws = await setup({
      mode: 'loop',
      conf: ['max-iterations 3', 'guard ran sh -c \'echo ran >> "$YOKE_LOOP_DIR/../../side/guard.log"\''],
      script: {
        worker: [
          { sh: 'git reset -q --hard HEAD~1', notes: 'DONE' },
          // the agent reads the way back from guard-results.md, as a worker would
          { sh: 'git reset -q --keep "$(sed -n \'s/.*git reset --keep \\([0-9a-f]*\\).*/\\1/p\' .loop/guard-results.md | head -n 1)"', write: { 'work.txt': 'done\n' }, notes: 'DONE' },
        ],
      },
    });
    await ws.write('user.txt', 'the user’s last commit\n');
    await ws.git(['add', 'user.txt']);
    await ws.git(['commit', '-q', '-m', 'user work']);
    const userCommit = await shaOf(ws, 'HEAD');
    const branch = await branchOf(ws);

    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(0);
    // iteration 1: HEAD lost the user's commit → boundary violation, guard skipped
    const heads = await scannedHeads(ws);
    expect(heads[0]).toEqual({ branch, sha: await shaOf(ws, `${userCommit}~1`), lost: userCommit });
    expect(heads[1]).toEqual({ branch, sha: userCommit, lost: null });
    expect(await ws.sideLines('guard.log')).toEqual(['ran']); // only iteration 2 ran the guard
    // the lost sha is journaled in guard-results.md's content too
    const journal = await readFile(journalPath(ws.path), 'utf8');
    expect(journal).toContain(`commit ${userCommit} is no longer on HEAD`);
    // yoke's commit sits on top of the user's commit, on the run's branch
    const [done] = await ws.gitLog();
    expect(done?.subject).toBe('yoke: loop done after iteration 2');
    expect(await branchOf(ws)).toBe(branch);
    expect(await isAncestor(ws, userCommit, 'HEAD')).toBe(true);
  }, TIMEOUT);

  it('git checkout -b other: a violation every iteration, and yoke’s commit never lands on `other`', async () => {
    const ws = await setup({ mode: 'loop', conf: ['max-iterations 2', 'commit done'], script: { worker: [{ sh: 'git checkout -q -b other', write: { 'x.txt': 'x\n' }, notes: 'DONE' }], after: { worker: { notes: 'DONE' } } } });
    const branch = await branchOf(ws);
    const before = await shaOf(ws, 'HEAD');

    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(1);
    const report = await ws.read('.loop/guard-results.md');
    expect(report).toContain('## Boundary check: FAILED');
    expect(report).toContain(`- HEAD switched from branch \`${branch}\` to branch \`other\`: switch back with \`git checkout ${branch}\``);
    expect(report).toContain('All guards were skipped');
    expect(await shaOf(ws, 'other')).toBe(before);
    expect(await shaOf(ws, branch)).toBe(before);
    expect((await scannedHeads(ws)).map((h) => h?.branch)).toEqual(['other', 'other']);
  }, TIMEOUT);

  it('deleting yoke’s own earlier commit: the iteration-1 commit is named as lost, in the journal and in guard-results.md', async () => {
    const ws = await setup({
      mode: 'loop',
      conf: ['max-iterations 2', 'commit each'],
      script: { worker: [{ write: { 'one.txt': '1\n' }, notes: 'IN_PROGRESS' }, { sh: 'git reset -q --hard HEAD~1', notes: 'IN_PROGRESS' }] },
    });
    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(1);
    const records = await readJournal(ws);
    const commits = records.filter((r) => r.type === 'effect.completed' && (r.payload as { kind: string }).kind === 'commit.create');
    expect(commits).toHaveLength(1);
    const yokeCommit = (commits[0]?.payload as { result: { sha: string; branch: string } }).result;
    expect(yokeCommit.branch).toBe(await branchOf(ws));
    expect((await scannedHeads(ws))[1]?.lost).toBe(yokeCommit.sha);
    expect(await ws.read('.loop/guard-results.md')).toContain(`commit ${yokeCommit.sha} is no longer on HEAD`);
    // recoverable: the object is still there
    expect((await ws.git(['cat-file', '-t', yokeCommit.sha])).trim()).toBe('commit');
  }, TIMEOUT);

  it('a judge that switches branch before yoke commits: the commit is refused (exit 3), and after switching back `yoke run` commits on the run’s branch', async () => {
    const ws = await setup({
      mode: 'brute',
      conf: ['max-iterations 2', 'commit done'],
      script: {
        worker: [{ write: { 'w.txt': 'w\n' }, notes: 'DONE' }],
        judge: [{ sh: 'git checkout -q -b judge-side', write: { '.loop/verdict.md': 'VERDICT: PASS\n' } }],
      },
    });
    const branch = await branchOf(ws);
    const before = await shaOf(ws, 'HEAD');
    const refused = await runYoke(ws, ['run', '--quiet']);
    expectRefusal(refused, 3, new RegExp(`HEAD is on branch \`judge-side\`, but this run commits onto branch \`${branch}\`, so yoke did not commit; switch back with \`git checkout ${branch}\``));
    expect(await shaOf(ws, 'judge-side')).toBe(before);

    await ws.git(['checkout', '-q', branch]);
    const resumed = await runYoke(ws, ['run']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(await branchOf(ws)).toBe(branch);
    expect((await ws.gitLog())[0]?.subject).toBe('yoke: brute done after iteration 1');
    expect(await shaOf(ws, 'judge-side')).toBe(before);
  }, TIMEOUT);
});
