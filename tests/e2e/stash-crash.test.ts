// Crash safety of the stash commands: YOKE_FAILPOINT kills yoke (SIGKILL) at an exact journal
// position or file step; the next stash command finishes or rolls back, so the result is exactly
// the old state or exactly the new one, and no file is ever lost.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { modeTemplates } from '../../cli/canon.js';
import { templateWithAgent } from '../../cli/template-agent.js';
import { treeHash, type StashEntry } from '../../store/stash/stash-entry.js';
import { expectRefusal } from '../support/cli-expect.js';
import { journalLines } from '../support/journal-edit.js';
import { journalPath } from '../support/journal-records.js';
import { loopNames, loopSnapshot, richTree, writeTree } from '../support/loop-tree.js';
import { makeStashWorkspace, readIndex, stashList, yokeJson, yokeOk, type EntryJson } from '../support/stash-workspace.js';
import { snapshotTree } from '../support/tree-snapshot.js';
import { runYoke, type Workspace } from '../support/workspace.js';

const TIMEOUT = 30_000;
const workspaces: Workspace[] = [];

afterEach(async () => {
  if (process.env.KEEP_E2E === '1') return;
  await Promise.all(workspaces.splice(0).map((ws) => ws.cleanup()));
});

async function setup() {
  const ws = await makeStashWorkspace(richTree());
  workspaces.push(ws);
  return ws;
}

/** Run yoke with a failpoint and insist that it died by it. */
async function crash(ws: Workspace, args: string[], failpoint: string): Promise<void> {
  const result = await runYoke(ws, args, { env: { YOKE_FAILPOINT: failpoint } });
  expect(result.signal, `${args.join(' ')} with ${failpoint}: ${result.stderr}`).toBe('SIGKILL');
}

type Restored = { stashed: EntryJson | null; restored: EntryJson };

describe('a crash during a stash', () => {
  it('right after the push is durable (no file moved yet): the files are all there; the next command finishes the stash', async () => {
    const ws = await setup();
    const before = loopSnapshot(ws.loop);
    await crash(ws, ['stash'], 'crash-after:2'); // 1 stash.begun, 2 stash.pushed

    expect(loopSnapshot(ws.loop)).toEqual(before);
    const listed = await stashList(ws);
    expect(listed.interrupted).toMatchObject({ op: 'stash', seq: 1 });

    const pop = await yokeOk(ws, ['stash', 'pop']);
    expect(pop.stderr).toContain('finished an interrupted `yoke stash`');
    expect(loopSnapshot(ws.loop)).toEqual(before);
    expect(readIndex(ws)).toMatchObject({ open: null, entries: [{ popped: true, cleared: true }] });
  }, TIMEOUT);

  it('half-way through moving files out: `stash list` reports it and changes nothing; the next command completes it', async () => {
    const ws = await setup();
    const before = loopSnapshot(ws.loop);
    await crash(ws, ['stash'], 'stash-clear:5');
    const torn = await snapshotTree(ws.path);
    expect(Object.keys(loopSnapshot(ws.loop)).length).toBeLessThan(Object.keys(before).length);

    expect((await stashList(ws)).interrupted).toMatchObject({ op: 'stash' });
    expect(await snapshotTree(ws.path)).toEqual(torn);

    await yokeOk(ws, ['stash', 'pop']);
    expect(loopSnapshot(ws.loop)).toEqual(before);
  }, TIMEOUT);

  it('with the push torn mid-write: the push never happened, the next command rolls back and the old state stays', async () => {
    const ws = await setup();
    const before = loopSnapshot(ws.loop);
    await crash(ws, ['stash'], 'torn-at:2');
    expect(loopSnapshot(ws.loop)).toEqual(before);

    const pop = await runYoke(ws, ['stash', 'pop']);
    expectRefusal(pop, 2, /nothing to pop: the stash is empty/);
    expect(pop.stderr).toMatch(/removed a torn last line/);
    expect(pop.stderr).toContain('an interrupted `yoke stash` had changed nothing yet; it was rolled back');
    expect(loopSnapshot(ws.loop)).toEqual(before);
    expect(readIndex(ws)).toEqual({ entries: [], open: null });
    expect(journalLines(journalPath(ws.path)).map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(['stash.begun', 'journal.repaired', 'stash.ended']);
  }, TIMEOUT);
});

describe('a crash during a restore', () => {
  it('while staging (before the intent is journaled): .loop/ is untouched; the next command sweeps the scratch files and pops', async () => {
    const ws = await setup();
    const before = loopSnapshot(ws.loop);
    await yokeOk(ws, ['stash']);
    // the dead yoke leaves its lock (taken over next time) and its scratch folder, nothing else
    const ignored = ['.loop/.stash/work', '.loop/.journal/lock'];
    const stashed = await snapshotTree(ws.path, ignored);
    await crash(ws, ['stash', 'pop'], 'stash-stage:4');

    expect(await snapshotTree(ws.path, ignored)).toEqual(stashed);
    expect(readdirSync(join(ws.loop, '.stash', 'work'))).toHaveLength(1);

    await yokeOk(ws, ['stash', 'pop']);
    expect(loopSnapshot(ws.loop)).toEqual(before);
    expect(readdirSync(join(ws.loop, '.stash', 'work'))).toEqual([]);
  }, TIMEOUT);

  it('while renaming names into .loop/: the next command rolls the pop forward to exactly the stashed files', async () => {
    const ws = await setup();
    const before = loopSnapshot(ws.loop);
    const { stashed } = await yokeJson<{ stashed: EntryJson }>(ws, ['stash']);
    await crash(ws, ['stash', 'pop'], 'stash-place:3');
    expect(loopNames(ws.loop).filter((name) => !name.startsWith('.'))).toHaveLength(3);

    // checkout stashes what is in .loop/ after the repair: it must be the popped entry, exactly
    const checkout = await yokeJson<Restored>(ws, ['stash', 'checkout', stashed.id]);
    expect(checkout.stashed?.tree).toBe(stashed.tree);
    expect(loopSnapshot(ws.loop)).toEqual(before);
    expect(readIndex(ws).entries[0]).toMatchObject({ id: stashed.id, popped: true });
  }, TIMEOUT);

  it('checkout killed while its auto-stash moves files out: finished by the next command; both states recoverable', async () => {
    const ws = await setup();
    const stateA = loopSnapshot(ws.loop);
    const { stashed: a } = await yokeJson<{ stashed: EntryJson }>(ws, ['stash', '-m', 'A']);
    writeTree(ws.loop, { 'plan.md': 'plan B\n', 'b/one.txt': '1\n', 'b/two.txt': '2\n' });
    const stateB = loopSnapshot(ws.loop);
    await crash(ws, ['stash', 'checkout', a.id.slice(0, 8)], 'stash-clear:1');

    const { stashed: again } = await yokeJson<{ stashed: EntryJson }>(ws, ['stash']);
    expect(again.tree).toBe(a.tree);
    const autoStash = readIndex(ws).entries.find((entry) => entry.via === 'checkout');
    await yokeOk(ws, ['stash', 'checkout', autoStash?.id ?? 'missing']);
    expect(loopSnapshot(ws.loop)).toEqual(stateB);
    await yokeOk(ws, ['stash', 'checkout', a.id]);
    expect(loopSnapshot(ws.loop)).toEqual(stateA);
  }, TIMEOUT);

  it('mode switch killed while writing the new templates: finished by the next command; the old mode\'s files are safe', async () => {
    const ws = await setup();
    const loopState = loopSnapshot(ws.loop);
    await crash(ws, ['mode', 'brute'], 'stash-place:2');
    expect((await stashList(ws)).interrupted).toMatchObject({ op: 'mode' });

    const modeStash = readIndex(ws).entries.find((entry) => entry.via === 'mode');
    const checkout = await yokeJson<Restored>(ws, ['stash', 'checkout', modeStash?.id ?? 'missing']);
    expect(loopSnapshot(ws.loop)).toEqual(loopState);
    // what the repaired switch left in .loop/ (and checkout stashed) is exactly the brute templates,
    // the conf keeping the workspace's agent line
    const templates = modeTemplates('brute');
    const written = (name: string, content: Buffer): Buffer => (name === 'yoke.conf' ? Buffer.from(templateWithAgent(content.toString('utf8'), { agent: 'agent cmd true', model: null })) : content);
    const expected: StashEntry[] = Object.entries(templates?.files ?? {})
      .filter(([name]) => !name.startsWith('.'))
      .map(([name, template]) => [name, written(name, template)] as const)
      .map(([name, content]) => ({ path: name, type: 'file' as const, mode: 0o644, size: content.length, blob: createHash('sha256').update(content).digest('hex') }))
      .sort((x, y) => (x.path < y.path ? -1 : 1));
    expect(checkout.stashed).toMatchObject({ mode: 'brute', tree: treeHash(expected) });
    expect(readFileSync(join(ws.loop, '.gitignore'), 'utf8')).toBe(templates?.files['.gitignore']?.toString('utf8'));
  }, TIMEOUT);
});
