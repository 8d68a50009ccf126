// Spec §3 (the stash) and §6 (mode switching), end to end: the built CLI in throwaway git projects.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { modeTemplates } from '../../cli/canon.js';
import { journalLines } from '../support/journal-edit.js';
import { journalPath } from '../support/journal-records.js';
import { loopNames, loopSnapshot, richTree, writeTree } from '../support/loop-tree.js';
import { makeStashWorkspace, readIndex, stashList, yokeJson, yokeOk, type EntryJson } from '../support/stash-workspace.js';
import { snapshotTree } from '../support/tree-snapshot.js';
import type { Workspace } from '../support/workspace.js';

const TIMEOUT = 30_000;
const DOTFILES_ONLY = ['.gitignore', '.journal', '.stash'];
const workspaces: Workspace[] = [];

afterEach(async () => {
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

async function setup(tree = richTree()) {
  const ws = await makeStashWorkspace(tree);
  workspaces.push(ws);
  return ws;
}

type Pushed = { stashed: EntryJson | null };
type Restored = { stashed: EntryJson | null; restored: EntryJson };

/** The loop templates yoke ships, as `.loop/` snapshot lines would show them. */
function templateFiles(mode: 'loop' | 'brute' | 'saga' | 'goal'): Record<string, string> {
  const templates = modeTemplates(mode);
  if (!templates) throw new Error(`no templates for ${mode}`);
  return Object.fromEntries(Object.entries(templates.files).filter(([name]) => !name.startsWith('.')).map(([name, content]) => [name, content.toString('utf8')]));
}

function readLoopFiles(loop: string, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, readFileSync(`${loop}/${name}`, 'utf8')]));
}

describe('spec §3: the stash', () => {
  it('3.1 stash clears the working directory; pop and checkout restore every entry byte for byte', async () => {
    const ws = await setup();
    const before = loopSnapshot(ws.loop);
    expect(Object.keys(before).length).toBeGreaterThan(15);

    const { stashed } = await yokeJson<Pushed>(ws, ['stash', '-m', 'rich tree']);
    expect(stashed).toMatchObject({ mode: 'loop', message: 'rich tree', via: 'stash', files: 12 });
    expect(loopNames(ws.loop)).toEqual(DOTFILES_ONLY);

    const popped = await yokeJson<Restored>(ws, ['stash', 'pop']);
    expect(popped.restored.id).toBe(stashed?.id);
    expect(loopSnapshot(ws.loop)).toEqual(before);

    // the same through checkout, by a prefix of the new entry's id
    const second = await yokeJson<Pushed>(ws, ['stash']);
    expect(loopNames(ws.loop)).toEqual(DOTFILES_ONLY);
    await yokeOk(ws, ['stash', 'checkout', second.stashed?.id.slice(0, 10) ?? '']);
    expect(loopSnapshot(ws.loop)).toEqual(before);
  }, TIMEOUT);

  it('3.2 clean auto-stashes before wiping: the entry holds everything that was there', async () => {
    const ws = await setup();
    const before = loopSnapshot(ws.loop);

    const cleaned = await yokeJson<{ stashed: EntryJson; kept: string[]; fresh: string[] }>(ws, ['clean']);

    expect(cleaned.stashed).toMatchObject({ via: 'clean', mode: 'loop', files: 12 });
    // the run state is wiped: the spec files stay, the mode's other templates start fresh
    expect(cleaned.kept).toEqual(['plan.md', 'yoke.conf']);
    expect(loopNames(ws.loop)).toEqual([...DOTFILES_ONLY, 'notes.md', 'plan.md', 'protocol.md', 'yoke.conf']);
    expect(readLoopFiles(ws.loop, ['notes.md', 'protocol.md'])).toEqual({ 'notes.md': templateFiles('loop')['notes.md'], 'protocol.md': templateFiles('loop')['protocol.md'] });
    expect(loopSnapshot(ws.loop)['plan.md']).toBe(before['plan.md']);

    await yokeOk(ws, ['stash', 'checkout', cleaned.stashed.id]);
    expect(loopSnapshot(ws.loop)).toEqual(before);
  }, TIMEOUT);

  it('3.2 checkout auto-stashes the current state before restoring: both states stay recoverable', async () => {
    const ws = await setup();
    const stateA = loopSnapshot(ws.loop);
    const a = await yokeJson<Pushed>(ws, ['stash', '-m', 'A']);
    writeTree(ws.loop, { 'plan.md': 'plan B\n', 'notes.md': 'STATUS: DONE\nB\n', 'b/only-in-b.txt': 'b\n' });
    const stateB = loopSnapshot(ws.loop);

    const checkout = await yokeJson<Restored>(ws, ['stash', 'checkout', a.stashed?.id.slice(0, 8) ?? '']);

    expect(loopSnapshot(ws.loop)).toEqual(stateA);
    expect(checkout.stashed).toMatchObject({ via: 'checkout', files: 3, message: `before yoke stash checkout ${a.stashed?.id.slice(0, 12) ?? ''}` });
    await yokeOk(ws, ['stash', 'checkout', checkout.stashed?.id ?? '']);
    expect(loopSnapshot(ws.loop)).toEqual(stateB);
  }, TIMEOUT);

  it('3.3 each entry records the mode that was active, and the tag survives restores', async () => {
    const ws = await setup({ 'yoke.conf': '# brute mode\nmode brute   # judged\nagent cmd true\n', 'plan.md': 'p\n' });
    const brute = await yokeJson<Pushed>(ws, ['stash']);
    writeTree(ws.loop, { 'yoke.conf': 'mode saga\nthis line is not valid\n', 'x.md': 'x\n' });
    const saga = await yokeJson<Pushed>(ws, ['stash']);
    writeTree(ws.loop, { 'notes.md': 'no conf at all\n' });
    const unknown = await yokeJson<Pushed>(ws, ['stash']);
    expect([brute.stashed?.mode, saga.stashed?.mode, unknown.stashed?.mode]).toEqual(['brute', 'saga', 'unknown']);
    const journalBefore = journalLines(journalPath(ws.path));

    await yokeOk(ws, ['stash', 'pop']);
    await yokeOk(ws, ['stash', 'checkout', brute.stashed?.id ?? '']);

    const { entries } = readIndex(ws);
    const tags = Object.fromEntries(entries.map((entry) => [entry.id, entry.mode]));
    expect(tags[brute.stashed?.id ?? '']).toBe('brute');
    expect(tags[saga.stashed?.id ?? '']).toBe('saga');
    expect(tags[unknown.stashed?.id ?? '']).toBe('unknown');
    // the records that carry the tags are untouched
    expect(journalLines(journalPath(ws.path)).slice(0, journalBefore.length)).toEqual(journalBefore);
  }, TIMEOUT);

  it('3.4 the index is append-only: every command only appends, and popped entries stay listed', async () => {
    const ws = await setup({ 'yoke.conf': 'mode loop\nagent cmd true\n', 'plan.md': 'p\n' });
    const journal = journalPath(ws.path);
    let lines: string[] = [];
    let listed = 0;
    const steps: string[][] = [['stash'], ['stash', 'pop'], ['mode', 'brute'], ['clean'], ['stash', '-m', 'again'], ['stash', 'pop'], ['mode', 'loop']];
    for (const args of steps) {
      await yokeOk(ws, args);
      const now = journalLines(journal);
      expect(now.length, args.join(' ')).toBeGreaterThan(lines.length);
      expect(now.slice(0, lines.length), `${args.join(' ')} rewrote an earlier line`).toEqual(lines);
      lines = now;
      const { entries } = readIndex(ws);
      expect(entries.length).toBeGreaterThanOrEqual(listed);
      listed = entries.length;
    }
    const { entries } = await stashList(ws);
    expect(entries.map((entry) => entry.via)).toEqual(['mode', 'stash', 'clean', 'mode', 'stash']);
    expect(entries.filter((entry) => entry.popped)).toHaveLength(2);
  }, TIMEOUT);

  it('3.5 prefix matching is unambiguous: a prefix of several entries is an error naming them, nothing changes', async () => {
    const ws = await setup();
    const ids: string[] = [];
    let shared: [string, string] | null = null;
    // stash until two ids share their first hex digit (at most 17 entries, usually about 5)
    for (let i = 0; shared === null; i += 1) {
      writeTree(ws.loop, { [`file-${i}.txt`]: `${i}\n` });
      const { stashed } = await yokeJson<Pushed>(ws, ['stash']);
      const id = stashed?.id ?? '';
      const twin = ids.find((other) => other[0] === id[0]);
      if (twin) shared = [twin, id];
      ids.push(id);
    }
    writeTree(ws.loop, { 'current.txt': 'current state\n' });
    const before = await snapshotTree(ws.path);

    const ambiguous = await yokeOk(ws, ['stash', 'checkout', shared[0].slice(0, 1)], 2);
    expect(ambiguous.stderr).toMatch(/is ambiguous/);
    expect(ambiguous.stderr).toContain(shared[0].slice(0, 12));
    expect(ambiguous.stderr).toContain(shared[1].slice(0, 12));
    const unknownHex = [...'0123456789abcdef'].find((digit) => !ids.some((id) => id.startsWith(digit)));
    if (unknownHex) expect((await yokeOk(ws, ['stash', 'checkout', unknownHex], 2)).stderr).toMatch(/no stash entry id starts with/);
    expect((await yokeOk(ws, ['stash', 'checkout', 'not-hex'], 2)).stderr).toMatch(/is not a stash id/);
    expect(await snapshotTree(ws.path)).toEqual(before);

    // one more digit than the shared part picks exactly one
    let length = 1;
    while (shared[0].slice(0, length) === shared[1].slice(0, length)) length += 1;
    const picked = await yokeJson<Restored>(ws, ['stash', 'checkout', shared[1].slice(0, length).toUpperCase()]);
    expect(picked.restored.id).toBe(shared[1]);
  }, TIMEOUT);
});

describe('spec §6: mode switching', () => {
  it('6.1 a mode switch stashes all of the old mode\'s files, tagged with the old mode', async () => {
    const ws = await setup();
    const loopState = loopSnapshot(ws.loop);

    const switched = await yokeJson<{ from: string; to: string; stashed: EntryJson }>(ws, ['mode', 'brute']);

    expect(switched).toMatchObject({ from: 'loop', to: 'brute', stashed: { mode: 'loop', via: 'mode', files: 12 } });
    await yokeOk(ws, ['stash', 'checkout', switched.stashed.id]);
    expect(loopSnapshot(ws.loop)).toEqual(loopState);
  }, TIMEOUT);

  it('6.2 a mode switch always fresh-inits the target mode; earlier sessions are not restored', async () => {
    const ws = await setup({});
    // the templates' own agent, so the fresh files are the templates byte for byte (mode keeps the agent line)
    await yokeOk(ws, ['init', 'loop', '--agent', 'claude']);
    writeTree(ws.loop, { 'plan.md': 'my loop plan\n', 'notes.md': 'STATUS: DONE\n', 'verdict.md': 'VERDICT: PASS\n' });

    await yokeOk(ws, ['mode', 'brute']);
    expect(loopNames(ws.loop)).toEqual([...DOTFILES_ONLY, ...Object.keys(templateFiles('brute'))].sort());
    expect(readLoopFiles(ws.loop, Object.keys(templateFiles('brute')))).toEqual(templateFiles('brute'));
    writeTree(ws.loop, { 'judge.md': 'my judge\n' });

    // back to loop: fresh templates again, not the edited loop session
    const back = await yokeJson<{ stashed: EntryJson }>(ws, ['mode', 'loop']);
    expect(back.stashed.mode).toBe('brute');
    expect(loopNames(ws.loop)).toEqual([...DOTFILES_ONLY, ...Object.keys(templateFiles('loop'))].sort());
    expect(readLoopFiles(ws.loop, Object.keys(templateFiles('loop')))).toEqual(templateFiles('loop'));
    const { entries } = readIndex(ws);
    expect(entries.map((entry) => [entry.mode, entry.via])).toEqual([['loop', 'mode'], ['brute', 'mode']]);
  }, TIMEOUT);
});
