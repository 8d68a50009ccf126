// An emptied journal (issue 20, item 7): `journal.jsonl` truncated to 0 bytes while transcripts,
// blobs, status.json and the blob copy in .git/yoke show the workspace has run. `yoke run` must
// refuse (exit 3) rather than start fresh as if there were no history, and say how to start over
// deliberately (`yoke run --fresh --discard-history`). Commits are no such evidence: a `git clone`
// has them, and never had a journal. The built CLI, real runs and real git.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journalPath, readJournal } from '../support/journal-records.js';
import { makeJudgedWorkspace } from '../support/judged-workspace.js';
import { runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 90_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

async function finishedRun(commit: 'done' | 'off'): Promise<Workspace> {
  const { ws } = await makeJudgedWorkspace({
    mode: 'loop',
    conf: ['max-iterations 3', `commit ${commit}`, 'guard ok true'],
    script: { worker: [{ write: { 'src/a.txt': 'a\n' }, notes: 'DONE' }], after: { worker: { notes: 'DONE' } } },
  });
  workspaces.push(ws);
  const first = await runYoke(ws, ['run', '--quiet']);
  expect(first.exitCode, first.stderr).toBe(0);
  return ws;
}

describe('issue 20 item 7: an emptied journal silently forgot the history', () => {
  it('journal.jsonl truncated to 0 bytes with transcripts, blobs, status.json and the .git/yoke copy: refused, exit 3, nothing written; .loop/.journal removed whole, the copy alone still says so', async () => {
    const ws = await finishedRun('done');
    expect((await ws.gitLog())[0]?.message).toMatch(/Yoke-Run: /);
    truncateSync(journalPath(ws.path), 0);

    const refused = await runYoke(ws, ['run', '--quiet']);
    expect(refused.exitCode, refused.stderr).toBe(3);
    expect(refused.stderr).toContain(`${journalPath(ws.path)} has no records, but this workspace has run before (`);
    expect(refused.stderr).toMatch(/agent transcript\(s\), \d+ blob\(s\), status\.json, \d+ blob\(s\) in \.git\/yoke\/blobs\)/);
    expect(refused.stderr).toContain('`yoke run --fresh --discard-history`');
    expect(readFileSync(journalPath(ws.path)).length, 'the journal stays empty').toBe(0);
    // --fresh alone is not the deliberate choice either
    expect((await runYoke(ws, ['run', '--fresh', '--quiet'])).exitCode).toBe(3);

    rmSync(join(ws.path, '.loop', '.journal'), { recursive: true });
    const gone = await runYoke(ws, ['run', '--quiet']);
    expect(gone.exitCode, gone.stderr).toBe(3);
    expect(gone.stderr).toMatch(/has run before \(\d+ blob\(s\) in \.git\/yoke\/blobs\)/);
  }, TIMEOUT);

  it('a fresh `git clone` of a project yoke committed in was refused as lost history: its Yoke-Run commits are no evidence, so run and --fresh start', async () => {
    const ws = await finishedRun('done');
    const scratch = mkdtempSync(join(tmpdir(), 'yoke-clone-'));
    try {
      const clone = join(scratch, 'clone');
      execFileSync('git', ['clone', '--quiet', ws.path, clone]);
      expect(execFileSync('git', ['log', '-1', '--format=%B'], { cwd: clone, encoding: 'utf8' })).toMatch(/Yoke-Run: /);
      const run = await runYoke({ path: clone }, ['run', '--quiet']);
      expect(run.exitCode, run.stderr).toBe(0);
      const fresh = await runYoke({ path: clone }, ['run', '--fresh', '--quiet']);
      expect(fresh.exitCode, fresh.stderr).toBe(0);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, TIMEOUT);

  it('--discard-history needs --fresh (exit 2); `yoke run --fresh --discard-history` starts over', async () => {
    const ws = await finishedRun('off');
    truncateSync(journalPath(ws.path), 0);
    const alone = await runYoke(ws, ['run', '--discard-history', '--quiet']);
    expect(alone.exitCode, alone.stderr).toBe(2);
    expect(alone.stderr).toMatch(/--discard-history only goes with --fresh/);

    const over = await runYoke(ws, ['run', '--fresh', '--discard-history', '--quiet']);
    expect(over.exitCode, over.stderr).toBe(0);
    const records = await readJournal(ws);
    expect(records[0]?.seq).toBe(1);
    expect(records.filter((r) => r.type === 'run.started')).toHaveLength(1);
    expect(records.at(-1)?.type).toBe('run.finished');
  }, TIMEOUT);

  it('a workspace that never ran (no journal, no evidence) still starts normally', async () => {
    const { ws } = await makeJudgedWorkspace({ mode: 'loop', conf: ['max-iterations 2', 'commit off'], script: { worker: [{ notes: 'DONE' }] } });
    workspaces.push(ws);
    const first = await runYoke(ws, ['run', '--quiet']);
    expect(first.exitCode, first.stderr).toBe(0);
  }, TIMEOUT);
});
