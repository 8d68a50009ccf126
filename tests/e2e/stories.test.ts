// Stories mode end to end (DESIGN §8) against the bundle: selection order, one gated commit per story
// with its trailers, passes: true written by yoke, the DECISIONS.md entry only with .yoke/context/,
// Stop-the-Line before any agent call, and prd.yaml validation before anything runs.
import { afterEach, describe, expect, it } from 'vitest';
import { readJournal } from '../support/journal-records.js';
import { seqOf } from '../support/journal-points.js';
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

async function storiesWorkspace(prd: string, extra: Record<string, string> = {}, agent = AGENT, conf: string[] = []): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    '.loop/yoke.conf': [`mode stories`, `agent cmd SIDE=${paths.sideDir} sh ${paths.side('agent.sh')}`, ...conf, ''].join('\n'),
    '.loop/prd.yaml': prd,
    '.loop/protocol.md': '# Protocol\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
    ...extra,
  }));
  workspaces.push(ws);
  const { writeFile } = await import('node:fs/promises');
  await writeFile(ws.side('agent.sh'), agent);
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

  it("an agent's passes: true on other stories, or its deletion of prd.yaml, is restored and never committed or counted (the final blocked iteration's too)", async () => {
    // S1's worker flips every flag, S2's deletes prd.yaml, S3's flips every flag and fails its check (blocked at once)
    const agent = `#!/bin/sh
story=$(grep -o '^### [A-Za-z0-9_-]*:' | head -1 | sed 's/^### //; s/:$//')
echo "$story" >> "$SIDE/calls"
case "$story" in
  S2) rm -f .loop/prd.yaml ;;
  *) sed -i 's/passes: false/passes: true/' .loop/prd.yaml ;;
esac
echo "work for $story" > "out-$story.txt"
printf 'STATUS: DONE\\n' > .loop/notes.md
`;
    const prd = `# Our stories: yoke writes only the flags.
stories:
  - id: S1
    title: First
    acceptance: [one]   # a comment that stays
    passes: false
  - id: S2
    title: Second
    depends-on: [S1]
    acceptance: [a criterion long enough that a YAML printer folding at eighty columns would wrap it onto a second line]
    passes: false
  - id: S3
    title: Third
    depends-on: [S2]
    acceptance:
      - text: never met
        check: test -f never-there
    passes: false
`;
    const ws = await storiesWorkspace(prd, {}, agent, ['max-story-attempts 1']);
    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/stopped: story S3 is blocked/);
    expect(result.stderr.match(/spec file\(s\) \.loop\/prd\.yaml changed during the run; put back as the run holds them/g)).toHaveLength(3);
    expect(await ws.sideLines('calls')).toEqual(['S1', 'S2', 'S3']);
    const flagged = (...ids: string[]) => ids.reduce((text, id) => text.replace(new RegExp(`(- id: ${id}\\n(?:.*\\n)*?    passes: )false`), '$1true'), prd);
    const log = await ws.gitLog();
    expect(log.slice(0, 2).map((entry) => entry.subject)).toEqual(['feat(S2): Second', 'feat(S1): First']);
    // each commit holds the user's prd.yaml byte for byte with only its own story's flag (and earlier ones) set
    expect(`${await ws.git(['show', `${log[1]?.sha ?? ''}:.loop/prd.yaml`])}\n`).toBe(flagged('S1'));
    expect(`${await ws.git(['show', `${log[0]?.sha ?? ''}:.loop/prd.yaml`])}\n`).toBe(flagged('S1', 'S2'));
    // the final, blocked iteration's flip is gone too: the working tree ends with the committed file
    expect(await ws.read('.loop/prd.yaml')).toBe(flagged('S1', 'S2'));
    expect(await ws.git(['status', '--porcelain', '--', '.loop/prd.yaml'])).toBe('');
    const stories = await runYoke(ws, ['stories', '--json']);
    expect((JSON.parse(stories.stdout) as { stories: Array<{ id: string; state: string }> }).stories.map((row) => `${row.id} ${row.state}`)).toEqual(['S1 passed', 'S2 passed', 'S3 blocked']);
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('an edit of a passed story\'s criteria reopens it, on resume and on the next run after a finished one, and says so; a run with nothing left says no iteration ran', async () => {
    const ws = await storiesWorkspace('stories:\n  - id: S1\n    title: First\n    acceptance: [one]\n  - id: S2\n    title: Vague\n    depends-on: [S1]\n');
    const held = await runYoke(ws, ['run']);
    expect(held.exitCode).toBe(1);
    expect(held.stderr).toMatch(/story S2 has no acceptance criteria/);
    // while the run is held: S1's criteria change, S2 gets some
    await ws.write('.loop/prd.yaml', (await ws.read('.loop/prd.yaml')).replace('[one]', '[one, and two]') + '    acceptance: [clear now]\n');
    const resumed = await runYoke(ws, ['run']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/^yoke: warning: story S1 passed before, but its acceptance criteria changed: it is not passed any more$/m);
    expect(resumed.stderr).toMatch(/prd\.yaml changed: edited S1, S2/);
    expect(await ws.sideLines('calls')).toEqual(['S1', 'S1', 'S2']);
    // after the finished run: S1's criteria change again
    await ws.write('.loop/prd.yaml', (await ws.read('.loop/prd.yaml')).replace('[one, and two]', '[one, two, three]'));
    const next = await runYoke(ws, ['run']);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.stderr).toMatch(/^yoke: warning: story S1 passed before, but its acceptance criteria changed: it is not passed any more$/m);
    expect(next.stderr).toMatch(/prd\.yaml changed: edited S1\n/);
    expect(await ws.sideLines('calls')).toEqual(['S1', 'S1', 'S2', 'S1']);
    const stories = JSON.parse((await runYoke(ws, ['stories', '--json'])).stdout) as { passed: number; total: number };
    expect(stories).toMatchObject({ passed: 2, total: 2 });
    const done = await runYoke(ws, ['run']);
    expect(done.exitCode).toBe(0);
    expect(done.stderr).toMatch(/stories done with no iteration run \(every story had passed already\): 2 of 2 stories passed/);
    expect(await ws.sideLines('calls')).toHaveLength(4);
    expect((await runYoke(ws, ['replay', '--verify', '--all'])).exitCode).toBe(0);
  }, TIMEOUT * 2);

  it('on-story-blocked skip goes on with stories that do not depend on the blocked one; no-progress blocks it before its attempts run out; review on counts a judge FAIL as an attempt', async () => {
    // one script for both roles: the worker says DONE (S1 never makes its check pass); the judge fails its first review, then passes
    const agent = `#!/bin/sh
if [ "$YOKE_ROLE" = judge ]; then
  cat > /dev/null
  echo judge >> "$SIDE/calls"
  if [ -f "$SIDE/judged" ]; then printf 'VERDICT: PASS\\n' > .loop/verdict.md; else touch "$SIDE/judged"; printf 'VERDICT: FAIL\\nthe greeting is rude\\n' > .loop/verdict.md; fi
  exit 0
fi
story=$(grep -o '^### [A-Za-z0-9_-]*:' | head -1 | sed 's/^### //; s/:$//')
echo "$story" >> "$SIDE/calls"
[ "$story" = S1 ] || echo "work for $story" > "out-$story.txt"
printf 'STATUS: DONE\\n' > .loop/notes.md
`;
    const prd = `stories:
  - id: S1
    title: Never done
    priority: 1
    acceptance:
      - text: out file
        check: test -f out-S1.txt
  - id: S2
    title: Needs S1
    depends-on: [S1]
    acceptance: [two]
  - id: S3
    title: Greeting
    priority: 2
    acceptance: [polite]
`;
    const ws = await storiesWorkspace(prd, { '.loop/judge.md': '# Judge\\nBe strict.\\n' }, agent, ['review on', 'on-story-blocked skip', 'max-story-attempts 5']);
    const result = await runYoke(ws, ['run']);
    expect(result.exitCode, result.stderr).toBe(1);
    // S1 fails the same way three times (no-progress, before its 5 attempts); S3 is still worked; S2 waits on S1
    expect(await ws.sideLines('calls')).toEqual(['S1', 'S1', 'S1', 'S3', 'judge', 'S3', 'judge']);
    expect(result.stderr).toMatch(/judge says FAIL, attempt 1 of 5 on story S3/);
    expect(result.stderr).not.toMatch(/consecutive/);
    expect(result.stderr).toMatch(/stopped: no story is ready \(the rest are blocked or wait on a blocked one\); 1 of 3 stories passed/);
    const stories = JSON.parse((await runYoke(ws, ['stories', '--json'])).stdout) as { stories: Array<{ id: string; state: string; attempts: number }> };
    expect(stories.stories.map((row) => `${row.id} ${row.state} ${row.attempts}`)).toEqual(['S1 blocked 3', 'S2 waiting 0', 'S3 passed 2']);
    expect((await ws.gitLog())[0]?.subject).toBe('feat(S3): Greeting');
    const finished = (await readJournal(ws)).find((record) => record.type === 'run.finished');
    expect(finished?.payload).toMatchObject({ exitCode: 1, reason: 'stories-blocked' });
  }, TIMEOUT);

  it('a run killed right after an agent deleted prd.yaml resumes with the version the run holds put back, not refused as missing', async () => {
    const agent = `#!/bin/sh
echo S1 >> "$SIDE/calls"
rm -f .loop/prd.yaml
echo "work for S1" > out-S1.txt
printf 'STATUS: DONE\\n' > .loop/notes.md
`;
    const prd = 'stories:\n  - id: S1\n    title: First\n    acceptance:\n      - text: out file exists\n        check: test -f out-S1.txt\n';
    const reference = await storiesWorkspace(prd, {}, agent);
    expect((await runYoke(reference, ['run', '--quiet'])).exitCode).toBe(0);
    // after the worker's call is journaled, before the spec restore that follows it completes
    const afterCall = seqOf(await readJournal(reference), 'effect.completed agent.spawn:worker');
    const ws = await storiesWorkspace(prd, {}, agent);
    const crashed = await runYoke(ws, ['run', '--quiet'], { env: { YOKE_FAILPOINT: `crash-after:${afterCall}` } });
    expect(crashed.signal).toBe('SIGKILL');
    expect(await ws.exists('.loop/prd.yaml')).toBe(false);
    const resumed = await runYoke(ws, ['run']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/^yoke: warning: \.loop\/prd\.yaml was missing when the run resumed; yoke put back the version the run holds/m);
    expect(resumed.stderr).toMatch(/story S1 passed, committed/);
    expect(await ws.read('.loop/prd.yaml')).toBe(`${prd}    passes: true\n`);
    expect(await ws.sideLines('calls')).toEqual(['S1']);
    expect((await runYoke(ws, ['replay', '--verify'])).exitCode).toBe(0);
  }, TIMEOUT);

  it('refuses a malformed prd.yaml with file:line:column and exit 2, changing nothing', async () => {
    const ws = await storiesWorkspace('stories:\n  - id: S1\n    title: A\n    acceptance: [x]\n  - id: S1\n    title: B\n    acceptance: [y]\n');
    const result = await runYoke(ws, ['run']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/\.loop\/prd\.yaml:5:1: error: story id `S1` is used twice \(first at line 2\)/);
    expect(await ws.exists('.loop/.journal')).toBe(false);
  }, TIMEOUT);
});
