// The operator's prd.yaml edit made while yoke was stopped with work on the file outstanding (a
// story's pass, a spec restore), on the bundle with real git and a scripted agent: the edit is kept
// in the file, in the pass's commit when it lands after the edit, and in what the run restores; it
// is told once; an edit the outstanding pass cannot honour is refused first (exit 2, nothing journaled).
import { chmod, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournal } from '../support/journal-records.js';
import { seqOf } from '../support/journal-points.js';
import { makeWorkspace, runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 90_000;
const workspaces: Workspace[] = [];
afterEach(async () => {
  for (const ws of workspaces.splice(0)) await ws.cleanup();
});

/** The scripted worker: reads the story id from its prompt, leaves a file for it, says DONE. */
const AGENT = `#!/bin/sh
story=$(grep -o '^### [A-Za-z0-9_-]*:' | head -1 | sed 's/^### //; s/:$//')
echo "$story" >> "$SIDE/calls"
echo "work for $story" > "out-$story.txt"
printf 'STATUS: DONE\\n' > .loop/notes.md
`;

const PRD = `stories:
  - id: S1
    title: First
    acceptance: [one]   # the operator's comment
  - id: S2
    title: Secnod
    depends-on: [S1]
    acceptance: [two]
`;

/** PRD as the operator fixes it while yoke is stopped: S2's title, and (with `more`) a story S3. */
function operatorEdit(text: string, more = false): string {
  const fixed = text.replace('title: Secnod', 'title: Second');
  return more ? `${fixed}  - id: S3\n    title: Third\n    acceptance: [three]\n` : fixed;
}

/** `text` with `passes: true` added to each story in `ids` (after its acceptance line, as yoke writes it). */
function passed(text: string, ...ids: string[]): string {
  return ids.reduce((out, id) => out.replace(new RegExp(`(- id: ${id}\\n(?:    .*\\n)*?    acceptance: .*\\n)`), '$1    passes: true\n'), text);
}

async function storiesWorkspace(): Promise<Workspace> {
  const ws = await makeWorkspace((paths) => ({
    '.loop/yoke.conf': `mode stories\nagent cmd SIDE=${paths.sideDir} sh ${paths.side('agent.sh')}\n`,
    '.loop/prd.yaml': PRD,
    '.loop/protocol.md': '# Protocol\n',
    '.loop/notes.md': 'STATUS: IN_PROGRESS\n',
    '.loop/.gitignore': '.journal/\n.stash/\n',
  }));
  workspaces.push(ws);
  await writeFile(ws.side('agent.sh'), AGENT);
  return ws;
}

/** The seq of the `nth` record `label` in an identical run that nobody stopped. */
async function referenceSeq(label: string, nth = 1): Promise<number> {
  const reference = await storiesWorkspace();
  expect((await runYoke(reference, ['run', '--quiet'])).exitCode).toBe(0);
  return seqOf(await readJournal(reference), label, nth);
}

const count = (text: string, pattern: RegExp): number => text.match(new RegExp(pattern.source, 'g'))?.length ?? 0;
const RESTORE_WARNING = /changed during the run; put back/;

describe('a prd.yaml edit made while yoke was stopped with work on it outstanding', () => {
  it("is kept by the story's pass outstanding then (its flag set on the edited list, in its commit), told once; an edit that drops the story, changes its criteria or breaks the file is refused first", async () => {
    const passStarted = await referenceSeq('effect.started story.pass:');
    const ws = await storiesWorkspace();
    const crashed = await runYoke(ws, ['run', '--quiet'], { env: { YOKE_FAILPOINT: `crash-after:${passStarted}` } });
    expect(crashed.signal).toBe('SIGKILL');
    expect((await ws.gitLog()).map((entry) => entry.subject)).toEqual(['initial']);
    const journaled = (await readJournal(ws)).length;

    // edits the outstanding pass cannot honour: refused with the file's line, exit 2, nothing journaled or changed
    const refusals: Array<[string, RegExp]> = [
      [PRD.replace(/ {2}- id: S1\n(?: {4}.*\n)+/, '').replace('    depends-on: [S1]\n', ''), /^yoke: \.loop\/prd\.yaml:1:1: error: story S1 passed its gates, and yoke stopped while it recorded that pass, but the list has no story S1 any more \(put S1 back and run `yoke run`/m],
      [PRD.replace('[one]', '[one, and more]'), /^yoke: \.loop\/prd\.yaml:2:1: error: story S1 passed its gates on its acceptance criteria as they were, and yoke stopped while it recorded that pass, but they changed since \(put them back and run `yoke run`/m],
      [PRD.replace('title: First', 'title: [First'), /^yoke: \.loop\/prd\.yaml:\d+:\d+: error: prd\.yaml is not valid YAML/m],
    ];
    for (const [text, said] of refusals) {
      await ws.write('.loop/prd.yaml', text);
      const refused = await runYoke(ws, ['run']);
      expect(refused.exitCode, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(said);
      expect((await readJournal(ws)).length).toBe(journaled);
      expect(await ws.read('.loop/prd.yaml')).toBe(text);
    }

    const edited = operatorEdit(PRD, true);
    await ws.write('.loop/prd.yaml', edited);
    const resumed = await runYoke(ws, ['run']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(count(resumed.stderr, /prd\.yaml changed: added S3; edited S2/)).toBe(1);
    expect(resumed.stderr).not.toMatch(RESTORE_WARNING);
    expect(await ws.sideLines('calls')).toEqual(['S1', 'S2', 'S3']);
    const log = await ws.gitLog();
    expect(log.map((entry) => entry.subject)).toEqual(['feat(S3): Third', 'feat(S2): Second', 'feat(S1): First', 'initial']);
    // S1's pass landed after the edit: its commit holds the edited list (the comment too) with S1's flag
    expect(`${await ws.git(['show', `${log[2]?.sha ?? ''}:.loop/prd.yaml`])}\n`).toBe(passed(edited, 'S1'));
    expect(await ws.read('.loop/prd.yaml')).toBe(passed(edited, 'S1', 'S2', 'S3'));
    expect(await ws.git(['status', '--porcelain', '--', '.loop/prd.yaml'])).toBe('');
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);

  it('is kept by a spec restore outstanding then, told once and never called a change during the run; and by a pass whose commit a kill cut off from its record', async () => {
    const restoreAfterWorker = await referenceSeq('effect.started spec.restore:', 2);
    const ws = await storiesWorkspace();
    const crashed = await runYoke(ws, ['run', '--quiet'], { env: { YOKE_FAILPOINT: `crash-after:${restoreAfterWorker}` } });
    expect(crashed.signal).toBe('SIGKILL');
    const first = operatorEdit(PRD);
    await ws.write('.loop/prd.yaml', first);
    // S1's commit kills yoke before its record: the next resume finds the commit by its trailer
    await writeFile(ws.side('kill-at-commit'), '');
    await writeFile(ws.abs('.git/hooks/post-commit'), `#!/bin/sh
[ -f "${ws.side('kill-at-commit')}" ] || exit 0
rm -f "${ws.side('kill-at-commit')}"
kill -9 "$(sed -n 's/.*"pid":\\([0-9]*\\).*/\\1/p' .loop/.journal/lock)"
`);
    await chmod(ws.abs('.git/hooks/post-commit'), 0o755);
    const killed = await runYoke(ws, ['run']);
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(count(killed.stderr, /prd\.yaml changed: edited S2/)).toBe(1);
    expect(killed.stderr).not.toMatch(RESTORE_WARNING);
    const log = await ws.gitLog();
    expect(log.map((entry) => entry.subject)).toEqual(['feat(S1): First', 'initial']);
    expect(`${await ws.git(['show', `${log[0]?.sha ?? ''}:.loop/prd.yaml`])}\n`).toBe(passed(first, 'S1'));

    // after that commit, before its record: another edit, kept by the pass's reconciliation
    const second = operatorEdit(await ws.read('.loop/prd.yaml'), true);
    await ws.write('.loop/prd.yaml', second);
    const resumed = await runYoke(ws, ['run']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(count(resumed.stderr, /prd\.yaml changed: added S3/)).toBe(1);
    expect(resumed.stderr).not.toMatch(RESTORE_WARNING);
    expect(await ws.sideLines('calls')).toEqual(['S1', 'S2', 'S3']);
    expect((await ws.gitLog()).map((entry) => entry.subject)).toEqual(['feat(S3): Third', 'feat(S2): Second', 'feat(S1): First', 'initial']);
    expect(await ws.read('.loop/prd.yaml')).toBe(passed(operatorEdit(PRD, true), 'S1', 'S2', 'S3'));
    const verify = await runYoke(ws, ['replay', '--verify']);
    expect(verify.exitCode, verify.stdout + verify.stderr).toBe(0);
  }, TIMEOUT);
});
