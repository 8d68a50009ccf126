// A crash after `git commit` ran but before `effect.completed` was journaled: on `yoke run` the
// commit effect is reconciled by its `Yoke-Effect` trailer (DESIGN §6), never made twice, and the
// journaled sha is the commit's. Also: the boundary scan's cache index lives in the git directory
// and never reaches a commit.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { journalPath, readJournal } from '../support/journal-records.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const AGENT = `#!/bin/sh
cat >/dev/null
echo "$YOKE_ITERATION" >> work.txt
rm -f gone.txt
if [ "$YOKE_ITERATION" -ge 2 ]; then printf 'STATUS: DONE\\n' > .loop/notes.md; else printf 'STATUS: IN_PROGRESS\\n' > .loop/notes.md; fi
`;

let ws: Workspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

describe('commit reconcile after a crash between the commit and its record', () => {
  it('finds the commit by its trailer, commits nothing twice, and journals that sha', async () => {
    ws = await makeWorkspace(({ sideDir }) => ({
      '.loop/yoke.conf': `mode loop\nagent cmd sh ${sideDir}/agent.sh\nmax-iterations 3\nguard ok true\ncommit each\n`,
      '.loop/plan.md': '# Plan\n',
      '.loop/protocol.md': '# Protocol\n',
      '.loop/.gitignore': '.journal/\n.stash/\n',
      'gone.txt': 'deleted by the agent\n',
    }));
    writeFileSync(ws.side('agent.sh'), AGENT);
    const first = await runYoke(ws, ['run', '--quiet']);
    expect(first.exitCode, first.stderr).toBe(0);
    const commitsBefore = await ws.gitLog();
    const records = await readJournal(ws);
    const started = records.filter((r) => r.type === 'effect.started' && (r.payload as { kind: string }).kind === 'commit.create');
    const last = started.at(-1);
    if (!last) throw new Error('the run made no commit');
    // Cut the journal right after the last commit's effect.started: the commit exists, its record does not.
    const journal = journalPath(ws.path);
    const lines = readFileSync(journal, 'utf8').split('\n').filter((line) => line !== '');
    writeFileSync(journal, `${lines.slice(0, last.seq).join('\n')}\n`);

    const resumed = await runYoke(ws, ['run', '--quiet']);

    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const commitsAfter = await ws.gitLog();
    expect(commitsAfter.map((c) => c.sha)).toEqual(commitsBefore.map((c) => c.sha));
    const key = (last.payload as { key: string }).key;
    const completed = (await readJournal(ws)).filter((r) => r.type === 'effect.completed' && (r.payload as { key: string }).key === key);
    const branch = (await ws.git(['symbolic-ref', '--short', 'HEAD'])).trim();
    expect(completed.map((r) => (r.payload as { result: unknown }).result)).toEqual([{ sha: commitsAfter[0]?.sha, branch }]);
    expect(commitsAfter[0]?.message).toContain(`Yoke-Effect: ${key}`);
    const tracked = (await ws.git(['ls-tree', '-r', '--name-only', 'HEAD'])).split('\n');
    expect(tracked).not.toContain('gone.txt');
    expect(tracked.filter((path) => path.startsWith('.loop/.journal') || path.startsWith('.loop/.stash') || path.includes('boundary-'))).toEqual([]);
    expect((await ws.git(['status', '--porcelain'])).trim()).toBe('');
  }, 120_000);
});
