// Stories mode end to end (DESIGN §8) against the bundle: selection order, one gated commit per story
// with its trailers, passes: true written by yoke, the DECISIONS.md entry only with .yoke/context/,
// Stop-the-Line before any agent call, and prd.yaml validation before anything runs.
import { afterEach, describe, expect, it } from 'vitest';
import { readJournal } from '../support/journal-records.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 90_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

/** The scripted worker: reads the story id from its prompt, leaves a file for it, says DONE with a decision. */
const AGENT = `#!/bin/sh
story=$(grep -o '^### [A-Za-z0-9_-]*:' | head -1 | sed 's/^### //; s/:$//')
echo "$story" >> "$SIDE/calls"
echo "work for $story" > "out-$story.txt"
printf 'STATUS: DONE\\nDecision: wrote out-%s.txt\\n' "$story" > .loop/notes.md
`;

const PRD = `stories:
  - id: S1
    title: First
    acceptance:
      - text: out file exists
        check: test -f out-S1.txt
  - id: S2
    title: Second
    depends-on: [S1]
    acceptance:
      - text: second
        check: test -f out-S2.txt
  - id: S3
    title: Third
    priority: 5
    acceptance: [three]
`;

async function storiesWorkspace(prd: string, extra: Record<string, string> = {}): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    '.loop/yoke.conf': `mode stories\nagent cmd SIDE=${paths.sideDir} sh ${paths.side('agent.sh')}\n`,
    '.loop/prd.yaml': prd,
    '.loop/protocol.md': '# Protocol\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
    ...extra,
  }));
  workspaces.push(ws);
  const { writeFile } = await import('node:fs/promises');
  await writeFile(ws.side('agent.sh'), AGENT);
  return ws;
}

describe('stories mode', () => {
  it('works the stories in order, each one gated commit feat(<id>): <title> with passes: true and its decision entry', async () => {
    const ws = await storiesWorkspace(PRD, { '.yoke/context/DECISIONS.md': '# Decisions\n' });
    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(0);
    // priority 5 before the stories without one; then ids; S2 after its dependency
    expect(await ws.sideLines('calls')).toEqual(['S3', 'S1', 'S2']);
    const log = await ws.gitLog();
    expect(log.slice(0, 3).map((entry) => entry.subject)).toEqual(['feat(S2): Second', 'feat(S1): First', 'feat(S3): Third']);
    for (const [entry, id] of [[log[0], 'S2'], [log[1], 'S1']] as const) {
      expect(entry?.message).toMatch(new RegExp(`Yoke-Story: ${id}\\nYoke-Run: [0-9A-Z]{26}\\nYoke-Effect: \\S+`));
      const files = await ws.git(['show', '--name-only', '--format=', entry?.sha ?? '']);
      expect(files.split('\n').sort()).toEqual(expect.arrayContaining(['.loop/prd.yaml', '.yoke/context/DECISIONS.md', `out-${id}.txt`]));
    }
    expect((await ws.read('.loop/prd.yaml')).match(/passes: true/g)).toHaveLength(3);
    expect(await ws.read('.yoke/context/DECISIONS.md')).toMatch(/^# Decisions\n\n## \d{4}-\d{2}-\d{2} — S3: Third\nwrote out-S3\.txt\n\n## .* — S1: First\nwrote out-S1\.txt\n\n## .* — S2: Second\nwrote out-S2\.txt\n$/);
    const finished = (await readJournal(ws)).find((record) => record.type === 'run.finished');
    expect(finished?.payload).toMatchObject({ exitCode: 0, reason: 'stories-done' });
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('writes no decision ledger without .yoke/context/ (no directory, no layer)', async () => {
    const ws = await storiesWorkspace('stories:\n  - id: S1\n    title: Only\n    acceptance: [x]\n');
    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await ws.exists('.yoke')).toBe(false);
    expect((await ws.gitLog())[0]?.subject).toBe('feat(S1): Only');
  }, TIMEOUT);

  it('stops the line before any agent call on a story with no acceptance criteria, and continues once prd.yaml is fixed', async () => {
    const ws = await storiesWorkspace('stories:\n  - id: S1\n    title: Vague\n');
    const held = await runYoke(ws, ['run']);
    expect(held.exitCode).toBe(1);
    expect(held.stderr).toMatch(/story S1 has no acceptance criteria/);
    expect(await ws.sideLines('calls')).toEqual([]);
    await ws.write('.loop/prd.yaml', 'stories:\n  - id: S1\n    title: Vague\n    acceptance: [now clear]\n');
    const again = await runYoke(ws, ['run']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(await ws.sideLines('calls')).toEqual(['S1']);
  }, TIMEOUT);

  it('refuses a malformed prd.yaml with file:line:column and exit 2, changing nothing', async () => {
    const ws = await storiesWorkspace('stories:\n  - id: S1\n    title: A\n    acceptance: [x]\n  - id: S1\n    title: B\n    acceptance: [y]\n');
    const result = await runYoke(ws, ['run']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/\.loop\/prd\.yaml:5:1: error: story id `S1` is used twice \(first at line 2\)/);
    expect(await ws.exists('.loop/.journal')).toBe(false);
  }, TIMEOUT);
});
