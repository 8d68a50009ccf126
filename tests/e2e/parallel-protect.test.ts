// Protected acceptance in parallel lanes (DESIGN §10 with §16, issue 22) against the bundle, with a
// scripted `cmd` agent. Before this, a lane worker could rewrite a protected check to `exit 0`, the
// check passed, `feat(S1)` landed the weakened script, and the next `yoke run` refused it as the
// user's change. Now each lane restores the protected baseline before every worker call (git-ignored
// files too), names the protected files in its prompt, catches and restores a worker's change (the
// turn fails), folds a worker's own commits into the candidate the gates saw, and the integration
// lane refuses a candidate that changes a protected file.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournal, type JournalRecord } from '../support/journal-records.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 180_000;
const RUN_MS = TIMEOUT - 20_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

/**
 * Reads the story from its prompt and counts its calls. S1's first call rewrites its check to
 * `exit 0`, commits that itself, and claims DONE without the work; every other call leaves
 * out-<id>.txt and says DONE.
 */
const AGENT = `#!/bin/sh
prompt=$(cat)
story=$(printf '%s\\n' "$prompt" | grep -o '^### [A-Za-z0-9_-]*:' | head -1 | sed 's/^### //; s/:$//')
n=$(( $(cat "$SIDE/n-$story" 2>/dev/null || echo 0) + 1 )); echo "$n" > "$SIDE/n-$story"
printf '%s\\n' "$prompt" > "$SIDE/prompt-$story-$n.md"
case "$story:$n" in
  S1:1) printf 'exit 0\\n' > checks/s1.sh; git add checks/s1.sh; git -c user.name=agent -c user.email=agent@example.invalid commit -qm 'a lighter check' ;;
  *) echo "work for $story" > "out-$story.txt" ;;
esac
printf 'STATUS: DONE\\n' > .loop/notes.md
`;

/** A story's check: needs the git-ignored fixture and its out file; S2's leaves a stamp in checks/ on its first run. */
const CHECK = (id: string): string => `test -f checks/local.env && test -f out-${id}.txt${id === 'S2' ? ' && { [ -f "$SIDE/stamped" ] || { touch "$SIDE/stamped"; date > checks/stamp.txt; }; }' : ''}\n`;

async function protectedWorkspace(): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    '.loop/yoke.conf': `mode stories\nagent cmd SIDE=${paths.sideDir} sh ${paths.side('agent.sh')}\nparallel 2\nmax-iterations 10\nprotect checks/\n`,
    '.loop/prd.yaml': `stories:\n${['S1', 'S2'].map((id) => `  - id: ${id}\n    title: Story ${id}\n    acceptance:\n      - text: its check passes\n        check: SIDE=${paths.sideDir} sh checks/${id.toLowerCase()}.sh\n`).join('')}`,
    '.loop/protocol.md': '# Protocol\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
    '.gitignore': 'checks/local.env\n',
    'checks/s1.sh': CHECK('S1'),
    'checks/s2.sh': CHECK('S2'),
  }));
  workspaces.push(ws);
  await writeFile(ws.side('agent.sh'), AGENT);
  // git-ignored, so a fresh worktree lacks it: the protected baseline carries it into each lane
  await ws.write('checks/local.env', 'LOCAL=1\n');
  return ws;
}

const started = (records: JournalRecord[], kind: string) => records
  .filter((r) => r.type === 'effect.started' && (r.payload as { kind: string }).kind === kind)
  .map((r) => (r.payload as { params: Record<string, unknown> }).params);

describe('protected files in parallel lanes', () => {
  it('a lane worker that rewrites its protected check to `exit 0` (and commits it) fails its turn and finds it restored; a candidate that adds a protected file is refused at integration; neither lands', async () => {
    const ws = await protectedWorkspace();
    const result = await runYoke(ws, ['run'], { timeoutMs: RUN_MS });
    expect(result.exitCode, result.stderr).toBe(0);
    const records = await readJournal(ws);

    // every lane prompt names the protected files
    for (const prompt of [await ws.sideText('prompt-S1-1.md'), await ws.sideText('prompt-S2-1.md')]) {
      expect(prompt).toContain('## Protected files (acceptance infrastructure)');
      expect(prompt).toContain('- `checks/s1.sh`');
    }
    // S1's first turn: caught after the worker, restored before any check ran, the weakened version kept as a blob
    const restores = started(records, 'protect.restore').filter((params) => params.lane === 'S1' && (params.write as Array<{ path: string }>).length === 1);
    expect(restores.map((params) => (params.write as Array<{ path: string }>)[0]?.path)).toEqual(['checks/s1.sh']);
    expect(existsSync(ws.abs(`.loop/.journal/blobs/${createHash('sha256').update('exit 0\n').digest('hex')}`))).toBe(true);
    expect(await ws.sideText('n-S1')).toBe('2\n');
    const s1Checks = started(records, 'check.run').filter((params) => params.name === 'S1#1');
    expect(s1Checks).toHaveLength(2); // its second turn in the lane, then on the integrated tree: the weakened check never ran
    // S2's check left checks/stamp.txt in its worktree: the candidate is refused, and its next attempt lands
    const rejects = started(records, 'candidate.reject');
    expect(rejects).toEqual([expect.objectContaining({ story: 'S2', gate: 'protect', files: ['checks/stamp.txt'] })]);
    expect(rejects[0]?.output).toMatch(/changes protected files \(acceptance infrastructure\): checks\/stamp\.txt; yoke never lands such a change/);
    expect(await ws.git(['for-each-ref', '--format=%(refname)', 'refs/yoke/'])).toMatch(/refs\/yoke\/[0-9A-Z]{26}\/rejected\/S2\/1/);

    // one commit per story, neither touching checks/; the checks are as the user wrote them
    const feats = (await ws.gitLog()).filter((entry) => entry.subject.startsWith('feat('));
    expect(feats.map((entry) => entry.subject).sort()).toEqual(['feat(S1): Story S1', 'feat(S2): Story S2']);
    for (const entry of feats) expect(await ws.git(['show', '--name-only', '--format=', entry.sha])).not.toMatch(/checks\//);
    expect(await ws.read('checks/s1.sh')).toBe(CHECK('S1'));
    expect(await ws.exists('checks/stamp.txt')).toBe(false);
    // the next run finds nothing changed under protection, and the journal verifies
    const status = await runYoke(ws, ['protect', 'status', '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect((JSON.parse(status.stdout) as { drift: unknown[] }).drift).toEqual([]);
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);
});
